//===- IRValues.cpp - Device IR values as symbolic expressions ------------===//
#include "IRTranslator.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace cbl {

namespace {

/// LLVM integers are signless; the model's values carry a C++ type, and each
/// operation casts its operands to the signedness it needs.
IntType signedType(unsigned Bits) { return Bits == 1 ? IntType::boolean() : IntType{Bits, true}; }
IntType unsignedType(unsigned Bits) { return Bits == 1 ? IntType::boolean() : IntType{Bits, false}; }
IntType typeOfValue(const Value *V) {
  Type *T = V->getType();
  return T->isIntegerTy() && T->getIntegerBitWidth() <= 64 ? signedType(T->getIntegerBitWidth())
                                                          : IntType::i32();
}

std::optional<Axis> axisOfSreg(Intrinsic::ID ID, Intrinsic::ID X, Intrinsic::ID Y, Intrinsic::ID Z) {
  if (ID == X)
    return Axis::X;
  if (ID == Y)
    return Axis::Y;
  if (ID == Z)
    return Axis::Z;
  return std::nullopt;
}

/// The unqualified name of a called function ("min" for _Z3minii).
std::string baseName(StringRef Mangled) {
  ItaniumPartialDemangler D;
  const std::string Name = Mangled.str(); // the demangler points into it
  if (!Mangled.starts_with("_Z") || D.partialDemangle(Name.c_str()))
    return Mangled.str();
  size_t N = 0;
  char *Buf = D.getFunctionBaseName(nullptr, &N);
  std::string Out = Buf ? std::string(Buf) : Mangled.str();
  std::free(Buf);
  return Out;
}

} // namespace

SymRef boolConstant(bool V) { return SymExpr::constant(V ? 1 : 0, IntType::boolean()); }

SymRef andOf(const SymRef &A, const SymRef &B) {
  if (A->isConst())
    return A->Value ? B : A;
  if (B->isConst())
    return B->Value ? A : B;
  return SymExpr::binary(Opcode::LAnd, A, B, IntType::boolean());
}

SymRef orOf(const SymRef &A, const SymRef &B) {
  if (A->isConst())
    return A->Value ? A : B;
  if (B->isConst())
    return B->Value ? B : A;
  return SymExpr::binary(Opcode::LOr, A, B, IntType::boolean());
}

/// The negation, pushed through && and || (De Morgan) and into
/// comparisons (!(a < b) is a >= b), so that a guard reads as conditions
/// that hold: thresholds the warp analysis recognises.
SymRef notOf(const SymRef &A) {
  if (A->isConst())
    return boolConstant(!A->Value);
  if (A->Kind == ExprKind::Unary && A->Op == Opcode::LNot)
    return A->Ops[0];
  if (A->Kind == ExprKind::Binary && (A->Op == Opcode::LAnd || A->Op == Opcode::LOr)) {
    SymRef L = notOf(A->Ops[0]), R = notOf(A->Ops[1]);
    return A->Op == Opcode::LAnd ? orOf(L, R) : andOf(L, R);
  }
  if (A->Kind == ExprKind::Binary && isComparison(A->Op)) {
    Opcode Inverse = A->Op;
    switch (A->Op) {
    case Opcode::LT: Inverse = Opcode::GE; break;
    case Opcode::LE: Inverse = Opcode::GT; break;
    case Opcode::GT: Inverse = Opcode::LE; break;
    case Opcode::GE: Inverse = Opcode::LT; break;
    case Opcode::EQ: Inverse = Opcode::NE; break;
    case Opcode::NE: Inverse = Opcode::EQ; break;
    default: break;
    }
    if (Inverse != A->Op)
      return SymExpr::binary(Inverse, A->Ops[0], A->Ops[1], A->Type);
  }
  return SymExpr::unary(Opcode::LNot, A, IntType::boolean());
}

