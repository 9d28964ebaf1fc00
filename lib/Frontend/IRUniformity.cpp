//===- IRUniformity.cpp - Which values every thread of a block agrees on --===//
//
// UniformityAnalysis (with the sources of divergence of DeviceModel.cpp)
// says which values are the same in every thread. The barrier check needs
// block-level facts the compiler does not use:
//  - a comparison of two values whose difference is the same in every
//    thread (ScalarEvolution: `t < n + tid` with t = tid + k * c);
//  - a full-warp vote over a lane-indexed value: a function of the lane and
//    of uniform values, e.g. s[threadIdx.x % 32] read after a barrier with
//    no write before the next one. Lane l of every warp holds the same value,
//    so every warp votes over the same 32 values and gets the same answer.
//
//===----------------------------------------------------------------------===//
#include "IRTranslator.h"
#include "DeviceLowering.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"

#include <fmt/format.h>

using namespace llvm;

namespace cbl {

void setAgreement(Guard &G, Agreement A) {
  G.BlockUniform = A != Agreement::No;
  G.IfLaneRows = A == Agreement::IfLaneRows;
}

namespace {

Agreement agreementOf(const LaneFact &F) {
  if (F.K != LaneFact::Uniform)
    return Agreement::No;
  return F.Rows ? Agreement::IfLaneRows : Agreement::Yes;
}

/// The fact of a value computed from values with facts A and B.
LaneFact join(LaneFact A, LaneFact B) {
  return {A.K > B.K ? A.K : B.K, A.Rows || B.Rows, A.Span & B.Span};
}

bool isIntrinsic(const Value *V, Intrinsic::ID ID) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == ID;
}

/// A full-warp butterfly shuffle (__shfl_xor_sync(0xffffffff, x, o) over
/// the whole warp, o a power of two): its offset, else 0.
unsigned butterflyOffset(const CallBase &C) {
  const auto *Mask = C.arg_size() == 4 ? dyn_cast<ConstantInt>(C.getArgOperand(0)) : nullptr;
  const auto *Off = C.arg_size() == 4 ? dyn_cast<ConstantInt>(C.getArgOperand(2)) : nullptr;
  const auto *Width = C.arg_size() == 4 ? dyn_cast<ConstantInt>(C.getArgOperand(3)) : nullptr;
  if (!Mask || !Mask->isAllOnesValue() || !Off || !Width || !Off->getValue().isPowerOf2() ||
      Off->getValue().ugt(16))
    return 0;
  bool Intrinsic = isIntrinsic(&C, Intrinsic::nvvm_shfl_sync_bfly_i32) ||
                   isIntrinsic(&C, Intrinsic::nvvm_shfl_sync_bfly_f32);
  // The intrinsic's last operand is the clamp (31: the whole warp); the
  // prelude's __shfl_xor_sync takes the width (32).
  if (Intrinsic)
    return Width->getZExtValue() == 31 ? unsigned(Off->getZExtValue()) : 0;
  return calleeBaseName(C) == "__shfl_xor_sync" && Width->getZExtValue() == 32 ? unsigned(Off->getZExtValue())
                                                                               : 0;
}

/// threadIdx.x % 32, or a function of it alone (an 'and' with a mask below
/// 32, a remainder by a power of two up to 32).
bool isThreadXModWarp(const BinaryOperator &B) {
  const Value *X = B.getOperand(0);
  if (const auto *C = dyn_cast<CastInst>(X); C && (isa<ZExtInst>(C) || isa<TruncInst>(C)))
    X = C->getOperand(0);
  const auto *K = dyn_cast<ConstantInt>(B.getOperand(1));
  if (!K || !isIntrinsic(X, Intrinsic::nvvm_read_ptx_sreg_tid_x))
    return false;
  if (B.getOpcode() == Instruction::And)
    return K->getValue().ule(31);
  if (B.getOpcode() == Instruction::URem)
    return K->getValue().isPowerOf2() && K->getValue().ule(32);
  return false;
}

/// A warp vote or shuffle declared only (the built-in prelude's), by name.
bool isWarpPrimitive(const CallBase &C, bool &IsVote) {
  const Function *Callee = C.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || isa<IntrinsicInst>(C))
    return false;
  std::string Name = calleeBaseName(C);
  IsVote = Name == "__all_sync" || Name == "__any_sync" || Name == "__uni_sync" || Name == "__ballot_sync";
  return IsVote || (StringRef(Name).starts_with("__shfl") && StringRef(Name).ends_with("_sync"));
}

