//===- IRSites.cpp - Shared accesses and barriers of the device IR --------===//
#include "Atomics.h"
#include "IRTranslator.h"
#include "PtxInstructions.h"

#include "cuda-bank-lint/BankModel/Wmma.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace cbl {

// --- barriers and calls -----------------------------------------------------

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

bool isGridSync(StringRef Mangled) {
  return llvm::demangle(Mangled).find("grid_group::sync()") != std::string::npos;
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

// --- the walk ----------------------------------------------------------------

namespace {

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

} // namespace

struct IRSiteWalker {
  IRTranslator &T;
  /// Set while the lanes of a warp may run apart (after an atomic retry
  /// loop, until a barrier): why.
  std::string Split;
  std::map<const BasicBlock *, std::string> SplitAtEntry;

  const DataLayout &DL() { return T.DL; }

  /// The position of I, or of the nearest instruction before it in its
  /// block that has one (optimisations drop some), or of a load or store of
  /// the same address that has one (LICM's load before a loop of the value
  /// the loop reads and writes there: nvcc keeps it on the loop's line).
  IRLocations::Place placeOf(const Instruction &I) {
    for (const Instruction *Cur = &I; Cur; Cur = Cur->getPrevNode())
      if (const DILocation *DL = Cur->getDebugLoc().get(); DL && DL->getLine())
        return T.Locs.placeOf(DL);
    if (const Value *Ptr = getLoadStorePointerOperand(&I))
      for (const User *U : Ptr->users())
        if (const auto *Other = dyn_cast<Instruction>(U);
            Other && Other != &I && getLoadStorePointerOperand(Other) == Ptr)
          if (const DILocation *DL = Other->getDebugLoc().get(); DL && DL->getLine())
            return T.Locs.placeOf(DL);
    IRLocations::Place P;
    P.Where = T.Out.Where;
    return P;
  }

  SharedAccess accessAt(const Instruction &I, const IRPointer &P, AccessOp Op, unsigned Width,
                        const DILocation *At = nullptr) {
    SharedAccess A;
    A.MaySplit = Split;
    A.ArrayId = P.ArrayId;
    A.Op = Op;
    A.Width = Width;
    A.ByteOffset = P.Offset;
    A.Guards = T.guardsOf(I.getParent());
    A.Loops = T.loopsOf(I.getParent());
    A.ThreadXExtents = P.XExtents;
    IRLocations::Place Pl = At ? T.Locs.placeOf(At) : placeOf(I);
    A.Where = Pl.Where;
    A.CallChain = std::move(Pl.Chain);
    clang::SourceLocation LV = lvalueLocation(I, Pl);
    if (LV != Pl.Loc)
      A.Where = T.Locs.positionOf(LV);
    A.Spelling = T.Locs.expressionAt(LV, A.Length);
    // The accesses merged into this one but its own (the iterations of an
    // unrolled loop share its place): where their lvalues start, as for A.
    bool Own = false;
    for (const MergedPart &Part : T.Locs.mergedParts(I)) {
      if (!Own && Part.At == I.getDebugLoc().get()) {
        Own = true;
        continue;
      }
      clang::SourceLocation Other = T.Locs.lvalueBefore(T.Locs.placeOf(Part.At).Loc);
      unsigned Length = 0;
      A.MergedWith.push_back({T.Locs.positionOf(Other), T.Locs.expressionAt(Other, Length)});
    }
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
    if (const auto *C = dyn_cast<CallBase>(&I); C && C->isInlineAsm())
      return T.Locs.asmStatementEnd(Pl.Loc);
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
    IRLocations::Place Pl = placeOf(I);
    const std::string &Spelled = !Pl.Wrapper.empty() ? Pl.Wrapper : !Pl.Library.empty() ? Pl.Library : Name;
    AtomicInstruction AI = classifyAtomic(Op, atomicValueOfType(Ty), Width, addsOneUnused(I), Spelled);
    SharedAccess A = accessAt(I, *P, AI.Op, AI.Width);
    A.Atomic = AI.Rule;
    A.Instruction = Spelled;
    if (!AI.Unmodelled.empty())
      A.Unsupported = AI.Unmodelled;
    record(std::move(A));
  }

  /// An atomic whose result is unused and whose operand is the constant 1
  /// (atomicrmw, an NVVM atomic intrinsic or an atomic function's call).
  static bool addsOneUnused(const Instruction &I) {
    if (!I.use_empty())
      return false;
    const Value *V = nullptr;
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      V = RMW->getValOperand();
    else if (const auto *C = dyn_cast<CallBase>(&I); C && C->arg_size() >= 2)
      V = C->getArgOperand(1);
    const auto *K = dyn_cast_or_null<ConstantInt>(V);
    return K && K->isOne();
  }

  /// Inline PTX `red` (no result) whose last operand is 1, written so or an
  /// asm operand the compiler made the constant 1.
  static bool ptxAddsOne(const CallBase &C, StringRef Text, StringRef Opcode) {
    if (!Opcode.starts_with("red.") || !C.getType()->isVoidTy())
      return false;
    std::string Last = lastOperandAt(Text, "red.");
    StringRef Operand = Last;
    unsigned N = 0;
    if (Operand.consume_front("$") && !Operand.getAsInteger(10, N) && N < C.arg_size())
      if (const auto *K = dyn_cast<ConstantInt>(C.getArgOperand(N)))
        return K->isOne();
    return Last == "1";
  }

  void record(SharedAccess A) {
    T.Out.NamesShared = true;
    T.Out.Accesses.push_back(std::move(A));
  }

  /// `__syncthreads_or(v)` as `__syncthreads_or()`: a vote's argument goes
  /// (other barriers keep theirs: `cg::sync(block)`).
  static std::string withoutArguments(const std::string &Text) {
    if (!StringRef(Text).starts_with("__syncthreads_"))
      return Text;
    size_t Open = std::string::npos;
    int Depth = 0;
    for (size_t I = 0; I < Text.size(); ++I) {
      if (Text[I] == '(' && Depth++ == 0)
        Open = I;
      else if (Text[I] == ')')
        --Depth;
    }
    return Open == std::string::npos || Text.back() != ')' ? Text : Text.substr(0, Open) + "()";
  }

  /// A block barrier of grid_group::sync() (the toolkit's, inlined: its
  /// arrive and wait each end in one).
  static bool inlinedFromGridSync(const Instruction &I) {
    for (const DILocation *DL = I.getDebugLoc().get(); DL; DL = DL->getInlinedAt())
      if (const DISubprogram *SP = DL->getScope()->getSubprogram())
        if (SP->getName().starts_with("sync_grids_") || // line tables: no linkage names
            isGridSync(SP->getLinkageName()))
          return true;
    return false;
  }

  /// A block barrier. One inlined from a helper is at the call in the
  /// analysed function, as the call that executes a block barrier.
  /// Spelled: the source text of the call when Spelling is only a default.
  void barrier(const Instruction &I, const std::string &Spelling, bool FromSource = true,
               bool GridWide = false) {
    BarrierSite B;
    B.GridWide = GridWide || inlinedFromGridSync(I);
    IRLocations::Place Pl = placeOf(I);
    unsigned Length = 0;
    clang::SourceLocation Start = T.Locs.memberAccessStart(Pl.Loc);
    std::string Text = FromSource ? T.Locs.expressionAt(Start, Length) : "";
    B.Spelling = Text.empty() ? Spelling : withoutArguments(Text);
    B.Where = T.Locs.positionOf(Start);
    if (!Pl.Chain.empty()) {
      B.ViaCall = Pl.Chain.front().Callee;
      B.CalleeBarrier = Pl.Where;
      B.Where = Pl.Chain.front().Site;
    }
    B.Guards = T.guardsOf(I.getParent());
    T.Out.Barriers.push_back(std::move(B));
    Split.clear();
  }

  /// A copy or fill of a constant size (a struct or vector assignment):
  /// the loads and stores the backend expands it into, each as wide as the
  /// alignment of both sides and the size allow (at most 16 bytes).
  void blockCopy(const MemIntrinsic &MI) {
    const auto *Len = dyn_cast<ConstantInt>(MI.getLength());
    const auto *MT = dyn_cast<MemTransferInst>(&MI);
    std::optional<IRPointer> Dst = T.ptrOf(MI.getRawDest());
    std::optional<IRPointer> Src = MT ? T.ptrOf(MT->getRawSource()) : std::nullopt;
    bool DstShared = Dst && Dst->Shared, SrcShared = Src && Src->Shared;
    if (!DstShared && !SrcShared)
      return;
    if (!Len || Len->getZExtValue() == 0 || Len->getZExtValue() > 256)
      return opaqueCall(MI, "a block copy (memcpy/memset) of shared memory of a size not known or over 256 bytes");
    uint64_t Size = Len->getZExtValue(), Align = MI.getDestAlign().valueOrOne().value();
    if (MT)
      Align = std::min<uint64_t>(Align, MT->getSourceAlign().valueOrOne().value());
    uint64_t Width = 16;
    while (Width > 1 && (Align % Width || Size % Width))
      Width /= 2;
    auto Part = [&](const IRPointer &P, uint64_t K) {
      IRPointer Q = P;
      Q.Offset = SymExpr::binary(Opcode::Add, SymExpr::cast(P.Offset, IntType::i64()),
                                 SymExpr::constant(int64_t(K * Width)), IntType::i64());
      return Q;
    };
    // Each side where its address is computed (the source line of a copy
    // written over two lines), when that is in the same inlined call.
    auto Where = [&](const Value *Ptr) -> const DILocation * {
      const auto *I = dyn_cast<Instruction>(Ptr);
      const DILocation *D = I ? I->getDebugLoc().get() : nullptr;
      const DILocation *Own = MI.getDebugLoc().get();
      return D && D->getLine() && Own && D->getInlinedAt() == Own->getInlinedAt() ? D : nullptr;
    };
    for (uint64_t K = 0; K < Size / Width; ++K) {
      if (SrcShared)
        record(accessAt(MI, Part(*Src, K), AccessOp::Load, unsigned(Width), Where(MT->getRawSource())));
      if (DstShared)
        record(accessAt(MI, Part(*Dst, K), AccessOp::Store, unsigned(Width), Where(MI.getRawDest())));
    }
  }

  /// NVVM's memory intrinsics: scoped atomics (atomicAdd_block), ldmatrix,
  /// asynchronous copies, WMMA fragments. True when handled.
  bool nvvmIntrinsic(const IntrinsicInst &II) {
    StringRef Name = Intrinsic::getBaseName(II.getIntrinsicID());
    if (!Name.consume_front("llvm.nvvm."))
      return false;
    if (Name.starts_with("atomic.")) {
      // llvm.nvvm.atomic.add.gen.i.cta: the operation is the second part.
      StringRef Op = Name.drop_front(7).take_until([](char C) { return C == '.'; });
      std::optional<AtomicOp> A = atomicOpOfName(("atomic" + Op.substr(0, 1).upper() + Op.substr(1)).str());
      Type *Ty = II.getType()->isVoidTy() ? II.getArgOperand(1)->getType() : II.getType();
      atomic(II, II.getArgOperand(0), Ty, A.value_or(AtomicOp::Other), ("atomic" + Op).str());
      return true;
    }
    if (Name.starts_with("ldmatrix.")) {
      auto P = T.ptrOf(II.getArgOperand(0));
      if (!P || !P->Shared)
        return true;
      std::string Opcode = Name.str();
      std::optional<uint32_t> Lanes = matrixAddressLanes(Opcode);
      SharedAccess A = accessAt(II, *P, AccessOp::Load, 16);
      A.Matrix = true;
      A.AddressLanes = Lanes.value_or(0xffffffffu);
      A.Instruction = Opcode;
      if (!Lanes)
        A.Unsupported = "'" + Opcode + "' was not measured";
      record(std::move(A));
      return true;
    }
    if (Name.starts_with("cp.async")) {
      for (const Value *Arg : II.args())
        if (Arg->getType()->isPointerTy())
          if (auto P = T.ptrOf(Arg); P && P->Shared) {
            SharedAccess A = accessAt(II, *P, AccessOp::Store, 0);
            A.Unsupported = copyReason(Name.starts_with("cp.async.bulk") ? "cp.async.bulk" : "cp.async");
            record(std::move(A));
            return true;
          }
      return true;
    }
    if (Name.starts_with("wmma."))
      return wmma(II, Name), true;
    return false;
  }

  /// A WMMA fragment load or store (llvm.nvvm.wmma.m16n16k16.load.a.row.
  /// stride.f16): the instructions nvcc emits for it (BankModel/Wmma.h),
  /// each at the lane addresses of its part of the fragment.
  void wmma(const IntrinsicInst &II, StringRef Name) {
    SmallVector<StringRef, 8> Parts8;
    Name.split(Parts8, '.');
    const auto &N = Parts8;
    const Value *Ptr = II.getArgOperand(0);
    auto P = T.ptrOf(Ptr);
    if (!P || !P->Shared || N.size() < 6)
      return;
    WmmaOperation Op;
    Op.Store = N[2] == "store";
    Op.Fragment = N[3] == "a" ? WmmaFragment::A : N[3] == "b" ? WmmaFragment::B : WmmaFragment::Accumulator;
    Op.RowMajor = N[4] == "row";
    StringRef Type = N.back();
    Op.Type = Type == "f16"    ? WmmaType::F16
              : Type == "bf16" ? WmmaType::BF16
              : Type == "tf32" ? WmmaType::TF32
              : Type == "f32"  ? WmmaType::F32
                               : WmmaType::Other;
    bool Shape = (N[1] == "m16n16k16" && Type != "tf32") || (N[1] == "m16n16k8" && (Type == "tf32" || Type == "f32"));
    std::optional<std::vector<WmmaPart>> Parts = Shape ? wmmaParts(Op) : std::nullopt;
    AccessOp Dir = Op.Store ? AccessOp::Store : AccessOp::Load;
    if (!Parts) {
      SharedAccess A = accessAt(II, *P, Dir, 0);
      A.Instruction = Name.str();
      A.Unsupported = "WMMA " + N[1].str() + " " + Type.str() + " fragment (" + Name.str() +
                      "): not measured, not modelled";
      record(std::move(A));
      return;
    }
    bool Strided = llvm::is_contained(N, "stride");
    SymRef Ldm = SymExpr::cast(Strided ? T.intOf(II.getArgOperand(II.arg_size() - 1)) : SymExpr::constant(16),
                               IntType::i64());
    SymRef Lane = laneId(IntType::i64());
    auto Affine = [&](unsigned Div, unsigned Mod, int Q, int R, int K) {
      SymRef V = SymExpr::constant(K);
      if (Q)
        V = SymExpr::binary(Opcode::Add, V,
                            SymExpr::binary(Opcode::Mul,
                                            SymExpr::binary(Opcode::Div, Lane, SymExpr::constant(Div), IntType::i64()),
                                            SymExpr::constant(Q), IntType::i64()),
                            IntType::i64());
      if (R)
        V = SymExpr::binary(Opcode::Add, V,
                            SymExpr::binary(Opcode::Mul,
                                            SymExpr::binary(Opcode::Rem, Lane, SymExpr::constant(Mod), IntType::i64()),
                                            SymExpr::constant(R), IntType::i64()),
                            IntType::i64());
      return V;
    };
    for (const WmmaPart &Part : *Parts) {
      IRPointer Q = *P;
      SymRef Row = Affine(Part.Div, Part.Mod, Part.RowQ, Part.RowR, Part.RowK);
      SymRef Col = Affine(Part.Div, Part.Mod, Part.ColQ, Part.ColR, Part.ColK);
      SymRef Elements = SymExpr::binary(Opcode::Add, SymExpr::binary(Opcode::Mul, Row, Ldm, IntType::i64()), Col,
                                        IntType::i64());
      Q.Offset = SymExpr::binary(Opcode::Add, SymExpr::cast(P->Offset, IntType::i64()),
                                 SymExpr::binary(Opcode::Mul, Elements, SymExpr::constant(Op.elementBytes()),
                                                 IntType::i64()),
                                 IntType::i64());
      SharedAccess A = accessAt(II, Q, Dir, Part.Width);
      A.Matrix = Part.Matrix;
      A.Instruction = describeWmma(Op);
      record(std::move(A));
    }
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
  /// the text names (PtxInstructions.h).
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
        // Named as the user calls it (atomic_ref::fetch_add), when the
        // instruction is a library's.
        std::string Library = placeOf(C).Library;
        std::string Spelled = Library.empty() ? Opcode : Library;
        // Without .shared the address is generic (libcu++'s atomic_ref):
        // measured only for 4-byte integers.
        AtomicInstruction AI =
            StringRef(Opcode).contains(".shared")
                ? classifyAtomic(Atomic->Op, Atomic->Value, Atomic->Width, ptxAddsOne(C, Text, Opcode), Spelled)
                : classifyGenericAtomic(Atomic->Op, Atomic->Value, Atomic->Width, Spelled);
        SharedAccess A = accessAt(C, *P, AI.Op, AI.Width);
        A.Atomic = AI.Rule;
        A.Instruction = Spelled;
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
    if (C.isInlineAsm()) {
      if (isBlockBarrierPtx(cast<InlineAsm>(C.getCalledOperand())->getAsmString()))
        return barrier(C, "bar.sync (inline PTX)", false);
      return inlineAsm(C);
    }
    // A grid barrier (cooperative_groups::grid_group::sync, declared only).
    if (const Function *F = C.getCalledFunction())
      if (isGridSync(F->getName()))
        return barrier(C, "grid_group.sync()", true, /*GridWide=*/true);
    if (const auto *II = dyn_cast<IntrinsicInst>(&C)) {
      if (const auto *MI = dyn_cast<MemIntrinsic>(II))
        return blockCopy(*MI);
      if (II->getIntrinsicID() == Intrinsic::nvvm_bar_warp_sync)
        Split.clear();
      if (II->isAssumeLikeIntrinsic() || II->getIntrinsicID() == Intrinsic::lifetime_start ||
          II->getIntrinsicID() == Intrinsic::lifetime_end)
        return;
      if (nvvmIntrinsic(*II) || II->doesNotAccessMemory())
        return; // handled, or a question about an address (isspacep.shared)
      return opaqueCall(C, "'" + Intrinsic::getBaseName(II->getIntrinsicID()).str() + "' not modelled");
    }
    std::string Name = calleeBaseName(C);
    if (auto Op = atomicOpOfName(Name); Op && C.arg_size() >= 1) {
      Type *Ty = C.getType()->isVoidTy() && C.arg_size() >= 2 ? C.getArgOperand(1)->getType() : C.getType();
      return atomic(C, C.getArgOperand(0), Ty, *Op, Name);
    }
    opaqueCall(C, "call of '" + Name + "', whose body is not available");
  }

  /// A retry loop goes round again depending on what an atomic returned
  /// (CAS loops, spin locks): its lanes leave it at different times, and
  /// nvcc does not make them run together again before the next barrier
  /// (measured, docs/design.md). The blocks reached from its exits before a
  /// barrier run with the warp split.
  template <typename RPO> void findSplits(RPO &Order) {
    std::vector<std::pair<const BasicBlock *, std::string>> Work;
    for (const Loop *L : T.A.LI.getLoopsInPreorder()) {
      if (!retryLoop(*L))
        continue;
      SourcePos P = T.Locs.positionOf(L->getStartLoc().get());
      std::string Why = "the lanes of a warp may run it apart: they leave the atomic retry loop at " +
                        llvm::sys::path::filename(P.File).str() + ":" + std::to_string(P.Line) +
                        " at different times and do not run together again before the next block barrier";
      SmallVector<BasicBlock *, 4> Exits;
      L->getExitBlocks(Exits);
      for (const BasicBlock *E : Exits)
        Work.push_back({E, Why});
    }
    while (!Work.empty()) {
      auto [BB, Why] = Work.back();
      Work.pop_back();
      if (!SplitAtEntry[BB].empty())
        continue;
      SplitAtEntry[BB] = Why;
      bool Joined = llvm::any_of(*BB, [](const Instruction &I) {
        const auto *II = dyn_cast<IntrinsicInst>(&I);
        std::string S;
        return II && (isBlockBarrier(*II, S) || II->getIntrinsicID() == Intrinsic::nvvm_bar_warp_sync);
      });
      if (!Joined)
        for (const BasicBlock *Succ : successors(BB))
          Work.push_back({Succ, Why});
    }
    (void)Order;
  }

  /// Whether the loop's exit differs between lanes and depends on the
  /// result of an atomic in it (each lane gets its own).
  bool retryLoop(const Loop &L) {
    SmallVector<BasicBlock *, 4> Exiting;
    L.getExitingBlocks(Exiting);
    for (const BasicBlock *E : Exiting) {
      const auto *Br = dyn_cast<BranchInst>(E->getTerminator());
      if (!Br || !Br->isConditional() || !T.A.UI.isDivergent(Br->getCondition()))
        continue;
      // The condition's operands back to an atomic in the loop.
      std::vector<const Value *> Todo{Br->getCondition()};
      llvm::DenseSet<const Value *> Seen;
      while (!Todo.empty()) {
        const auto *I = dyn_cast<Instruction>(Todo.back());
        Todo.pop_back();
        if (!I || !L.contains(I) || !Seen.insert(I).second || Seen.size() > 256)
          continue;
        if (I->isAtomic())
          return true;
        if (const auto *C = dyn_cast<CallBase>(I); C && C->isInlineAsm()) {
          StringRef Text = cast<InlineAsm>(C->getCalledOperand())->getAsmString();
          if (Text.contains("atom.") || Text.contains("red.") || Text.contains(".cas"))
            return true;
        }
        if (const auto *II = dyn_cast<IntrinsicInst>(I);
            II && Intrinsic::getBaseName(II->getIntrinsicID()).starts_with("llvm.nvvm.atomic."))
          return true;
        if (isa<PHINode>(I) && I->getParent() == L.getHeader())
          continue;
        for (const Value *Op : I->operands())
          Todo.push_back(Op);
      }
    }
    return false;
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

/// Whether I refers to a __shared__ variable (through casts and constant
/// offsets too): its kernel uses shared memory, modelled or not.
static bool namesSharedVariable(const Instruction &I) {
  for (const Value *Op : I.operands())
    if (const auto *G = dyn_cast<GlobalVariable>(Op->stripPointerCasts()))
      if (G->getAddressSpace() == 3)
        return true;
  return false;
}

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
  W.findSplits(RPOT);
  for (const BasicBlock *BB : RPOT) {
    guardsOf(BB); // in this order, each block's are built from its predecessors'
    W.Split = W.SplitAtEntry[BB];
    for (const Instruction &I : *BB) {
      W.visit(I);
      if (Out.IsKernel && !Out.NamesShared)
        Out.NamesShared = namesSharedVariable(I);
    }
  }
}

} // namespace cbl
