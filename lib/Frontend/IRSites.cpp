//===- IRSites.cpp - Shared accesses and barriers of the device IR --------===//
#include "Atomics.h"
#include "IRTranslator.h"
#include "PtxInstructions.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace cbl {

// --- arrays ------------------------------------------------------------------

namespace {

/// "tile" for _ZZ9transposePfE4tile; the name itself when not mangled.
std::string variableName(StringRef Mangled) {
  std::string D = llvm::demangle(Mangled.str());
  size_t Colon = D.rfind("::");
  return Colon == std::string::npos ? D : D.substr(Colon + 2);
}

std::string scalarSpelling(Type *T) {
  if (T->isFloatTy())
    return "float";
  if (T->isDoubleTy())
    return "double";
  if (T->isHalfTy())
    return "__half";
  if (T->isBFloatTy())
    return "__nv_bfloat16";
  if (T->isIntegerTy())
    return "i" + std::to_string(T->getIntegerBitWidth());
  if (T->isStructTy() && cast<StructType>(T)->hasName())
    return cast<StructType>(T)->getName().str();
  return "byte";
}

} // namespace

std::optional<unsigned> IRArrays::idOf(const GlobalVariable *G) {
  auto It = Ids.find(G);
  if (It != Ids.end())
    return It->second;
  if (G->getAddressSpace() != 3)
    return std::nullopt;
  // A shared variable the AST table does not list (a system header's).
  SharedArray A;
  A.Id = unsigned(Arrays.size());
  A.Name = variableName(G->getName());
  const DataLayout &DL = G->getParent()->getDataLayout();
  Type *T = G->getValueType();
  while (auto *AT = dyn_cast<ArrayType>(T)) {
    A.Dims.push_back(AT->getNumElements());
    T = AT->getElementType();
  }
  A.ElementType = scalarSpelling(T);
  A.ElementSize = DL.getTypeAllocSize(T);
  A.Alignment = G->getAlign() ? G->getAlign()->value() : 1;
  A.IsExtern = G->isDeclaration() || (!A.Dims.empty() && A.Dims[0] == 0);
  if (A.IsExtern && A.Dims.empty())
    A.Dims = {0};
  Arrays.push_back(A);
  Ids[G] = A.Id;
  Types[A.Id] = G->getValueType();
  return A.Id;
}

Type *IRArrays::typeOf(unsigned Id) const {
  auto It = Types.find(Id);
  return It == Types.end() ? nullptr : It->second;
}

// --- the walk ----------------------------------------------------------------

namespace {

bool isBlockBarrier(const CallBase &C, std::string &Spelling) {
  const auto *II = dyn_cast<IntrinsicInst>(&C);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier0:
    Spelling = "__syncthreads()";
    return true;
  case Intrinsic::nvvm_barrier0_popc:
    Spelling = "__syncthreads_count()";
    return true;
  case Intrinsic::nvvm_barrier0_and:
    Spelling = "__syncthreads_and()";
    return true;
  case Intrinsic::nvvm_barrier0_or:
    Spelling = "__syncthreads_or()";
    return true;
  case Intrinsic::nvvm_bar_sync:
  case Intrinsic::nvvm_barrier_sync: {
    // bar.sync 0 with no thread count: the whole block.
    const auto *Id = dyn_cast<ConstantInt>(II->getArgOperand(0));
    Spelling = "bar.sync";
    return Id && Id->isZero();
  }
  default:
    return false;
  }
}

AtomicValue atomicValueOfType(Type *T) {
  if (T->isIntegerTy())
    return AtomicValue::Integer;
  if (T->isFloatingPointTy())
    return T->isHalfTy() || T->isBFloatTy() ? AtomicValue::Other : AtomicValue::Float;
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    if (VT->getNumElements() == 2 && (VT->getElementType()->isHalfTy() || VT->getElementType()->isBFloatTy()))
      return AtomicValue::PackedHalf;
  return AtomicValue::Other;
}

