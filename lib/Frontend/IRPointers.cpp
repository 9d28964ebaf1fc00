//===- IRPointers.cpp - Device IR pointers as arrays and offsets ----------===//
//
// A pointer of the device IR as the shared array (or other base) it points
// into and a symbolic byte offset: through GEPs, casts, selects and phis,
// and the integers of __cvta_generic_to_shared.
//
//===----------------------------------------------------------------------===//
#include "IRTranslator.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace cbl {

std::optional<IRPointer> IRTranslator::ptrOf(const Value *V) {
  if (SubstLoop) {
    auto Next = NextPtrAsCounter.find(V);
    if (Next != NextPtrAsCounter.end())
      return Next->second;
  } else {
    auto It = Ptrs.find(V);
    if (It != Ptrs.end())
      return It->second;
  }
  std::optional<IRPointer> R;
  if (Depth <= MaxDepth) {
    ++Depth;
    R = translatePtr(V);
    --Depth;
  }
  if (!SubstLoop)
    Ptrs[V] = R;
  return R;
}

std::optional<IRPointer> IRTranslator::translatePtr(const Value *V) {
  V = V->stripPointerCastsSameRepresentation();
  if (const auto *G = dyn_cast<GlobalVariable>(V)) {
    if (G->getAddressSpace() == 3)
      if (auto Id = Arrays.idOf(G))
        return IRPointer{true, *Id, nullptr, SymExpr::constant(0), true};
    return IRPointer{false, 0, G, SymExpr::constant(0), true};
  }
  if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(V))
    return ptrOf(ASC->getPointerOperand());
  if (const auto *G = dyn_cast<GEPOperator>(V))
    return gepOf(*G);
  if (const auto *ITP = dyn_cast<IntToPtrInst>(V))
    return sharedAddressOf(ITP->getOperand(0));
  if (const auto *CE = dyn_cast<ConstantExpr>(V); CE && CE->getOpcode() == Instruction::IntToPtr)
    return sharedAddressOf(CE->getOperand(0));
  if (const auto *P = dyn_cast<PHINode>(V))
    return pointerPhiOf(*P);
  if (const auto *S = dyn_cast<SelectInst>(V)) {
    auto T = ptrOf(S->getTrueValue()), F = ptrOf(S->getFalseValue());
    if (!T || !F || T->Shared != F->Shared || T->ArrayId != F->ArrayId || T->Base != F->Base)
      return std::nullopt;
    IRPointer R = *T;
    R.Offset = SymExpr::select(intOf(S->getCondition()), SymExpr::cast(T->Offset, IntType::i64()),
                               SymExpr::cast(F->Offset, IntType::i64()), IntType::i64());
    R.LayoutExact = T->LayoutExact && F->LayoutExact;
    return R;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    // Address-space conversions written as intrinsics.
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_ptr_gen_to_shared:
    case Intrinsic::nvvm_ptr_shared_to_gen:
    case Intrinsic::nvvm_ptr_gen_to_global:
    case Intrinsic::nvvm_ptr_global_to_gen:
      return ptrOf(II->getArgOperand(0));
    default:
      break;
    }
  }
  // Anything else is a base of its own: a parameter, a loaded pointer, a
  // local variable's storage.
  return IRPointer{false, 0, V, SymExpr::constant(0), true};
}