SymRef selectOf(const SymRef &C, const SymRef &A, const SymRef &B, IntType T) {
  // A truth value chosen between constants is a logical operation, which
  // the guard analyses read (c ? true : x is c || x).
  if (T.Bits == 1) {
    if (A->isConst())
      return A->Value ? orOf(C, B) : andOf(notOf(C), B);
    if (B->isConst())
      return B->Value ? orOf(notOf(C), A) : andOf(C, A);
  }
  return SymExpr::select(C, A, B, T);
}

/// An unknown result of I: of the toolkit call the user wrote (atomicAdd)
/// when I comes from one, else for the reason Otherwise.
SymRef IRTranslator::resultOf(const Instruction &I, const std::string &Otherwise) {
  std::string W = Locs.placeOf(I.getDebugLoc().get()).Wrapper;
  return unknownOf(&I, W.empty() ? Otherwise : "result of call to '" + W + "'");
}

SymRef IRTranslator::unknownOf(const Value *V, const std::string &Why, const std::string &NameSuffix,
                                const DILocation *At) {
  IntType T = typeOfValue(V);
  std::string Name = nameOf(V, NameSuffix, At);
  return A.UI.isDivergent(V) ? SymExpr::varying(Name, Why, T) : SymExpr::uniform(Name, Why, T);
}

SymRef IRTranslator::intOf(const Value *V) {
  auto &Cache = SubstLoop ? SubstInts : Ints;
  if (SubstLoop) {
    auto Next = NextAsCounter.find(V);
    if (Next != NextAsCounter.end())
      return Next->second;
  }
  auto It = Cache.find(V);
  if (It != Cache.end())
    return It->second;
  SymRef R;
  if (Depth > MaxDepth) {
    R = unknownOf(V, "expression nested too deeply to follow");
  } else {
    ++Depth;
    R = translateInt(V);
    --Depth;
  }
  (SubstLoop ? SubstInts : Ints)[V] = R;
  return R;
}

SymRef IRTranslator::translateInt(const Value *V) {
  if (const auto *C = dyn_cast<ConstantInt>(V)) {
    if (C->getBitWidth() > 64)
      return unknownOf(V, "integer wider than 64 bits");
    return SymExpr::constant(C->getBitWidth() == 1 ? int64_t(C->getZExtValue()) : C->getSExtValue(),
                             typeOfValue(V));
  }
  if (isa<UndefValue>(V))
    return unknownOf(V, "undefined value");
  if (const auto *Arg = dyn_cast<Argument>(V))
    return argumentOf(*Arg);
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !V->getType()->isIntegerTy())
    return unknownOf(V, "value not modelled");
  if (const auto *B = dyn_cast<BinaryOperator>(I))
    return binaryOf(*B);
  if (const auto *C = dyn_cast<ICmpInst>(I))
    return compareOf(*C);
  if (const auto *C = dyn_cast<CastInst>(I))
    return castOf(*C);
  if (const auto *S = dyn_cast<SelectInst>(I)) {
    IntType T = typeOfValue(V);
    // LLVM's poison-safe logical operators: c ? true : b is c || b, and
    // c ? b : false is c && b.
    if (T.Bits == 1) {
      const auto *TV = dyn_cast<ConstantInt>(S->getTrueValue()), *FV = dyn_cast<ConstantInt>(S->getFalseValue());
      if (TV && TV->isOne())
        return orOf(intOf(S->getCondition()), intOf(S->getFalseValue()));
      if (FV && FV->isZero())
        return andOf(intOf(S->getCondition()), intOf(S->getTrueValue()));
    }
    SymRef A = SymExpr::cast(intOf(S->getTrueValue()), T), B = SymExpr::cast(intOf(S->getFalseValue()), T);
    if (A == B || (A->Hash == B->Hash && toString(A) == toString(B)))
      return A;
    return selectOf(intOf(S->getCondition()), A, B, T);
  }
  if (const auto *P = dyn_cast<PHINode>(I))
    return phiOf(*P);
  if (const auto *C = dyn_cast<CallBase>(I))
    return callOf(*C);
  if (const auto *L = dyn_cast<LoadInst>(I))
    return loadedValueOf(*L);
  if (const auto *E = dyn_cast<ExtractElementInst>(I))
    return extractOf(*E);
  if (const auto *Fr = dyn_cast<FreezeInst>(I))
    return intOf(Fr->getOperand(0));
  if (isa<FCmpInst>(I))
    return unknownOf(V, "a comparison of floating-point values");
  return resultOf(*I, std::string("'") + I->getOpcodeName() + "' not modelled");
}