AtomicOp atomicOpOfRMW(AtomicRMWInst::BinOp Op) {
  switch (Op) {
  case AtomicRMWInst::Xchg: return AtomicOp::Exch;
  case AtomicRMWInst::Add: case AtomicRMWInst::FAdd: return AtomicOp::Add;
  case AtomicRMWInst::Sub: case AtomicRMWInst::FSub: return AtomicOp::Sub;
  case AtomicRMWInst::And: return AtomicOp::And;
  case AtomicRMWInst::Or: return AtomicOp::Or;
  case AtomicRMWInst::Xor: return AtomicOp::Xor;
  case AtomicRMWInst::Max: case AtomicRMWInst::UMax: case AtomicRMWInst::FMax: return AtomicOp::Max;
  case AtomicRMWInst::Min: case AtomicRMWInst::UMin: case AtomicRMWInst::FMin: return AtomicOp::Min;
  case AtomicRMWInst::UIncWrap: return AtomicOp::Inc;
  case AtomicRMWInst::UDecWrap: return AtomicOp::Dec;
  default: return AtomicOp::Other;
  }
}

std::string calleeBaseName(const CallBase &C) {
  const Function *F = C.getCalledFunction();
  if (!F)
    return "";
  ItaniumPartialDemangler D;
  std::string Name = F->getName().str();
  if (!StringRef(Name).starts_with("_Z") || D.partialDemangle(Name.c_str()))
    return Name;
  size_t N = 0;
  char *Buf = D.getFunctionBaseName(nullptr, &N);
  std::string Out = Buf ? std::string(Buf) : Name;
  std::free(Buf);
  return Out;
}

} // namespace

struct IRSiteWalker {
  IRTranslator &T;
  unsigned Region = 0;

  const DataLayout &DL() { return T.DL; }

  /// The position of I, or of the nearest instruction before it in its
  /// block that has one (optimisations drop some).
  IRLocations::Place placeOf(const Instruction &I) {
    for (const Instruction *Cur = &I; Cur; Cur = Cur->getPrevNode())
      if (const DILocation *DL = Cur->getDebugLoc().get(); DL && DL->getLine())
        return T.Locs.placeOf(DL);
    IRLocations::Place P;
    P.Where = T.Out.Where;
    return P;
  }

  SharedAccess accessAt(const Instruction &I, const IRPointer &P, AccessOp Op, unsigned Width) {
    SharedAccess A;
    A.ArrayId = P.ArrayId;
    A.Op = Op;
    A.Width = Width;
    A.ByteOffset = P.Offset;
    A.Guards = T.guardsOf(I.getParent());
    A.Loops = T.loopsOf(I.getParent());
    A.Region = Region;
    A.ThreadXExtents = P.XExtents;
    IRLocations::Place Pl = placeOf(I);
    A.Where = Pl.Where;
    A.CallChain = std::move(Pl.Chain);
    clang::SourceLocation LV = lvalueLocation(I, Pl);
    if (LV != Pl.Loc)
      A.Where = T.Locs.positionOf(LV);
    A.Spelling = T.Locs.expressionAt(LV, A.Length);
    if (Width != 1 && Width != 2 && Width != 4 && Width != 8 && Width != 16)
      A.Unsupported = "an access of " + std::to_string(Width) + " bytes per thread";
    return A;
  }

  /// Where the accessed lvalue starts: a store's debug location is its
  /// assignment operator, and so is the load of a compound assignment's
  /// left side (s[i] += x).
  clang::SourceLocation lvalueLocation(const Instruction &I, const IRLocations::Place &Pl) {
    if (isa<StoreInst>(&I) || isa<LoadInst>(&I))
      return T.Locs.lvalueBefore(Pl.Loc);
    return Pl.Loc;
  }