/// Whether I may write memory that a load from shared memory could read:
/// a store or atomic that is not into a thread's own local memory or into
/// global memory (a non-shared global, a kernel's pointer parameter: the
/// host cannot pass a pointer to shared memory), or a call that may write
/// memory (warp-level intrinsics write none).
bool mayWriteShared(const Instruction &I, bool InKernel) {
  auto Harmless = [&](const Value *Ptr) {
    unsigned AS = Ptr->getType()->getPointerAddressSpace();
    if (AS == 1 || AS == 5)
      return true;
    const Value *Obj = getUnderlyingObject(Ptr);
    if (const auto *G = dyn_cast<GlobalVariable>(Obj))
      return G->getAddressSpace() != 3;
    return isa<AllocaInst>(Obj) || (InKernel && isa<Argument>(Obj));
  };
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return !Harmless(S->getPointerOperand());
  if (const auto *R = dyn_cast<AtomicRMWInst>(&I))
    return !Harmless(R->getPointerOperand());
  if (const auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    return !Harmless(X->getPointerOperand());
  if (const auto *C = dyn_cast<CallBase>(&I)) {
    bool IsVote = false;
    if (C->onlyReadsMemory() || C->onlyAccessesInaccessibleMemory() || isWarpPrimitive(*C, IsVote))
      return false;
    if (const auto *II = dyn_cast<IntrinsicInst>(C))
      return !II->isAssumeLikeIntrinsic() && II->getIntrinsicID() != Intrinsic::lifetime_start &&
             II->getIntrinsicID() != Intrinsic::lifetime_end;
    return true;
  }
  return false;
}

bool isBarrier(const Instruction &I) {
  std::string Unused;
  const auto *C = dyn_cast<CallBase>(&I);
  return C && isBlockBarrier(*C, Unused);
}

/// A plain load from a __shared__ variable (directly or through a generic
/// pointer).
bool readsShared(const LoadInst &L) {
  if (L.isAtomic() || L.isVolatile())
    return false;
  return L.getPointerAddressSpace() == 3 || sharedVariableOf(L.getPointerOperand());
}

} // namespace

/// Whether no thread of the block writes shared memory between the block
/// barriers around I: the barriers (or the function's entry) from which I
/// is reached, and everything that runs from them before the next barrier,
/// hold no write. A value read there at one address is the same in every
/// thread that reads it.
bool IRTranslator::writeFreeBetweenBarriers(const Instruction &I) {
  // Back from I to the barriers before it: where the stretch of code that
  // holds I begins (just after each, or at the function's entry).
  std::vector<const Instruction *> Starts;
  SmallPtrSet<const BasicBlock *, 16> Seen;
  std::vector<const Instruction *> Work{&I};
  while (!Work.empty()) {
    const Instruction *From = Work.back();
    Work.pop_back();
    const Instruction *P = From->getPrevNode();
    while (P && !isBarrier(*P))
      P = P->getPrevNode();
    if (P) {
      Starts.push_back(P->getNextNode());
      continue;
    }
    const BasicBlock *BB = From->getParent();
    if (BB->isEntryBlock())
      Starts.push_back(&BB->front());
    for (const BasicBlock *Pred : predecessors(BB))
      if (Seen.insert(Pred).second) {
        if (Seen.size() > 256)
          return false;
        // From its end: the terminator too (a barrier never ends a block).
        Work.push_back(&*std::prev(Pred->end()));
        if (isBarrier(*Work.back()))
          return false;
      }
  }
  // Everything that runs from the starts before the next barrier: no write.
  SmallPtrSet<const BasicBlock *, 16> Done;
  while (!Starts.empty()) {
    const Instruction *From = Starts.back();
    Starts.pop_back();
    const Instruction *N = From;
    for (; N && !isBarrier(*N); N = N->getNextNode())
      if (mayWriteShared(*N, Out.IsKernel))
        return false;
    if (N)
      continue; // a barrier ends the stretch
    for (const BasicBlock *Succ : successors(From->getParent()))
      if (Done.insert(Succ).second) {
        if (Done.size() > 256)
          return false;
        Starts.push_back(&Succ->front());
      }
  }
  return true;
}