SymRef IRTranslator::binaryOf(const BinaryOperator &B) {
  unsigned Bits = B.getType()->getIntegerBitWidth();
  SymRef L = intOf(B.getOperand(0)), R = intOf(B.getOperand(1));
  if (Bits == 1) {
    switch (B.getOpcode()) {
    case Instruction::And: return andOf(L, R);
    case Instruction::Or: return orOf(L, R);
    case Instruction::Xor:
      if (R->isConst())
        return R->Value ? notOf(L) : L;
      return SymExpr::binary(Opcode::NE, L, R, IntType::boolean());
    default: return unknownOf(&B, "arithmetic on a truth value");
    }
  }
  IntType S = signedType(Bits), U = unsignedType(Bits);
  auto Op = [&](Opcode O, IntType T) {
    return SymExpr::binary(O, SymExpr::cast(L, T), SymExpr::cast(R, T), T);
  };
  switch (B.getOpcode()) {
  case Instruction::Add:
    // x + -c is x - c, as the source wrote it (size - 1).
    if (R->isConst() && R->Value < 0 && R->Value != INT64_MIN && Bits <= 64 &&
        wrapToType(-R->Value, S) == -R->Value)
      return SymExpr::binary(Opcode::Sub, SymExpr::cast(L, S), SymExpr::constant(-R->Value, S), S);
    return Op(Opcode::Add, S);
  case Instruction::Sub: return Op(Opcode::Sub, S);
  case Instruction::Mul: return Op(Opcode::Mul, S);
  case Instruction::Shl:
    // x << c is x * 2^c in every width: linear, as the source often wrote it.
    if (const auto *C = dyn_cast<ConstantInt>(B.getOperand(1)); C && C->getZExtValue() < Bits && Bits <= 64)
      return SymExpr::binary(Opcode::Mul, SymExpr::cast(L, S),
                             SymExpr::constant(int64_t(uint64_t(1) << C->getZExtValue()), S), S);
    return Op(Opcode::Shl, S);
  case Instruction::And:
    if (SymRef Undone = unshrunkMask(B, S))
      return Undone;
    return Op(Opcode::And, S);
  case Instruction::Xor: return Op(Opcode::Xor, S);
  case Instruction::Or:
    // Bits that cannot overlap: an addition, which keeps the value linear.
    return Op(cast<PossiblyDisjointInst>(B).isDisjoint() ? Opcode::Add : Opcode::Or, S);
  case Instruction::SDiv: return Op(Opcode::Div, S);
  case Instruction::SRem: return Op(Opcode::Rem, S);
  case Instruction::AShr:
    if (SymRef Extended = signExtensionOf(B, S))
      return Extended;
    return Op(Opcode::Shr, S);
  case Instruction::UDiv: return Op(Opcode::Div, U);
  case Instruction::URem: return Op(Opcode::Rem, U);
  case Instruction::LShr: return Op(Opcode::Shr, U);
  default: return unknownOf(&B, std::string("'") + B.getOpcodeName() + "' not modelled");
  }
}

/// (x << a) >> b with a >= b (arithmetic): x sign-extended from its low
/// Bits - a bits, times 2^(a - b): the compiler's sext of a trunc (i =
/// (int)(i + warp.size())) and of a short scaled (4 * ib, ib a short).
SymRef IRTranslator::signExtensionOf(const BinaryOperator &B, IntType S) {
  unsigned Bits = B.getType()->getIntegerBitWidth();
  const auto *Shl = dyn_cast<BinaryOperator>(B.getOperand(0));
  const auto *A = Shl && Shl->getOpcode() == Instruction::Shl ? dyn_cast<ConstantInt>(Shl->getOperand(1)) : nullptr;
  const auto *C = dyn_cast<ConstantInt>(B.getOperand(1));
  if (!A || !C || Bits > 64 || A->getZExtValue() >= Bits || C->getZExtValue() > A->getZExtValue())
    return nullptr;
  unsigned Left = unsigned(A->getZExtValue()), Right = unsigned(C->getZExtValue());
  SymRef X = SymExpr::cast(SymExpr::cast(intOf(Shl->getOperand(0)), signedType(Bits - Left)), S);
  return Left == Right ? X
                       : SymExpr::binary(Opcode::Mul, X, SymExpr::constant(int64_t(1) << (Left - Right), S), S);
}