/// Byte offset of a GEP. A step over a dimension of a shared array's
/// declared type is that dimension's row stride (padding-aware); other steps
/// are their allocation sizes.
std::optional<IRPointer> IRTranslator::gepOf(const GEPOperator &G) {
  auto Base = ptrOf(G.getPointerOperand());
  if (!Base)
    return std::nullopt;
  IRPointer R = *Base;
  const SharedArray *Arr = R.Shared ? &Arrays[R.ArrayId] : nullptr;
  Type *Decl = R.Shared ? Arrays.typeOf(R.ArrayId) : nullptr;
  SymRef Off = SymExpr::cast(R.Offset, IntType::i64());
  for (gep_type_iterator GTI = gep_type_begin(&G), E = gep_type_end(&G); GTI != E; ++GTI) {
    const Value *Idx = GTI.getOperand();
    if (StructType *ST = GTI.getStructTypeOrNull()) {
      uint64_t Field = cast<ConstantInt>(Idx)->getZExtValue();
      Off = SymExpr::binary(Opcode::Add, Off,
                            SymExpr::constant(int64_t(DL.getStructLayout(ST)->getElementOffset(Field))),
                            IntType::i64());
      continue;
    }
    Type *Stepped = GTI.getIndexedType();
    SymRef Step = SymExpr::constant(int64_t(DL.getTypeAllocSize(Stepped)));
    // Which dimension of the declaration this steps over, if any.
    int Dim = -1;
    if (Arr && Decl && !Arr->IsExtern && Arr->Dims.size() >= 2) {
      Type *Level = Decl;
      for (unsigned D = 0; D + 1 < Arr->Dims.size() && Level->isArrayTy(); ++D) {
        Level = Level->getArrayElementType();
        if (Level == Stepped) {
          Step = SymExpr::binary(Opcode::Mul, SymExpr::rowStride(R.ArrayId, D),
                                 SymExpr::constant(int64_t(Arr->ElementSize)), IntType::i64());
          Dim = int(D);
          break;
        }
      }
    }
    if (Arr && Dim < 0 && !Arr->Dims.empty() && !Stepped->isArrayTy() && !Stepped->isStructTy() &&
        DL.getTypeAllocSize(Stepped) == Arr->ElementSize)
      Dim = int(Arr->Dims.size()) - 1;
    if (const auto *CI = dyn_cast<ConstantInt>(Idx); CI && CI->isZero())
      continue;
    if (Arr && Step->isConst() && Arr->Dims.size() >= 2 && !Arr->IsExtern &&
        uint64_t(Step->Value) > Arr->ElementSize && uint64_t(Step->Value) % (Arr->Dims.back() * Arr->ElementSize) == 0)
      R.LayoutExact = false; // a whole row as bytes: padding would not show
    SymRef I = SymExpr::cast(intOf(Idx), IntType::i64());
    if (Dim >= 0 && Arr->Dims[unsigned(Dim)] && collectLeaves(I).UsesThreadIdx[0])
      R.XExtents.push_back(unsigned(Arr->Dims[unsigned(Dim)]));
    Off = SymExpr::binary(Opcode::Add, Off, SymExpr::binary(Opcode::Mul, I, Step, IntType::i64()), IntType::i64());
  }
  R.Offset = Off;
  return R;
}

/// An integer that holds a shared-window address (__cvta_generic_to_shared,
/// what inline PTX takes), as a place in shared memory.
std::optional<IRPointer> IRTranslator::sharedAddressOf(const Value *V) {
  if (!SubstLoop && NotSharedAddress.count(V))
    return std::nullopt;
  std::optional<IRPointer> R = sharedAddressFrom(V);
  if (!R && !SubstLoop)
    NotSharedAddress.insert(V);
  return R;
}

std::optional<IRPointer> IRTranslator::sharedAddressFrom(const Value *V) {
  if (const auto *C = dyn_cast<CastInst>(V)) {
    if (C->getOpcode() == Instruction::PtrToInt) {
      auto P = ptrOf(C->getOperand(0));
      return P && P->Shared ? P : std::nullopt;
    }
    if (C->getOpcode() == Instruction::Trunc || C->getOpcode() == Instruction::ZExt ||
        C->getOpcode() == Instruction::SExt)
      return sharedAddressOf(C->getOperand(0));
  }
  if (const auto *CE = dyn_cast<ConstantExpr>(V); CE && CE->getOpcode() == Instruction::PtrToInt) {
    auto P = ptrOf(CE->getOperand(0));
    return P && P->Shared ? P : std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(V)) {
    bool Add = B->getOpcode() == Instruction::Add ||
               (B->getOpcode() == Instruction::Or && cast<PossiblyDisjointInst>(B)->isDisjoint());
    if (Add || B->getOpcode() == Instruction::Sub)
      for (unsigned K = 0; K < 2; ++K) {
        if (K == 1 && !Add)
          break;
        auto P = sharedAddressOf(B->getOperand(K));
        if (!P)
          continue;
        SymRef Delta = SymExpr::cast(intOf(B->getOperand(1 - K)), IntType::i64());
        P->Offset = SymExpr::binary(Add ? Opcode::Add : Opcode::Sub, SymExpr::cast(P->Offset, IntType::i64()),
                                    Delta, IntType::i64());
        return P;
      }
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    if (II->getIntrinsicID() == Intrinsic::nvvm_ptr_gen_to_shared)
      return ptrOf(II->getArgOperand(0));
  return std::nullopt;
}

} // namespace cbl