LaneFact IRTranslator::laneFact(const Value *V, unsigned Depth) {
  if (!A.UI.isDivergent(V))
    return {LaneFact::Uniform, false, WarpSize - 1};
  if (Depth > 16)
    return {};
  if (const auto *C = dyn_cast<CallBase>(V))
    return laneFactOfCall(*C, Depth);
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return {};
  if (const auto *B = dyn_cast<BinaryOperator>(I); B && isThreadXModWarp(*B))
    return {LaneFact::Lane, true};
  if (const auto *L = dyn_cast<LoadInst>(I)) {
    // One address per lane, read where no thread writes: lane l of every
    // warp reads the same word and gets the same value.
    LaneFact P = laneFact(L->getPointerOperand(), Depth + 1);
    if (P.K == LaneFact::Other || !readsShared(*L) || !writeFreeBetweenBarriers(*L))
      return {};
    return {LaneFact::Lane, P.Rows};
  }
  if (const auto *P = dyn_cast<PHINode>(I))
    return laneFactOfPhi(*P, Depth);
  if (auto B = butterflyStep(*I, Depth))
    return *B;
  if (!isa<CastInst>(I) && !isa<BinaryOperator>(I) && !isa<CmpInst>(I) && !isa<SelectInst>(I) &&
      !isa<FreezeInst>(I) && !isa<GetElementPtrInst>(I) && !isa<UnaryOperator>(I))
    return {};
  LaneFact F{LaneFact::Uniform, false, WarpSize - 1};
  for (const Value *Op : I->operands()) {
    F = join(F, laneFact(Op, Depth + 1));
    if (F.K == LaneFact::Other)
      return {};
  }
  return F;
}

/// A step of a butterfly reduction: V = f(shfl_xor(X, o), X) with f the
/// same function of its two operands either way round (x & y, (x != 0) &&
/// (y != 0), x + y, max(x, y)). Lanes l and l ^ o then hold the same value,
/// and so do the lanes X already agreed across: after the offsets 16, 8, 4,
/// 2, 1 every lane of the warp holds f over all 32 (any order, any
/// commutative f: no associativity needed). Of a lane-indexed X, that is
/// the same in every warp.
std::optional<LaneFact> IRTranslator::butterflyStep(const Instruction &V, unsigned Depth) {
  // The shuffle: an operand of V, else an operand of one of V's operands
  // (a cast or a comparison around it); the first for which V is symmetric.
  std::vector<const Value *> Near(V.op_begin(), V.op_end());
  for (const Value *Op : V.operands())
    if (const auto *I = dyn_cast<Instruction>(Op))
      Near.insert(Near.end(), I->op_begin(), I->op_end());
  const Value *X = nullptr;
  unsigned Offset = 0;
  for (const Value *N : Near) {
    const auto *C = dyn_cast<CallBase>(N);
    if (!C || !(Offset = butterflyOffset(*C)))
      continue;
    std::string Form = symmetricForm(&V, C, C->getArgOperand(1), false);
    if (!Form.empty() && Form == symmetricForm(&V, C, C->getArgOperand(1), true)) {
      X = C->getArgOperand(1);
      break;
    }
  }
  if (!X)
    return std::nullopt;
  LaneFact F = laneFact(X, Depth + 1);
  if (F.K == LaneFact::Other)
    return LaneFact{};
  F.Span |= Offset;
  if (F.K == LaneFact::Lane && F.Span == WarpSize - 1)
    return LaneFact{LaneFact::Uniform, F.Rows, WarpSize - 1};
  return F;
}

