//===- Atomics.cpp - What a shared-memory atomic compiles to --------------===//
//
// The classes and their SASS were read from nvcc 13.0's output for sm_90 and
// measured on an H100 (utils/oracles/shared-atomics.cu, test/data/
// h100-atomics.csv); docs/bank-model.md lists what is measured and what is
// inferred (marked "inferred" below).
//
//===----------------------------------------------------------------------===//
#include "Atomics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace cbl {

static std::optional<AtomicOp> opNamed(llvm::StringRef N) {
  auto Op = llvm::StringSwitch<AtomicOp>(N)
                .Cases("add", "fetch_add", "add_fetch", AtomicOp::Add)
                .Cases("sub", "fetch_sub", "sub_fetch", AtomicOp::Sub)
                .Cases("exch", "exchange", "exchange_n", AtomicOp::Exch)
                .Cases("min", "fetch_min", "min_fetch", AtomicOp::Min)
                .Cases("max", "fetch_max", "max_fetch", AtomicOp::Max)
                .Case("inc", AtomicOp::Inc)
                .Case("dec", AtomicOp::Dec)
                .Cases("cas", "compare_exchange", "compare_exchange_n",
                       "compare_exchange_strong", "compare_exchange_weak", AtomicOp::Cas)
                .Cases("and", "fetch_and", "and_fetch", AtomicOp::And)
                .Cases("or", "fetch_or", "or_fetch", AtomicOp::Or)
                .Cases("xor", "fetch_xor", "xor_fetch", AtomicOp::Xor)
                .Cases("load", "load_n", AtomicOp::Load)
                .Cases("store", "store_n", AtomicOp::Store)
                .Default(AtomicOp::Other);
  if (Op == AtomicOp::Other)
    return std::nullopt;
  return Op;
}

std::optional<AtomicOp> atomicOpOfName(llvm::StringRef Name) {
  llvm::StringRef N = Name;
  if (N.consume_front("atomic")) {
    N.consume_back("_block") || N.consume_back("_system");
    if (N.empty() || !isupper(static_cast<unsigned char>(N[0])))
      return std::nullopt;
    return opNamed(N.lower());
  }
  for (llvm::StringRef Prefix : {"__nv_atomic_", "__atomic_", "__c11_atomic_", "__scoped_atomic_"})
    if (N.consume_front(Prefix)) {
      auto Op = opNamed(N);
      return Op ? Op : std::optional<AtomicOp>(AtomicOp::Other);
    }
  return std::nullopt;
}

std::optional<PtxAtomic> ptxAtomic(llvm::StringRef Opcode) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  if (Parts.empty() || (Parts[0] != "atom" && Parts[0] != "red"))
    return std::nullopt;
  PtxAtomic P{AtomicOp::Other, AtomicValue::Other, 0};
  for (llvm::StringRef T : llvm::ArrayRef(Parts).drop_front()) {
    if (T.starts_with("global"))
      return std::nullopt;
    if (auto Op = opNamed(T))
      P.Op = *Op;
    else if (T.size() >= 3 && (T[0] == 'u' || T[0] == 's' || T[0] == 'b' || T[0] == 'f') &&
             isdigit(static_cast<unsigned char>(T[1]))) {
      unsigned Bits = 0;
      if (T.drop_front().getAsInteger(10, Bits))
        continue;
      P.Width = Bits / 8;
      P.Value = T[0] == 'f' ? AtomicValue::Float : AtomicValue::Integer;
    } else if (T == "f16x2" || T == "bf16x2") {
      P.Width = 4;
      P.Value = AtomicValue::PackedHalf;
    }
  }
  return P; // .shared, or generic with an address the caller found in shared memory
}

AtomicInstruction classifyAtomic(AtomicOp Op, AtomicValue Value, unsigned Width,
                                 llvm::StringRef Spelling) {
  AtomicInstruction I;
  I.Width = Width;
  auto Unmodelled = [&](const std::string &What) {
    I.Unmodelled = "shared-memory atomic '" + Spelling.str() + "' " + What +
                   ": no rule measured for it yet";
    return I;
  };
  switch (Op) {
  case AtomicOp::Load: // an atomic (relaxed) load or store is an LDS / STS
  case AtomicOp::Store:
    I.Op = Op == AtomicOp::Load ? AccessOp::Load : AccessOp::Store;
    if (Width != 1 && Width != 2 && Width != 4 && Width != 8 && Width != 16)
      return Unmodelled("on " + std::to_string(Width) + "-byte values");
    return I;
  case AtomicOp::Cas: // ATOMS.CAS, ATOMS.CAS.64 (measured)
    if (Width != 4 && Width != 8)
      return Unmodelled("on " + std::to_string(Width) + "-byte values");
    I.Rule = AtomicRule::Cas;
    return I;
  case AtomicOp::Add:
    if (Value == AtomicValue::PackedHalf && Width == 4) { // generic ATOM + CAS loop (measured)
      I.Rule = AtomicRule::GenericCasLoop;
      return I;
    }
    if ((Value == AtomicValue::Float && (Width == 4 || Width == 8)) ||
        (Value == AtomicValue::Integer && Width == 8)) { // LDS + ATOMS.CAST.SPIN loop (measured)
      I.Rule = AtomicRule::CasLoop;
      return I;
    }
    break;
  case AtomicOp::Other:
    return Unmodelled("(an operation the tool does not know)");
  default:
    break;
  }
  if (Width == 8 && (Op == AtomicOp::Min || Op == AtomicOp::Max || Op == AtomicOp::And ||
                     Op == AtomicOp::Or || Op == AtomicOp::Xor))
    return Unmodelled("on 8-byte values (a compare-and-swap loop that lanes whose value leaves "
                      "the word unchanged skip, so its cost depends on the data: measured, no rule)");
  if (Op == AtomicOp::Exch && Width == 8 && Value != AtomicValue::Other) {
    I.Rule = AtomicRule::Native; // ATOMS.EXCH.64 (measured)
    return I;
  }
  if (Value == AtomicValue::Integer && Width == 4) {
    // ATOMS.ADD/EXCH/MIN/MAX/AND/INC measured; SUB (an ADD of the negated
    // value), OR, XOR and DEC inferred from the same instruction.
    I.Rule = AtomicRule::Native;
    return I;
  }
  if (Op == AtomicOp::Exch && Value == AtomicValue::Float && Width == 4) {
    I.Rule = AtomicRule::Native; // atomicExch(float*) exchanges the bits: ATOMS.EXCH (inferred)
    return I;
  }
  return Unmodelled("on " + std::to_string(Width) + "-byte " +
                    (Value == AtomicValue::Float        ? "floating-point"
                     : Value == AtomicValue::PackedHalf ? "packed half"
                     : Value == AtomicValue::Integer    ? "integer"
                                                        : "") +
                    " values");
}

AtomicInstruction classifyGenericAtomic(AtomicOp Op, AtomicValue Value, unsigned Width,
                                        llvm::StringRef Spelling) {
  AtomicInstruction I = classifyAtomic(Op, Value, Width, Spelling);
  if (!I.Unmodelled.empty() || I.Op != AccessOp::Atomic)
    return I; // unmodelled already, or a plain load or store
  if (Value != AtomicValue::Integer || Width != 4 || Op == AtomicOp::Cas)
    I.Unmodelled = "'" + Spelling.str() + "' on " + std::to_string(Width) +
                   "-byte values compiles to a generic-address atomic that was not measured";
  else
    I.Rule = AtomicRule::Native;
  return I;
}

} // namespace cbl