  void memoryAccess(const Instruction &I, const Value *Ptr, Type *Ty, AccessOp Op, bool Volatile) {
    auto P = T.ptrOf(Ptr);
    if (!P || !P->Shared)
      return;
    SharedAccess A = accessAt(I, *P, Op, unsigned(DL().getTypeStoreSize(Ty)));
    A.Volatile = Volatile;
    record(std::move(A));
  }

  void atomic(const Instruction &I, const Value *Ptr, Type *Ty, AtomicOp Op, const std::string &Name) {
    auto P = T.ptrOf(Ptr);
    if (!P || !P->Shared)
      return;
    unsigned Width = unsigned(DL().getTypeStoreSize(Ty));
    std::string Wrapper = placeOf(I).Wrapper;
    const std::string &Spelled = Wrapper.empty() ? Name : Wrapper;
    AtomicInstruction AI = classifyAtomic(Op, atomicValueOfType(Ty), Width, Spelled);
    SharedAccess A = accessAt(I, *P, AI.Op, AI.Width);
    A.Atomic = AI.Rule;
    A.Instruction = Spelled;
    if (!AI.Unmodelled.empty())
      A.Unsupported = AI.Unmodelled;
    record(std::move(A));
  }

  void record(SharedAccess A) {
    T.Out.NamesShared = true;
    T.Out.Accesses.push_back(std::move(A));
  }

  void barrier(const Instruction &I, const std::string &Spelling) {
    BarrierSite B;
    IRLocations::Place Pl = placeOf(I);
    B.Where = Pl.Where;
    unsigned Length = 0;
    std::string Text = T.Locs.expressionAt(Pl.Loc, Length);
    B.Spelling = Text.empty() ? Spelling : Text;
    B.Guards = T.guardsOf(I.getParent());
    T.Out.Barriers.push_back(std::move(B));
    ++Region;
  }

  /// A call the model does not know that receives shared memory.
  void opaqueCall(const CallBase &C, const std::string &What) {
    for (const Value *Arg : C.args()) {
      if (!Arg->getType()->isPointerTy())
        continue;
      auto P = T.ptrOf(Arg);
      if (!P || !P->Shared)
        continue;
      SharedAccess A = accessAt(C, *P, AccessOp::Load, 4);
      A.Unsupported = What;
      record(std::move(A));
      return;
    }
  }

  /// Inline PTX: each operand in shared memory (a pointer, a memory
  /// operand, or a shared-window address) is an access of the instruction
  /// the text names, as the AST walker reads it (PtxInstructions.h).
  void inlineAsm(const CallBase &C) {
    std::string Text = cast<InlineAsm>(C.getCalledOperand())->getAsmString();
    auto Class = ptxClass(Text);
    std::string Opcode = Class ? opcodeAt(Text, Class->Opcode) : "inline assembly";
    std::optional<PtxAtomic> Atomic = ptxAtomic(Opcode);
    bool Copy = StringRef(Opcode).starts_with("cp.async"), CopyRecorded = false;
    std::optional<uint32_t> MatrixLanes = matrixAddressLanes(Opcode);
    std::optional<unsigned> PlainWidth = sharedLoadStoreWidth(Opcode);
    for (const Value *Arg : C.args()) {
      std::optional<IRPointer> P =
          Arg->getType()->isPointerTy() ? T.ptrOf(Arg) : T.sharedAddressOf(Arg);
      if (!P || !P->Shared)
        continue;
      if (MatrixLanes || PlainWidth) {
        SharedAccess A = accessAt(C, *P, Class->Op, MatrixLanes ? 16 : *PlainWidth);
        A.Matrix = MatrixLanes.has_value();
        A.AddressLanes = MatrixLanes.value_or(0xffffffffu);
        A.Instruction = Opcode;
        record(std::move(A));
      } else if (Atomic) {
        AtomicInstruction AI = classifyAtomic(Atomic->Op, Atomic->Value, Atomic->Width, Opcode);
        SharedAccess A = accessAt(C, *P, AI.Op, AI.Width);
        A.Atomic = AI.Rule;
        A.Instruction = Opcode;
        A.Unsupported = AI.Unmodelled;
        record(std::move(A));
      } else if (Copy) {
        // A copy's destination is its first shared operand (an mbarrier may follow).
        if (!CopyRecorded) {
          SharedAccess A = accessAt(C, *P, AccessOp::Store, 0);
          A.Unsupported = copyReason(Opcode);
          record(std::move(A));
        }
        CopyRecorded = true;
      } else {
        SharedAccess A = accessAt(C, *P, Class ? Class->Op : AccessOp::Load, 0);
        A.Unsupported = "inline PTX '" + Opcode + "' with an operand in shared memory: not modelled yet";
        record(std::move(A));
      }
    }
  }