/// (u + c) & x where x < 2^k: LLVM's demanded-bits rewrite of (u - 1) & x
/// into (u + 1023) & x (only the low k bits of the constant matter). The
/// constant is taken back to its value of least magnitude modulo 2^k, so
/// that the mask reads as the source wrote it (x & (size - 1)).
SymRef IRTranslator::unshrunkMask(const BinaryOperator &B, IntType S) {
  unsigned Bits = B.getType()->getIntegerBitWidth();
  for (unsigned K = 0; K < 2; ++K) {
    const auto *Add = dyn_cast<BinaryOperator>(B.getOperand(K));
    const Value *X = B.getOperand(1 - K);
    if (!Add || Add->getOpcode() != Instruction::Add)
      continue;
    const auto *C = dyn_cast<ConstantInt>(Add->getOperand(1));
    if (!C || Bits > 64)
      continue;
    unsigned Width = Bits - computeKnownBits(X, DL).countMinLeadingZeros();
    if (Width == 0 || Width >= 63)
      continue;
    int64_t Mod = int64_t(1) << Width, V = C->getSExtValue() & (Mod - 1);
    if (V > Mod / 2)
      V -= Mod;
    if (V == C->getSExtValue())
      continue;
    SymRef U = SymExpr::cast(intOf(Add->getOperand(0)), S);
    SymRef Sum = V < 0 ? SymExpr::binary(Opcode::Sub, U, SymExpr::constant(-V, S), S)
                       : SymExpr::binary(Opcode::Add, U, SymExpr::constant(V, S), S);
    return SymExpr::binary(Opcode::And, Sum, SymExpr::cast(intOf(X), S), S);
  }
  return nullptr;
}

/// The compiler writes `j >= 1` as `j != 0` when j cannot be negative (and
/// `j < 1` as `j == 0`). For a value of threads and blocks alike
/// (blockIdx.y * 16 + threadIdx.y) the comparison is read back as the order
/// comparison it is at the end of the value's range, a threshold that
/// splits the block at a boundary (the warp analysis's interior rule).
SymRef IRTranslator::boundaryOf(const ICmpInst &C, const SymRef &L, const SymRef &R) {
  const auto *K = dyn_cast<ConstantInt>(C.getOperand(1));
  if (!C.isEquality() || !K || !A.SE.isSCEVable(C.getOperand(0)->getType()))
    return nullptr;
  SymLeaves Lv = collectLeaves(L);
  if (!Lv.usesLane() || Lv.Uniforms.empty())
    return nullptr;
  const SCEV *X = A.SE.getSCEV(const_cast<Value *>(C.getOperand(0)));
  const APInt &V = K->getValue();
  bool Eq = C.getPredicate() == CmpInst::ICMP_EQ;
  unsigned Bits = V.getBitWidth();
  auto Make = [&](Opcode O, IntType T) {
    return SymExpr::binary(O, SymExpr::cast(L, T), SymExpr::cast(R, T), IntType::boolean());
  };
  ConstantRange Signed = A.SE.getSignedRange(X), UnsignedR = A.SE.getUnsignedRange(X);
  if (Signed.getSignedMin() == V)
    return Make(Eq ? Opcode::LE : Opcode::GT, signedType(Bits));
  if (Signed.getSignedMax() == V)
    return Make(Eq ? Opcode::GE : Opcode::LT, signedType(Bits));
  if (UnsignedR.getUnsignedMax() == V)
    return Make(Eq ? Opcode::GE : Opcode::LT, unsignedType(Bits));
  return nullptr;
}