/// V as text over the shuffle S ("a") and its operand X ("b"), or the other
/// way round (Swap), with the operands of commutative operations sorted:
/// equal both ways when V is a symmetric function of S and X. Empty when V
/// reads another thread-varying value or is not modelled.
std::string IRTranslator::symmetricForm(const Value *V, const Value *S, const Value *X, bool Swap,
                                        unsigned Depth) {
  if (V == S || V == X)
    return (V == S) != Swap ? "a" : "b";
  // X = zext(c) of an i1 c (a previous step's `&&`): c is X != 0, written
  // as the comparison is below (operands sorted).
  if (const auto *Z = dyn_cast<ZExtInst>(X); Z && Z->getOperand(0) == V && V->getType()->isIntegerTy(1))
    return std::string("(ne 0 ") + (Swap ? "a" : "b") + ")";
  if (Depth > 12)
    return "";
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return C->getBitWidth() <= 64 ? std::to_string(C->getSExtValue()) : "";
  if (!A.UI.isDivergent(V))
    return fmt::format("u{}", static_cast<const void *>(V));
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return "";
  using namespace llvm::PatternMatch;
  const Value *P = nullptr, *Q = nullptr;
  std::string Op;
  bool Commutative = false;
  if (match(I, m_LogicalAnd(m_Value(P), m_Value(Q))) || match(I, m_LogicalOr(m_Value(P), m_Value(Q)))) {
    Op = match(I, m_LogicalAnd(m_Value(), m_Value())) ? "land" : "lor";
    Commutative = true;
  } else if (const auto *Cmp = dyn_cast<ICmpInst>(I)) {
    Op = CmpInst::getPredicateName(Cmp->getPredicate()).str();
    P = Cmp->getOperand(0);
    Q = Cmp->getOperand(1);
    Commutative = Cmp->isEquality();
  } else if (const auto *B = dyn_cast<BinaryOperator>(I)) {
    Op = B->getOpcodeName();
    P = B->getOperand(0);
    Q = B->getOperand(1);
    Commutative = B->isCommutative();
  } else if (const auto *II = dyn_cast<IntrinsicInst>(I); II && II->arg_size() == 2 && II->isCommutative()) {
    Op = Intrinsic::getBaseName(II->getIntrinsicID()).str();
    P = II->getArgOperand(0);
    Q = II->getArgOperand(1);
    Commutative = true;
  } else if (const auto *Cast = dyn_cast<CastInst>(I)) {
    std::string Inner = symmetricForm(Cast->getOperand(0), S, X, Swap, Depth + 1);
    return Inner.empty() ? "" : fmt::format("({} {})", Cast->getOpcodeName(), Inner);
  } else {
    return "";
  }
  std::string L = symmetricForm(P, S, X, Swap, Depth + 1), R = symmetricForm(Q, S, X, Swap, Depth + 1);
  if (L.empty() || R.empty())
    return "";
  if (Commutative && R < L)
    std::swap(L, R);
  return fmt::format("({} {} {})", Op, L, R);
}

/// A merge after an if (a select the compiler made a branch): a function
/// of the branch's condition and of the values merged, when the way to it
/// is the branch alone (each incoming edge from the branch, or from a block
/// that only the branch enters and that goes straight to the merge).
LaneFact IRTranslator::laneFactOfPhi(const PHINode &P, unsigned Depth) {
  const auto *Node = A.DT.getNode(P.getParent());
  const BasicBlock *Dom = Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
  const auto *Br = Dom ? dyn_cast<BranchInst>(Dom->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional() || P.getNumIncomingValues() != 2)
    return {};
  LaneFact F = laneFact(Br->getCondition(), Depth + 1);
  for (unsigned K = 0; K < 2 && F.K != LaneFact::Other; ++K) {
    const BasicBlock *In = P.getIncomingBlock(K);
    if (In != Dom && (In->getSinglePredecessor() != Dom || In->getSingleSuccessor() != P.getParent()))
      return {};
    F = join(F, laneFact(P.getIncomingValue(K), Depth + 1));
  }
  return F.K == LaneFact::Other ? LaneFact{} : F;
}

