//===- PtxInstructions.cpp - Shared-memory instructions of inline PTX -----===//
#include "PtxInstructions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cctype>

namespace cbl {

namespace {

/// Where the instruction Prefix starts in Text, at a word boundary ("red."
/// is not the end of "shared.").
size_t findInstruction(llvm::StringRef Text, llvm::StringRef Prefix) {
  for (size_t P = Text.find(Prefix); P != llvm::StringRef::npos; P = Text.find(Prefix, P + 1)) {
    char Before = P ? Text[P - 1] : ' ';
    if (!isalnum(static_cast<unsigned char>(Before)) && Before != '_' && Before != '.' && Before != ':')
      return P;
  }
  return llvm::StringRef::npos;
}

} // namespace

/// The shared-memory instruction of an inline-PTX string, most specific first.
std::optional<PtxClass> ptxClass(llvm::StringRef Text) {
  // atom/red with any semantics and scope (atom.relaxed.cta.shared::cta.add.u32),
  // or generic (atom.add.s32) on an operand found in shared memory.
  for (const char *Prefix : {"atom.", "red."})
    if (findInstruction(Text, Prefix) != llvm::StringRef::npos)
      return PtxClass{Prefix, AccessOp::Atomic};
  static const PtxClass Classes[] = {
      {"ldmatrix", AccessOp::Load},        {"stmatrix", AccessOp::Store},
      {"cp.async.bulk", AccessOp::Store},  {"cp.async", AccessOp::Store},
      {"ld.shared", AccessOp::Load},       {"ld.volatile.shared", AccessOp::Load},
      {"st.shared", AccessOp::Store},      {"st.volatile.shared", AccessOp::Store},
      {"mbarrier", AccessOp::Atomic},      {"ld.", AccessOp::Load},
      {"st.", AccessOp::Store}};
  for (const PtxClass &C : Classes)
    if (Text.contains(C.Opcode))
      return C;
  return std::nullopt;
}

/// The full opcode at the first occurrence of Prefix ("ldmatrix.sync.aligned.m8n8.x4.shared.b16").
std::string opcodeAt(llvm::StringRef Text, llvm::StringRef Prefix) {
  size_t P = findInstruction(Text, Prefix);
  if (P == llvm::StringRef::npos)
    return Prefix.str();
  return Text.substr(P).take_while([](char C) { return !isspace(C) && C != ';' && C != '{'; }).str();
}

std::string lastOperandAt(llvm::StringRef Text, llvm::StringRef Prefix) {
  size_t P = findInstruction(Text, Prefix);
  if (P == llvm::StringRef::npos)
    return "";
  llvm::StringRef Rest = Text.substr(P).drop_until([](char C) { return isspace(C); });
  Rest = Rest.take_until([](char C) { return C == ';' || C == '\n'; });
  return Rest.rsplit(',').second.trim().str();
}

/// ldmatrix / stmatrix with 8x8 matrices of 16-bit elements (m8n8 .b16,
/// measured on an H100): the lanes that give row addresses, 8 per matrix.
/// The sm_100 .b8 forms (m16n16, m8n16) were not measured: std::nullopt.
std::optional<uint32_t> matrixAddressLanes(llvm::StringRef Opcode) {
  if (!(Opcode.starts_with("ldmatrix") || Opcode.starts_with("stmatrix")) ||
      !Opcode.contains(".m8n8") || !Opcode.contains(".b16"))
    return std::nullopt;
  if (Opcode.contains(".x4"))
    return 0xffffffffu;
  if (Opcode.contains(".x2"))
    return 0xffffu;
  return 0xffu;
}

/// The bytes per lane of an inline-PTX ld/st on shared memory
/// ("ld.shared.v4.u32": 16, "st.volatile.shared.b8": 1); std::nullopt when
/// the opcode is not one or its width is not 1, 2, 4, 8 or 16 bytes. Such
/// an instruction is an LDS/STS like the compiler's own (measured rules).
std::optional<unsigned> sharedLoadStoreWidth(llvm::StringRef Opcode) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  if (Parts.empty() || (Parts[0] != "ld" && Parts[0] != "st"))
    return std::nullopt;
  bool Shared = false;
  unsigned Vec = 1, Bits = 0;
  for (llvm::StringRef T : llvm::ArrayRef(Parts).drop_front()) {
    if (T.starts_with("shared"))
      Shared = true;
    else if (T == "v2" || T == "v4")
      Vec = T == "v2" ? 2 : 4;
    else if (T.size() >= 2 && llvm::StringRef("busf").contains(T[0]) &&
             isdigit(static_cast<unsigned char>(T[1])))
      T.drop_front().getAsInteger(10, Bits);
  }
  unsigned Width = Vec * Bits / 8;
  if (!Shared || Bits % 8 || (Width != 1 && Width != 2 && Width != 4 && Width != 8 && Width != 16))
    return std::nullopt;
  return Width;
}

/// Why a cp.async / cp.async.bulk is recorded but not costed (measured).
std::string copyReason(llvm::StringRef Opcode) {
  if (Opcode.starts_with("cp.async.bulk"))
    return "cp.async.bulk is one bulk transfer (TMA), not bank-modelled: on the H100 the "
           "shared-memory pipe counts no wavefront for it, whatever its size and offset "
           "(measured, docs/bank-model.md)";
  return "cp.async is not bank-modelled: on the H100 the shared-memory counters show no "
         "destination bank conflicts for cp.async.cg and mix the global source with the "
         "destination for cp.async.ca (measured, docs/bank-model.md)";
}

bool isBlockBarrierPtx(llvm::StringRef Text) {
  for (const char *Op : {"barrier.sync", "bar.sync"}) {
    size_t P = Text.find(Op);
    if (P == llvm::StringRef::npos)
      continue;
    llvm::StringRef Operands = Text.substr(P).take_until([](char C) { return C == ';'; });
    return !Operands.contains(','); // no thread count
  }
  return false;
}

} // namespace cbl