SymRef IRTranslator::compareOf(const ICmpInst &C) {
  const Value *LV = C.getOperand(0), *RV = C.getOperand(1);
  SymRef L, R;
  unsigned Bits = 64;
  if (LV->getType()->isPointerTy()) {
    auto PL = ptrOf(LV), PR = ptrOf(RV);
    if (!PL || !PR || PL->Shared != PR->Shared || PL->ArrayId != PR->ArrayId || PL->Base != PR->Base)
      return unknownOf(&C, "comparison of pointers");
    L = PL->Offset;
    R = PR->Offset;
  } else if (LV->getType()->isIntegerTy() && LV->getType()->getIntegerBitWidth() <= 64) {
    Bits = LV->getType()->getIntegerBitWidth();
    L = intOf(LV);
    R = intOf(RV);
  } else {
    return unknownOf(&C, "comparison not modelled");
  }
  IntType T = C.isUnsigned() ? unsignedType(Bits) : signedType(Bits);
  if (SymRef Order = boundaryOf(C, L, R))
    return Order;
  Opcode O = Opcode::EQ;
  switch (C.getPredicate()) {
  case CmpInst::ICMP_EQ: O = Opcode::EQ; break;
  case CmpInst::ICMP_NE: O = Opcode::NE; break;
  case CmpInst::ICMP_SLT: case CmpInst::ICMP_ULT: O = Opcode::LT; break;
  case CmpInst::ICMP_SLE: case CmpInst::ICMP_ULE: O = Opcode::LE; break;
  case CmpInst::ICMP_SGT: case CmpInst::ICMP_UGT: O = Opcode::GT; break;
  case CmpInst::ICMP_SGE: case CmpInst::ICMP_UGE: O = Opcode::GE; break;
  default: return unknownOf(&C, "comparison not modelled");
  }
  SymRef E = SymExpr::binary(O, SymExpr::cast(L, T), SymExpr::cast(R, T), IntType::boolean());
  spellComparison(C, E);
  return E;
}

SymRef IRTranslator::castOf(const CastInst &C) {
  const Value *Src = C.getOperand(0);
  if (!Src->getType()->isIntegerTy() || !C.getType()->isIntegerTy() ||
      C.getType()->getIntegerBitWidth() > 64 || Src->getType()->getIntegerBitWidth() > 64)
    return unknownOf(&C, "conversion not modelled");
  unsigned From = Src->getType()->getIntegerBitWidth(), To = C.getType()->getIntegerBitWidth();
  SymRef V = intOf(Src);
  switch (C.getOpcode()) {
  case Instruction::Trunc:
    return SymExpr::cast(V, signedType(To));
  case Instruction::ZExt:
    // A value known not to be negative widens the same either way; keep the
    // expression free of a reinterpretation then.
    if (From == 1 || C.hasNonNeg() || isKnownNonNegative(Src, SimplifyQuery(DL)))
      return SymExpr::cast(V, signedType(To));
    return SymExpr::cast(SymExpr::cast(V, unsignedType(From)), signedType(To));
  case Instruction::SExt:
    return SymExpr::cast(SymExpr::cast(V, signedType(From)), signedType(To));
  default:
    return unknownOf(&C, "conversion not modelled");
  }
}

SymRef IRTranslator::argumentOf(const Argument &Arg) {
  IntType T = typeOfValue(&Arg);
  if (Out.IsKernel) {
    auto It = Fixed.find(Arg.getArgNo());
    if (It != Fixed.end()) {
      const auto &Fx = It->second;
      return Fx.Constant    ? SymExpr::constant(*Fx.Constant, T)
             : Fx.BlockAxis ? SymExpr::cast(SymExpr::blockDim(Axis(*Fx.BlockAxis)), T)
                            : SymExpr::cast(Fx.Value, T);
    }
    return SymExpr::uniform(nameOf(&Arg), "kernel parameter '" + nameOf(&Arg) + "'", T);
  }
  return SymExpr::varying(nameOf(&Arg),
                          "parameter '" + nameOf(&Arg) + "' of device function '" + Out.Name + "'", T);
}