/// Votes and shuffles over the whole warp (mask 0xffffffff): a vote over a
/// lane-indexed value is the same in every warp; a shuffle of one stays a
/// function of the lane.
LaneFact IRTranslator::laneFactOfCall(const CallBase &C, unsigned Depth) {
  if (isIntrinsic(&C, Intrinsic::nvvm_read_ptx_sreg_laneid))
    return {LaneFact::Lane, false};
  const auto *Mask = C.arg_size() >= 2 ? dyn_cast<ConstantInt>(C.getArgOperand(0)) : nullptr;
  if (!Mask || !Mask->isAllOnesValue())
    return {};
  // The value operand and the rest (a shuffle's lane or offset, its width).
  auto Vote = [&] {
    LaneFact F = laneFact(C.getArgOperand(1), Depth + 1);
    return F.K == LaneFact::Other ? LaneFact{} : LaneFact{LaneFact::Uniform, F.Rows, WarpSize - 1};
  };
  auto Shuffle = [&] {
    LaneFact F = laneFact(C.getArgOperand(1), Depth + 1);
    for (unsigned K = 2; K < C.arg_size(); ++K)
      if (A.UI.isDivergent(C.getArgOperand(K)))
        return LaneFact{};
    return F.K == LaneFact::Other ? LaneFact{} : LaneFact{LaneFact::Lane, F.Rows};
  };
  bool IsVote = false;
  if (isWarpPrimitive(C, IsVote))
    return IsVote ? Vote() : Shuffle();
  const auto *II = dyn_cast<IntrinsicInst>(&C);
  if (!II)
    return {};
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_vote_all_sync:
  case Intrinsic::nvvm_vote_any_sync:
  case Intrinsic::nvvm_vote_uni_sync:
  case Intrinsic::nvvm_vote_ballot_sync:
    return Vote();
  case Intrinsic::nvvm_shfl_sync_bfly_i32:
  case Intrinsic::nvvm_shfl_sync_bfly_f32:
  case Intrinsic::nvvm_shfl_sync_idx_i32:
  case Intrinsic::nvvm_shfl_sync_idx_f32:
  case Intrinsic::nvvm_shfl_sync_up_i32:
  case Intrinsic::nvvm_shfl_sync_up_f32:
  case Intrinsic::nvvm_shfl_sync_down_i32:
  case Intrinsic::nvvm_shfl_sync_down_f32:
    return Shuffle();
  default:
    return {};
  }
}

/// Whether S has the same value in every thread of the block: no unknown
/// in it is divergent (threadIdx, a value loaded at a per-thread address).
bool IRTranslator::blockUniform(const SCEV *S) {
  return !SCEVExprContains(S, [&](const SCEV *X) {
    const auto *U = dyn_cast<SCEVUnknown>(X);
    return U && A.UI.isDivergent(U->getValue());
  });
}

/// Whether every thread of the block that evaluates C gets the same answer:
/// C is uniform, or a full-warp vote over a lane-indexed value (laneFact),
/// or it compares two values whose difference is uniform (with the signed
/// or equality tests that C's int arithmetic cannot wrap: `t < n + tid`
/// with t = tid + k * c, tid cancels), or it joins such tests.
Agreement IRTranslator::agrees(const Value *C, unsigned Depth) {
  if (!A.UI.isDivergent(C))
    return Agreement::Yes;
  if (Agreement ByLanes = agreementOf(laneFact(C)); ByLanes != Agreement::No)
    return ByLanes;
  if (Depth > 8)
    return Agreement::No;
  if (const auto *Cmp = dyn_cast<ICmpInst>(C)) {
    if (!Cmp->isEquality() && !Cmp->isSigned())
      return Agreement::No;
    const SCEV *L = A.SE.getSCEV(const_cast<Value *>(Cmp->getOperand(0)));
    const SCEV *R = A.SE.getSCEV(const_cast<Value *>(Cmp->getOperand(1)));
    const SCEV *D = A.SE.getMinusSCEV(R, L);
    return !isa<SCEVCouldNotCompute>(D) && blockUniform(D) ? Agreement::Yes : Agreement::No;
  }
  const Value *X = nullptr, *Y = nullptr;
  using namespace llvm::PatternMatch;
  if (match(C, m_LogicalAnd(m_Value(X), m_Value(Y))) || match(C, m_LogicalOr(m_Value(X), m_Value(Y))))
    return both(agrees(X, Depth + 1), agrees(Y, Depth + 1));
  if (match(C, m_Not(m_Value(X))))
    return agrees(X, Depth + 1);
  return Agreement::No;
}

/// Whether every thread still in the loop takes exiting block E's branch
/// the same way in each iteration.
Agreement IRTranslator::exitAgrees(const BasicBlock *E) {
  if (!A.UI.hasDivergentTerminator(*E))
    return Agreement::Yes;
  const auto *Br = dyn_cast<BranchInst>(E->getTerminator());
  return Br && Br->isConditional() ? agrees(Br->getCondition()) : Agreement::No;
}

/// Every thread of the block runs the loop's iterations alike once in it:
/// each exit is tested on every way round (it dominates the latch) and
/// agrees between threads.
Agreement IRTranslator::sameTripCount(const Loop *L) {
  const BasicBlock *Latch = L->getLoopLatch();
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  if (!Latch)
    return Agreement::No;
  Agreement All = Agreement::Yes;
  for (const BasicBlock *E : Exiting)
    All = both(All, A.DT.dominates(E, Latch) ? exitAgrees(E) : Agreement::No);
  return All;
}

} // namespace cbl