  void call(const CallBase &C) {
    std::string Spelling;
    if (isBlockBarrier(C, Spelling))
      return barrier(C, Spelling);
    if (C.isInlineAsm())
      return inlineAsm(C);
    if (const auto *II = dyn_cast<IntrinsicInst>(&C)) {
      if (isa<MemIntrinsic>(II))
        return opaqueCall(C, "a block copy (memcpy/memset) of shared memory");
      if (II->getIntrinsicID() == Intrinsic::nvvm_bar_warp_sync)
        ++Region;
      if (II->isAssumeLikeIntrinsic() || II->getIntrinsicID() == Intrinsic::lifetime_start ||
          II->getIntrinsicID() == Intrinsic::lifetime_end)
        return;
      return opaqueCall(C, "'" + Intrinsic::getBaseName(II->getIntrinsicID()).str() + "' not modelled");
    }
    std::string Name = calleeBaseName(C);
    if (auto Op = atomicOpOfName(Name); Op && C.arg_size() >= 1) {
      Type *Ty = C.getType()->isVoidTy() && C.arg_size() >= 2 ? C.getArgOperand(1)->getType() : C.getType();
      return atomic(C, C.getArgOperand(0), Ty, *Op, Name);
    }
    opaqueCall(C, "call of '" + Name + "', whose body is not available");
  }

  void visit(const Instruction &I) {
    if (const auto *L = dyn_cast<LoadInst>(&I))
      return memoryAccess(I, L->getPointerOperand(), L->getType(), AccessOp::Load, L->isVolatile());
    if (const auto *S = dyn_cast<StoreInst>(&I))
      return memoryAccess(I, S->getPointerOperand(), S->getValueOperand()->getType(), AccessOp::Store,
                          S->isVolatile());
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      return atomic(I, RMW->getPointerOperand(), RMW->getValOperand()->getType(),
                    atomicOpOfRMW(RMW->getOperation()), "atomic " + AtomicRMWInst::getOperationName(RMW->getOperation()).str());
    if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      return atomic(I, X->getPointerOperand(), X->getCompareOperand()->getType(), AtomicOp::Cas, "atomicCAS");
    if (const auto *C = dyn_cast<CallBase>(&I))
      return call(*C);
  }
};

IRTranslator::IRTranslator(const Function &F, IRAnalyses A, IRArrays &Arrays, IRLocations &Locs,
                           const FixedArguments &Fixed, FunctionModel &Out)
    : F(F), DL(F.getParent()->getDataLayout()), A(A), Arrays(Arrays), Locs(Locs), Fixed(Fixed), Out(Out) {}

void IRTranslator::translate() {
  if (Out.IsKernel)
    for (const auto &[I, Fx] : Fixed)
      if (I < F.arg_size()) {
        LaunchArgument LA = Fx.Text;
        LA.Param = nameOf(F.getArg(I));
        Out.LaunchArguments.push_back(LA);
      }
  IRSiteWalker W{*this};
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  for (const BasicBlock *BB : RPOT) {
    guardsOf(BB); // in this order, each block's are built from its predecessors'
    ++W.Region;
    for (const Instruction &I : *BB)
      W.visit(I);
  }
}

} // namespace cbl