/// %laneid: the thread's lane in its warp, its linear index in the block
/// modulo 32.
SymRef laneId(IntType T) {
  IntType U = IntType::u32();
  SymRef X = SymExpr::threadIdx(Axis::X), Y = SymExpr::threadIdx(Axis::Y), Z = SymExpr::threadIdx(Axis::Z);
  SymRef BX = SymExpr::blockDim(Axis::X), BY = SymExpr::blockDim(Axis::Y);
  SymRef Linear = SymExpr::binary(
      Opcode::Add, X,
      SymExpr::binary(Opcode::Mul, SymExpr::binary(Opcode::Add, Y, SymExpr::binary(Opcode::Mul, Z, BY, U), U), BX,
                      U),
      U);
  return SymExpr::cast(SymExpr::binary(Opcode::Rem, Linear, SymExpr::constant(32, U), U), T);
}

SymRef IRTranslator::operandsOp(const CallBase &C, Opcode O, IntType OT) {
  return SymExpr::cast(SymExpr::binary(O, SymExpr::cast(intOf(C.getArgOperand(0)), OT),
                                       SymExpr::cast(intOf(C.getArgOperand(1)), OT), OT),
                       typeOfValue(&C));
}

SymRef IRTranslator::intrinsicOf(const IntrinsicInst &II) {
  IntType T = typeOfValue(&II);
  Intrinsic::ID ID = II.getIntrinsicID();
  if (auto Ax = axisOfSreg(ID, Intrinsic::nvvm_read_ptx_sreg_tid_x, Intrinsic::nvvm_read_ptx_sreg_tid_y,
                           Intrinsic::nvvm_read_ptx_sreg_tid_z))
    return SymExpr::cast(SymExpr::threadIdx(*Ax), T);
  if (auto Ax = axisOfSreg(ID, Intrinsic::nvvm_read_ptx_sreg_ntid_x, Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                           Intrinsic::nvvm_read_ptx_sreg_ntid_z))
    return SymExpr::cast(SymExpr::blockDim(*Ax), T);
  auto Builtin = [&](const char *Var, std::optional<Axis> Ax) {
    std::string Name = std::string(Var) + "." + axisName(*Ax);
    return SymExpr::cast(
        SymExpr::uniform(Name, std::string("'") + Var + "' is the same for all threads of a block", IntType::u32()),
        T);
  };
  if (auto Ax = axisOfSreg(ID, Intrinsic::nvvm_read_ptx_sreg_ctaid_x, Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                           Intrinsic::nvvm_read_ptx_sreg_ctaid_z))
    return Builtin("blockIdx", Ax);
  if (auto Ax = axisOfSreg(ID, Intrinsic::nvvm_read_ptx_sreg_nctaid_x, Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                           Intrinsic::nvvm_read_ptx_sreg_nctaid_z))
    return Builtin("gridDim", Ax);
  if (ID == Intrinsic::nvvm_read_ptx_sreg_warpsize)
    return SymExpr::constant(32, T);
  if (ID == Intrinsic::nvvm_read_ptx_sreg_laneid)
    return laneId(T);
  unsigned Bits = II.getType()->isIntegerTy() ? II.getType()->getIntegerBitWidth() : 32;
  auto Operand = [&](unsigned I, IntType OT) { return SymExpr::cast(intOf(II.getArgOperand(I)), OT); };
  switch (ID) {
  case Intrinsic::smin: return operandsOp(II, Opcode::Min, signedType(Bits));
  case Intrinsic::smax: return operandsOp(II, Opcode::Max, signedType(Bits));
  case Intrinsic::umin: return operandsOp(II, Opcode::Min, unsignedType(Bits));
  case Intrinsic::umax: return operandsOp(II, Opcode::Max, unsignedType(Bits));
  case Intrinsic::fshl:
  case Intrinsic::fshr: {
    // A funnel shift by a constant (LLVM's rotate: switch (tid) on
    // multiples of 32 becomes a switch on rotl(tid, 27)).
    const auto *Amount = dyn_cast<ConstantInt>(II.getArgOperand(2));
    if (!Amount || Bits > 64)
      break;
    unsigned K = unsigned(Amount->getZExtValue() % Bits);
    IntType U = unsignedType(Bits);
    SymRef Hi = Operand(0, U), Lo = Operand(1, U);
    if (K == 0)
      return SymExpr::cast(ID == Intrinsic::fshl ? Hi : Lo, T);
    unsigned Left = ID == Intrinsic::fshl ? K : Bits - K;
    return SymExpr::cast(SymExpr::binary(Opcode::Or, SymExpr::binary(Opcode::Shl, Hi, SymExpr::constant(Left, U), U),
                                         SymExpr::binary(Opcode::Shr, Lo, SymExpr::constant(Bits - Left, U), U), U),
                         T);
  }
  case Intrinsic::usub_sat: {
    IntType U = unsignedType(Bits);
    SymRef X = Operand(0, U), Y = Operand(1, U);
    return SymExpr::cast(SymExpr::binary(Opcode::Sub, SymExpr::binary(Opcode::Max, X, Y, U), Y, U), T);
  }
  case Intrinsic::abs: {
    SymRef X = intOf(II.getArgOperand(0));
    return SymExpr::select(SymExpr::binary(Opcode::LT, X, SymExpr::constant(0, X->Type), IntType::boolean()),
                           SymExpr::unary(Opcode::Neg, X, T), X, T);
  }
  default:
    break;
  }
  return resultOf(II, "result of '" + Intrinsic::getBaseName(ID).str() + "'");
}

SymRef IRTranslator::integerHelperOf(const CallBase &C, const Function &Callee) {
  if (C.arg_size() != 2 || !C.getType()->isIntegerTy())
    return nullptr;
  std::string Name = baseName(Callee.getName());
  if (StringRef(Name).starts_with("__nv_"))
    Name = Name.substr(5);
  unsigned Bits = C.getType()->getIntegerBitWidth();
  bool Unsigned = Name.find('u') == 0 || Name == "__umul24";
  IntType OT = Unsigned ? unsignedType(Bits) : signedType(Bits);
  if (Name == "min" || Name == "umin" || Name == "llmin" || Name == "ullmin")
    return operandsOp(C, Opcode::Min, OT);
  if (Name == "max" || Name == "umax" || Name == "llmax" || Name == "ullmax")
    return operandsOp(C, Opcode::Max, OT);
  if (Name == "__mul24" || Name == "__umul24" || Name == "mul24" || Name == "umul24")
    return operandsOp(C, Opcode::Mul, OT);
  return nullptr;
}

SymRef IRTranslator::callOf(const CallBase &C) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&C))
    return intrinsicOf(*II);
  // Special registers read through inline PTX (CUB's LaneId()).
  if (C.isInlineAsm() && C.getType()->isIntegerTy()) {
    StringRef Text = cast<InlineAsm>(C.getCalledOperand())->getAsmString();
    if (Text.contains("%laneid") && Text.count(";") <= 1)
      return laneId(typeOfValue(&C));
  }
  const Function *Callee = C.getCalledFunction();
  if (Callee)
    if (SymRef Op = integerHelperOf(C, *Callee))
      return Op;
  return unknownOf(&C, Callee ? "result of call to '" + baseName(Callee->getName()) + "'" : "result of a call");
}

/// A load of an integer: from a constant table, a select on the index;
/// otherwise an unknown, warp-uniform when every lane reads one address.
SymRef IRTranslator::loadedValueOf(const LoadInst &L) {
  auto P = ptrOf(L.getPointerOperand());
  if (P && !P->Shared)
    if (const auto *G = dyn_cast_or_null<GlobalVariable>(P->Base))
      if (SymRef V = constantTableValue(*G, P->Offset, L.getType()))
        return V;
  if (P && !P->Shared)
    if (const auto *AI = dyn_cast_or_null<AllocaInst>(P->Base))
      if (SymRef V = localTableValue(*AI, P->Offset, L))
        return V;
  const char *Why = P && P->Shared ? (A.UI.isDivergent(&L) ? "value loaded from shared memory at a thread-dependent address"
                                                           : "value loaded from shared memory")
                                   : (A.UI.isDivergent(&L) ? "value loaded from memory"
                                                           : "value loaded from memory at an address that is "
                                                             "the same for every thread");
  return unknownOf(&L, Why);
}

/// Element Offset / Size of Values, as a chain of selects on the index.
static SymRef tableAt(const SymRef &Offset, int64_t Size, const std::vector<int64_t> &Values, IntType T) {
  SymRef Index = SymExpr::binary(Opcode::Div, SymExpr::cast(Offset, IntType::i64()), SymExpr::constant(Size),
                                 IntType::i64());
  SymRef V = SymExpr::constant(Values.back(), T);
  for (size_t K = Values.size() - 1; K-- > 0;)
    V = SymExpr::select(SymExpr::binary(Opcode::EQ, Index, SymExpr::constant(int64_t(K)), IntType::boolean()),
                        SymExpr::constant(Values[K], T), V, T);
  return V;
}

SymRef IRTranslator::constantTableValue(const GlobalVariable &G, const SymRef &Offset, Type *Ty) {
  if (!G.isConstant() || !G.hasDefinitiveInitializer() || !Ty->isIntegerTy())
    return nullptr;
  const auto *Data = dyn_cast<ConstantDataSequential>(G.getInitializer());
  if (!Data || Data->getElementType() != Ty || Data->getNumElements() > 64)
    return nullptr;
  std::vector<int64_t> Values;
  for (unsigned K = 0; K < Data->getNumElements(); ++K)
    Values.push_back(Data->getElementAsAPInt(K).getSExtValue());
  return tableAt(Offset, int64_t(DL.getTypeAllocSize(Ty)), Values, signedType(Ty->getIntegerBitWidth()));
}

/// A local array of constants (constexpr int t[8] = {...}) the compiler
/// keeps in local memory: every element stored once with a constant, the
/// stores before L, and otherwise only read. Its value at Offset.
SymRef IRTranslator::localTableValue(const AllocaInst &AI, const SymRef &Offset, const LoadInst &L) {
  Type *Ty = L.getType();
  if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64)
    return nullptr;
  int64_t Size = int64_t(DL.getTypeAllocSize(Ty));
  std::map<int64_t, int64_t> Elements; // byte offset -> value
  SmallVector<std::pair<const Value *, int64_t>, 16> Work{{&AI, 0}};
  while (!Work.empty()) {
    auto [V, At] = Work.pop_back_val();
    for (const User *U : V->users()) {
      APInt Off(64, 0);
      if (const auto *G = dyn_cast<GetElementPtrInst>(U); G && G->accumulateConstantOffset(DL, Off))
        Work.push_back({G, At + Off.getSExtValue()});
      else if (const auto *G = dyn_cast<GetElementPtrInst>(U); G && llvm::all_of(G->users(), IsaPred<LoadInst>))
        continue; // read through a variable index
      else if (const auto *S = dyn_cast<StoreInst>(U)) {
        const auto *C = dyn_cast<ConstantInt>(S->getValueOperand());
        if (S->getPointerOperand() != V || !C || C->getType() != Ty || !A.DT.dominates(S, &L) ||
            !Elements.try_emplace(At, C->getSExtValue()).second)
          return nullptr;
      } else if (!isa<LoadInst>(U) && !(isa<IntrinsicInst>(U) && cast<IntrinsicInst>(U)->isLifetimeStartOrEnd()))
        return nullptr;
    }
  }
  std::vector<int64_t> Values;
  for (const auto &[At, Value] : Elements)
    if (At == int64_t(Values.size()) * Size && Values.size() < 64)
      Values.push_back(Value);
    else
      return nullptr;
  return Values.empty() ? nullptr : tableAt(Offset, Size, Values, signedType(Ty->getIntegerBitWidth()));
}

} // namespace cbl
