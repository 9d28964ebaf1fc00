//===- IRControl.cpp - Loops, guards and merges of the device IR ----------===//
#include "IRTranslator.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cbl {

namespace {

SymRef guardValue(const Guard &G) { return G.Negated ? notOf(G.Cond) : G.Cond; }

bool sameExpr(const SymRef &A, const SymRef &B) {
  return A == B || (A && B && A->Hash == B->Hash && toString(A) == toString(B));
}

/// The comparison with its operands swapped (a < b is b > a).
SymRef swapped(const SymRef &C) {
  if (C->Kind != ExprKind::Binary || !isComparison(C->Op))
    return nullptr;
  Opcode O = C->Op;
  switch (C->Op) {
  case Opcode::LT: O = Opcode::GT; break;
  case Opcode::GT: O = Opcode::LT; break;
  case Opcode::LE: O = Opcode::GE; break;
  case Opcode::GE: O = Opcode::LE; break;
  default: break;
  }
  return SymExpr::binary(O, C->Ops[1], C->Ops[0], C->Type);
}

/// E with each loop counter in Values replaced by its value there.
SymRef substitute(const SymRef &E, const std::map<unsigned, SymRef> &Values) {
  return replaceLeaves(E, [&](const SymRef &L) -> SymRef {
    if (L->Kind != ExprKind::LoopVar)
      return nullptr;
    auto It = Values.find(L->LoopId);
    return It == Values.end() ? nullptr : SymExpr::cast(It->second, L->Type);
  });
}

/// The counter's name: its variable's, as the IR names it; Clang numbers a
/// second local of one name (x, then x10), so a name the loop's line does
/// not spell is taken without its digits when that one is spelled there.
/// A phi LLVM names x.in holds what x is computed from, not x.
std::string counterName(const PHINode &P, unsigned Index, IRLocations &Locs, const DILocation *Line) {
  StringRef N = P.getName();
  N = N.take_until([](char C) { return C == '.'; });
  if (N.empty() || !(isalpha(N[0]) || N[0] == '_'))
    return "counter" + std::to_string(Index);
  StringRef Plain = N.rtrim("0123456789");
  if (Plain.size() < N.size() && Locs.lineSpells(Line, Plain) && !Locs.lineSpells(Line, N))
    N = Plain;
  // x.in: the value the variable is computed from in each iteration (the
  // compiler moved the update, stride >>= 1, to the top of the body).
  return P.getName().ends_with(".in") ? N.str() + " before its update" : N.str();
}

} // namespace

// --- loops -------------------------------------------------------------------

unsigned IRTranslator::loopIdOf(const Loop *L) {
  auto It = LoopIds.find(L);
  if (It != LoopIds.end())
    return It->second;
  unsigned Id = unsigned(Out.Loops.size());
  Out.Loops.emplace_back();
  Out.Loops[Id].Id = Id;
  LoopIds[L] = Id;
  // A loop met while another loop's test is written over its next values
  // is built as it is.
  const Loop *Subst = SubstLoop;
  bool Failed = SubstFailed;
  auto Saved = std::make_tuple(std::move(NextAsCounter), std::move(NextPtrAsCounter), std::move(SubstInts));
  SubstLoop = nullptr;
  NextAsCounter.clear();
  NextPtrAsCounter.clear();
  SubstInts.clear();
  buildLoop(L, Id);
  SubstLoop = Subst;
  SubstFailed = Failed;
  std::tie(NextAsCounter, NextPtrAsCounter, SubstInts) = std::move(Saved);
  return Id;
}

/// The wider header phi that P is the truncation of on every way in (the
/// compiler's 64-bit copy of an int counter: i = (int)(i + warp.size())).
static const PHINode *wideTwinOf(const PHINode &P, const Loop *L) {
  auto Same = [](const Value *Narrow, const Value *Wide) {
    if (const auto *T = dyn_cast<TruncInst>(Narrow); T && T->getOperand(0) == Wide)
      return true;
    const auto *X = dyn_cast<CastInst>(Wide);
    return X && (isa<ZExtInst>(X) || isa<SExtInst>(X)) && X->getOperand(0) == Narrow &&
           (isa<SExtInst>(X) || X->hasNonNeg());
  };
  for (const PHINode &W : L->getHeader()->phis()) {
    if (&W == &P || !W.getType()->isIntegerTy() || W.getType()->getIntegerBitWidth() > 64 ||
        W.getType()->getIntegerBitWidth() <= P.getType()->getIntegerBitWidth())
      continue;
    bool All = W.getNumIncomingValues() == P.getNumIncomingValues();
    for (unsigned K = 0; All && K < P.getNumIncomingValues(); ++K)
      All = Same(P.getIncomingValue(K), W.getIncomingValueForBlock(P.getIncomingBlock(K)));
    if (All)
      return &W;
  }
  return nullptr;
}

void IRTranslator::buildLoop(const Loop *L, unsigned Id) {
  const BasicBlock *H = L->getHeader();
  {
    DebugLoc Start = L->getStartLoc();
    Out.Loops[Id].Where = Locs.positionOf(Start.get());
  }
  const std::string Line = std::to_string(Out.Loops[Id].Where.Line);
  // The counters: the header's phis of integers and of pointers.
  struct Pending {
    const PHINode *Phi;
    LoopCounter C;
    bool Pointer;
  };
  std::vector<Pending> Counters;
  std::vector<std::pair<const PHINode *, const PHINode *>> Twins;
  for (const PHINode &P : H->phis()) {
    bool Int = P.getType()->isIntegerTy() && P.getType()->getIntegerBitWidth() <= 64;
    if (!Int && !P.getType()->isPointerTy())
      continue;
    if (const PHINode *Wide = Int ? wideTwinOf(P, L) : nullptr) {
      Twins.push_back({&P, Wide});
      continue;
    }
    LoopCounter C;
    C.Id = NextCounterId++;
    C.Name = counterName(P, C.Id, Locs, L->getStartLoc().get());
    C.LaneVarying = A.UI.isDivergent(&P);
    IntType T = Int ? (P.getType()->getIntegerBitWidth() == 1 ? IntType::boolean()
                                                                 : IntType{P.getType()->getIntegerBitWidth(), true})
                    : IntType::i64();
    SymRef Leaf = SymExpr::loopVar(C.Id, C.Name, "'" + C.Name + "' changes in the loop at line " + Line,
                                   C.LaneVarying, T);
    if (Int) {
      Ints[&P] = Leaf;
    } else {
      // A pointer that moves through one array (or from one base).
      std::optional<IRPointer> Start;
      for (unsigned K = 0; K < P.getNumIncomingValues(); ++K)
        if (!L->contains(P.getIncomingBlock(K)))
          Start = ptrOf(P.getIncomingValue(K));
      if (!Start)
        continue;
      IRPointer Moving = *Start;
      Moving.Offset = Leaf;
      Ptrs[&P] = Moving;
    }
    Counters.push_back({&P, C, !Int});
  }
  for (const auto &[Narrow, Wide] : Twins)
    Ints[Narrow] = SymExpr::cast(Ints[Wide], IntType{Narrow->getType()->getIntegerBitWidth(), true});
  // Start values, then the condition (the guards of the body refer to it),
  // then the next values, in terms of the counters at an iteration's start.
  auto ValueIn = [&](const Pending &Pd, bool Inside) {
    SymRef Slot;
    for (unsigned K = 0; K < Pd.Phi->getNumIncomingValues(); ++K) {
      if (L->contains(Pd.Phi->getIncomingBlock(K)) != Inside)
        continue;
      const Value *V = Pd.Phi->getIncomingValue(K);
      SymRef E;
      if (Pd.Pointer) {
        auto P = ptrOf(V);
        const IRPointer &Self = *Ptrs[Pd.Phi];
        E = P && P->Shared == Self.Shared && P->ArrayId == Self.ArrayId && P->Base == Self.Base
                ? SymExpr::cast(P->Offset, IntType::i64())
                : unknownOf(V, "pointer from another base");
      } else {
        E = intOf(V);
      }
      Slot = Slot && !sameExpr(Slot, E) ? unknownOf(Pd.Phi, "several values enter the loop at line " + Line)
                                        : E;
    }
    return Slot ? Slot : unknownOf(Pd.Phi, "value not found");
  };
  for (Pending &Pd : Counters) {
    Pd.C.Init = ValueIn(Pd, false);
    Out.Loops[Id].LaneVarying |= Pd.C.LaneVarying;
    Out.Loops[Id].Counters.push_back(Pd.C);
    CounterPhis[Pd.C.Id] = Pd.Phi;
  }
  SymRef Cond = loopCondition(L, Id);
  Out.Loops[Id].Cond = Cond;
  ProvisionalByBlock.clear(); // they read the stand-in for this condition
  for (size_t K = 0; K < Counters.size(); ++K) {
    SymRef Next = ValueIn(Counters[K], true);
    Out.Loops[Id].Counters[K].Next = Next; // Out.Loops may have grown: index again
  }
}

/// The loop's condition, checked before each iteration: the latch's test
/// written over the counters when the loop has one exit (its latch) and
/// the loop is only entered when the test holds for the start values;
/// otherwise a counter that is true while the lane goes round again.
SymRef IRTranslator::loopCondition(const Loop *L, unsigned Id) {
  const BasicBlock *H = L->getHeader(), *Latch = L->getLoopLatch();
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  const auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  SymRef Continue;
  if (Br && Br->isConditional()) {
    bool OnTrue = Br->getSuccessor(0) == H;
    if (Exiting.size() == 1 && Exiting[0] == Latch) {
      // The while form: the next values are the counters of the next test.
      for (const LoopCounter &C : Out.Loops[Id].Counters) {
        const PHINode *P = CounterPhis[C.Id];
        const Value *NextV = P->getIncomingValueForBlock(Latch);
        if (P->getType()->isPointerTy())
          NextPtrAsCounter[NextV] = *Ptrs[P];
        else
          NextAsCounter[NextV] = Ints[P];
      }
      SubstLoop = L;
      ProvisionalByBlock.clear(); // guards read this iteration's values, those below the next's
      SubstFailed = false;
      SubstInts.clear();
      SymRef C = intOf(Br->getCondition());
      SubstLoop = nullptr;
      ProvisionalByBlock.clear();
      NextAsCounter.clear();
      NextPtrAsCounter.clear();
      SubstInts.clear();
      if (!OnTrue)
        C = notOf(C);
      if (!SubstFailed && (enteredOnlyWhen(L, Id, C) || entryGuardedBySCEV(L, *Br)))
        return C;
    }
    Continue = intOf(Br->getCondition());
    if (!OnTrue)
      Continue = notOf(Continue);
  } else if (Latch) {
    Continue = boolConstant(true);
  } else {
    return unknownOf(H->getTerminator(), "loop with several back edges");
  }
  // The running counter: a lane goes round again when it reaches the latch
  // (no break, return or other exit on the way) and the latch's test holds.
  LoopCounter Run;
  Run.Id = NextCounterId++;
  Run.Name = internalLoopFlagName(Out.Loops[Id].Where.Line);
  Run.Internal = true;
  for (const BasicBlock *E : Exiting)
    Run.LaneVarying |= A.UI.hasDivergentTerminator(*E);
  SymRef Leaf = SymExpr::loopVar(Run.Id, Run.Name, "whether " + Run.Name, Run.LaneVarying,
                                 IntType::boolean());
  Run.Init = boolConstant(true);
  // The leaf must exist before the reach of the latch is built: its guards
  // include the loop's condition, which is this counter.
  Out.Loops[Id].Cond = Leaf;
  ProvisionalByBlock.clear();
  Out.Loops[Id].LaneVarying |= Run.LaneVarying;
  Run.Next = andOf(reachFrom(H, Latch), Continue);
  Out.Loops[Id].Counters.push_back(Run);
  return Leaf;
}

/// Whether the loop is only entered by lanes for which C holds with the
/// counters at their start values: C is then a while condition.
bool IRTranslator::enteredOnlyWhen(const Loop *L, unsigned Id, const SymRef &C) {
  std::map<unsigned, SymRef> Start;
  for (const LoopCounter &LC : Out.Loops[Id].Counters)
    Start[LC.Id] = LC.Init;
  SymRef C0 = substitute(C, Start);
  if (C0->isConst())
    return C0->Value != 0;
  // The guards on the way in: the predecessor's, and its branch into the loop.
  const BasicBlock *Entry = L->getLoopPredecessor();
  if (!Entry)
    return false;
  std::vector<Guard> In = guardsOf(Entry);
  if (!Entry->getSingleSuccessor())
    In.push_back({edgeCondition(Entry, L->getHeader()), false, SourcePos(), GuardKind::If});
  SymRef Swapped = swapped(C0);
  for (const Guard &G : In) {
    SymRef V = guardValue(G);
    if (sameExpr(V, C0) || (Swapped && sameExpr(V, Swapped)))
      return true;
    // A conjunction entered as one guard (a && b) holds each part.
    for (SymRef Part = V; Part->Kind == ExprKind::Binary && Part->Op == Opcode::LAnd; Part = Part->Ops[0])
      if (sameExpr(Part->Ops[1], C0) || (Swapped && sameExpr(Part->Ops[1], Swapped)) ||
          sameExpr(Part->Ops[0], C0) || (Swapped && sameExpr(Part->Ops[0], Swapped)))
        return true;
  }
  return false;
}

bool IRTranslator::entryGuardedBySCEV(const Loop *L, const BranchInst &Latch) {
  const auto *Cmp = dyn_cast<ICmpInst>(Latch.getCondition());
  if (!Cmp)
    return false;
  CmpInst::Predicate Pred = Latch.getSuccessor(0) == L->getHeader() ? Cmp->getPredicate()
                                                                     : Cmp->getInversePredicate();
  for (unsigned K = 0; K < 2; ++K) {
    const Value *Next = Cmp->getOperand(K), *Bound = Cmp->getOperand(1 - K);
    if (!L->isLoopInvariant(Bound))
      continue;
    for (const PHINode &P : L->getHeader()->phis()) {
      if (P.getIncomingValueForBlock(Latch.getParent()) != Next || !L->getLoopPredecessor())
        continue;
      const Value *Start = P.getIncomingValueForBlock(L->getLoopPredecessor());
      CmpInst::Predicate Q = K == 0 ? Pred : CmpInst::getSwappedPredicate(Pred);
      const SCEV *S = A.SE.getSCEV(const_cast<Value *>(Start)), *B = A.SE.getSCEV(const_cast<Value *>(Bound));
      return A.SE.isKnownPredicate(Q, S, B) ||
             A.SE.isLoopEntryGuardedByCond(const_cast<Loop *>(L), Q, S, B);
    }
  }
  return false;
}

std::vector<unsigned> IRTranslator::loopsOf(const BasicBlock *BB) {
  std::vector<unsigned> Ids;
  for (const Loop *L = A.LI.getLoopFor(BB); L; L = L->getParentLoop())
    Ids.push_back(loopIdOf(L));
  std::reverse(Ids.begin(), Ids.end());
  return Ids;
}

// --- guards ------------------------------------------------------------------

const std::vector<Guard> &IRTranslator::guardsOf(const BasicBlock *BB) {
  auto It = Guards.find(BB);
  if (It != Guards.end())
    return It->second;
  if (auto P = ProvisionalByBlock.find(BB); P != ProvisionalByBlock.end()) {
    Provisional = true;
    return *P->second;
  }
  // Guards that read a loop condition still being built are a stand-in
  // while it is (its test reads values inside the loop): not kept.
  bool Outer = Provisional;
  Provisional = false;
  std::vector<Guard> G = computeGuards(BB);
  bool Mine = Provisional;
  Provisional = Outer || Mine;
  if (Mine)
    return *(ProvisionalByBlock[BB] = &ProvisionalGuards.emplace_back(std::move(G)));
  return Guards[BB] = std::move(G);
}

SymRef IRTranslator::reachFrom(const BasicBlock *Dom, const BasicBlock *BB) {
  const std::vector<Guard> &Outer = guardsOf(Dom);
  std::vector<Guard> Inner = guardsOf(BB); // a copy: guardsOf may grow the map
  size_t Skip = 0;
  if (Inner.size() >= Outer.size()) {
    Skip = Outer.size();
    for (size_t I = 0; I < Outer.size(); ++I)
      if (Inner[I].Cond != Outer[I].Cond || Inner[I].Negated != Outer[I].Negated) {
        Skip = 0;
        break;
      }
  }
  SymRef R = boolConstant(true);
  for (size_t I = Skip; I < Inner.size(); ++I)
    R = andOf(R, guardValue(Inner[I]));
  return R;
}

SymRef IRTranslator::edgeCondition(const BasicBlock *From, const BasicBlock *To) {
  const Instruction *T = From->getTerminator();
  if (const auto *Br = dyn_cast<BranchInst>(T)) {
    if (Br->isUnconditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
      return boolConstant(true);
    SymRef C = intOf(Br->getCondition());
    return Br->getSuccessor(0) == To ? C : notOf(C);
  }
  if (const auto *Sw = dyn_cast<SwitchInst>(T)) {
    SymRef V = intOf(Sw->getCondition());
    SymRef Hit = boolConstant(false), None = boolConstant(true);
    for (const auto &Case : Sw->cases()) {
      SymRef Eq = SymExpr::binary(Opcode::EQ, V, SymExpr::cast(intOf(Case.getCaseValue()), V->Type),
                                  IntType::boolean());
      if (Case.getCaseSuccessor() == To)
        Hit = orOf(Hit, Eq);
      None = andOf(None, notOf(Eq));
    }
    return Sw->getDefaultDest() == To ? orOf(Hit, None) : Hit;
  }
  return unknownOf(T, "control flow not modelled");
}

const BasicBlock *IRTranslator::liftOutOfLoops(const BasicBlock *P, const BasicBlock *BB,
                                               bool &ExitUnknown) {
  ExitUnknown = false;
  const Loop *Outermost = nullptr;
  for (const Loop *X = A.LI.getLoopFor(P); X && !X->contains(BB); X = X->getParentLoop())
    Outermost = X;
  if (!Outermost)
    return P;
  SmallVector<BasicBlock *, 4> Exits;
  Outermost->getUniqueExitBlocks(Exits);
  ExitUnknown = Exits.size() > 1;
  if (const BasicBlock *Pre = Outermost->getLoopPreheader())
    return Pre;
  return A.DT.getNode(Outermost->getHeader())->getIDom()->getBlock();
}

namespace {

/// How a guard reads to users: the other way out of the branch leaves the
/// loop (break), or goes to the function's end without coming back to this
/// side (early return), or rejoins it (if).
GuardKind kindOfEdge(const BasicBlock *From, const BasicBlock *To, const llvm::LoopInfo &LI,
                     const llvm::PostDominatorTree &PDT, IRLocations &Locs) {
  const auto *Br = dyn_cast<BranchInst>(From->getTerminator());
  if (!Br || !Br->isConditional())
    return isa<SwitchInst>(From->getTerminator()) ? GuardKind::Switch : GuardKind::If;
  // The source says which: `if (c) return;` and `if (!c) { rest }` are one
  // branch in the IR.
  if (const DILocation *DL = Br->getDebugLoc().get(); DL && !DL->getInlinedAt()) {
    clang::SourceLocation Loc;
    Locs.positionOf(DL, &Loc);
    std::string Jump = Locs.ifStatementJump(Loc);
    if (Jump == "return")
      return GuardKind::EarlyReturn;
    if (Jump == "break")
      return GuardKind::Break;
    if (Jump == "continue")
      return GuardKind::Continue;
    // A switch the compiler made a branch of (switch (tid / 32) { case 0: }).
    if (Locs.startsWithWord(Loc, "switch"))
      return GuardKind::Switch;
  }
  const BasicBlock *Other = Br->getSuccessor(0) == To ? Br->getSuccessor(1) : Br->getSuccessor(0);
  const Loop *L = LI.getLoopFor(From);
  if (L && !L->contains(Other) && L->contains(To))
    return GuardKind::Break;
  // The other side returns when it reaches the function's end on its own,
  // before any block this side also comes to.
  const BasicBlock *B = Other;
  for (unsigned Steps = 0; B && Steps < 4; ++Steps) {
    if (PDT.dominates(B, To))
      return GuardKind::If; // the two sides meet again
    if (isa<ReturnInst>(B->getTerminator()) || isa<UnreachableInst>(B->getTerminator()))
      return GuardKind::EarlyReturn;
    B = B->getSingleSuccessor();
  }
  return GuardKind::If;
}

} // namespace

/// Whether a lane that leaves Dom without coming to BB can only return:
/// the blocks it may run from there reach neither BB nor a barrier (a
/// return inside a loop, as the lanes still in the loop see it).
bool IRTranslator::onlyReturnsAway(const BasicBlock *Dom, const BasicBlock *BB) {
  SmallVector<const BasicBlock *, 16> Work(succ_begin(Dom), succ_end(Dom));
  SmallPtrSet<const BasicBlock *, 16> Seen;
  bool Returns = false;
  while (!Work.empty()) {
    const BasicBlock *X = Work.pop_back_val();
    if (X == BB || !Seen.insert(X).second)
      continue;
    if (Seen.size() > 64)
      return false;
    if (isPotentiallyReachable(X, BB, nullptr, &A.DT, &A.LI)) {
      Work.append(succ_begin(X), succ_end(X)); // on the way to BB still
      continue;
    }
    for (const Instruction &I : *X)
      if (const auto *C = dyn_cast<CallBase>(&I); C && C->isConvergent())
        return false; // a barrier, or a call that may hold one
    Returns |= isa<ReturnInst>(X->getTerminator());
    Work.append(succ_begin(X), succ_end(X));
  }
  return Returns;
}

IRTranslator::WayIn IRTranslator::wayIn(const BasicBlock *P, const BasicBlock *BB) {
  WayIn W{P, P, false, false};
  W.Node = liftOutOfLoops(P, BB, W.ExitUnknown);
  W.Lifted = W.Node != P;
  return W;
}

SymRef IRTranslator::wayCondition(const WayIn &W, const BasicBlock *BB) {
  if (!W.Lifted)
    return edgeCondition(W.Pred, BB);
  if (!W.ExitUnknown)
    return boolConstant(true);
  return unknownOf(W.Pred->getTerminator(), "which lanes leave the loop this way");
}

std::vector<Guard> IRTranslator::headerGuards(const BasicBlock *BB, const Loop *L) {
  unsigned Id = loopIdOf(L);
  const BasicBlock *Entry = L->getLoopPreheader();
  bool Unused = false;
  // Entered straight from another loop's exit (no preheader: a loop after
  // a loop), the way in is after that loop, whose test is no guard here.
  if (!Entry)
    Entry = liftOutOfLoops(A.DT.getNode(BB)->getIDom()->getBlock(), BB, Unused);
  std::vector<Guard> G = guardsOf(Entry);
  if (!Entry->getSingleSuccessor() && !L->getLoopPreheader()) {
    // Several ways in: joined like any merge.
    SymRef Any = boolConstant(false);
    for (const BasicBlock *P : predecessors(BB))
      if (!L->contains(P)) {
        WayIn W = wayIn(P, BB);
        Any = orOf(Any, andOf(reachFrom(Entry, W.Node), wayCondition(W, BB)));
      }
    if (!(Any->isConst() && Any->Value))
      G.push_back({Any, false, Out.Loops[Id].Where, GuardKind::If});
  }
  SymRef Cond = Out.Loops[Id].Cond;
  if (!Cond) {
    Provisional = true;
    Cond = unknownOf(BB->getTerminator(), "the condition of the loop at line " +
                                              std::to_string(Out.Loops[Id].Where.Line) + ", being built");
  }
  Guard LoopGuard{Cond, false, Out.Loops[Id].Where, GuardKind::Loop};
  setAgreement(LoopGuard, sameTripCount(L));
  G.push_back(LoopGuard);
  return G;
}

std::vector<Guard> IRTranslator::oneWayGuards(const BasicBlock *BB, const WayIn &W) {
  std::vector<Guard> G = guardsOf(W.Node);
  SymRef E = wayCondition(W, BB);
  if (E->isConst() && E->Value)
    return G;
  Guard New{E, false, Locs.positionOf(W.Pred->getTerminator()->getDebugLoc().get()), GuardKind::If};
  if (!W.Lifted) {
    New.Kind = kindOfEdge(W.Pred, BB, A.LI, A.PDT, Locs);
    // Keep the branch's own condition, negated when BB is its else side.
    if (const auto *Br = dyn_cast<BranchInst>(W.Pred->getTerminator()); Br && Br->isConditional()) {
      New.Cond = intOf(Br->getCondition());
      New.Negated = Br->getSuccessor(0) != BB;
      setAgreement(New, agrees(Br->getCondition()));
    }
  }
  // A conjunction is a guard per part (a && b: each a threshold).
  std::vector<SymRef> Parts{New.Negated ? notOf(New.Cond) : New.Cond};
  if (!(Parts[0]->Kind == ExprKind::Binary && Parts[0]->Op == Opcode::LAnd)) {
    G.push_back(New);
    return G;
  }
  for (size_t K = 0; K < Parts.size();) {
    if (Parts[K]->Kind == ExprKind::Binary && Parts[K]->Op == Opcode::LAnd && Parts.size() < 16) {
      SymRef L = Parts[K]->Ops[0], R = Parts[K]->Ops[1];
      Parts[K] = L;
      Parts.insert(Parts.begin() + long(K) + 1, R);
    } else {
      ++K;
    }
  }
  for (const SymRef &P : Parts)
    G.push_back({P, false, New.Where, New.Kind, New.BlockUniform, New.IfLaneRows});
  return G;
}

std::vector<Guard> IRTranslator::computeGuards(const BasicBlock *BB) {
  if (BB == &F.getEntryBlock() || !A.DT.isReachableFromEntry(BB))
    return {};
  if (const Loop *L = A.LI.getLoopFor(BB); L && L->getHeader() == BB)
    return headerGuards(BB, L);
  std::vector<WayIn> Ins;
  for (const BasicBlock *P : predecessors(BB))
    if (A.DT.isReachableFromEntry(P))
      Ins.push_back(wayIn(P, BB));
  if (Ins.size() == 1 || std::all_of(Ins.begin(), Ins.end(), [&](const WayIn &W) {
        return W.Node == Ins[0].Node && W.Lifted && !W.ExitUnknown;
      }))
    return oneWayGuards(BB, Ins[0]);
  // Several ways in: the guards of the dominator, and whether one is taken.
  const BasicBlock *Dom = A.DT.getNode(BB)->getIDom()->getBlock();
  bool Unused = false;
  Dom = liftOutOfLoops(Dom, BB, Unused);
  std::vector<Guard> G = guardsOf(Dom);
  if (A.PDT.dominates(BB, Dom))
    return G; // every lane that ran Dom gets here
  SymRef Any = boolConstant(false);
  for (const WayIn &W : Ins)
    Any = orOf(Any, andOf(reachFrom(Dom, W.Node), wayCondition(W, BB)));
  if (!(Any->isConst() && Any->Value))
    G.push_back({Any, false, Locs.positionOf(Dom->getTerminator()->getDebugLoc().get()),
                 onlyReturnsAway(Dom, BB) ? GuardKind::EarlyReturn : GuardKind::Reached});
  return G;
}

// --- merges ------------------------------------------------------------------

SymRef IRTranslator::phiOf(const PHINode &P) {
  const BasicBlock *BB = P.getParent();
  const Loop *L = A.LI.getLoopFor(BB);
  if (L && L->getHeader() == BB) {
    if (SubstLoop == L)
      SubstFailed = true; // the test reads this iteration's values
    loopIdOf(L);
    auto It = Ints.find(&P);
    if (It != Ints.end())
      return It->second;
    return unknownOf(&P, "value carried around the loop at line " + std::to_string(Locs.positionOf(L->getStartLoc().get()).Line));
  }
  IntType T = P.getType()->getIntegerBitWidth() == 1 ? IntType::boolean()
                                                    : IntType{P.getType()->getIntegerBitWidth(), true};
  if (SubstLoop) {
    SubstFailed = true; // a merge inside the loop: not written over the next values
    return unknownOf(&P, "merge");
  }
  // A value leaving a loop: its last iteration's, not known here.
  for (unsigned K = 0; K < P.getNumIncomingValues(); ++K) {
    const auto *I = dyn_cast<Instruction>(P.getIncomingValue(K));
    const BasicBlock *From = P.getIncomingBlock(K);
    for (const Loop *X = A.LI.getLoopFor(From); X && !X->contains(BB); X = X->getParentLoop())
      if (I && X->contains(I))
        return unknownOf(&P, "the value of a loop's last iteration (loop at line " +
                                 std::to_string(Locs.positionOf(X->getStartLoc().get()).Line) + ")");
  }
  return gatedSelect(P, [&](const Value *V) { return SymExpr::cast(intOf(V), T); }, T);
}

/// A phi of a merge as selects on the ways into its block.
SymRef IRTranslator::gatedSelect(const PHINode &P, const std::function<SymRef(const Value *)> &ValueOf,
                                 IntType T) {
  const BasicBlock *BB = P.getParent();
  const BasicBlock *Dom = A.DT.getNode(BB)->getIDom()->getBlock();
  bool Unused = false;
  Dom = liftOutOfLoops(Dom, BB, Unused);
  // An undefined value on a way in (a variable set only on some paths)
  // may be any value, so it may be another way's: the ways that define it.
  std::vector<unsigned> Ways;
  for (unsigned K = 0; K < P.getNumIncomingValues(); ++K)
    if (!isa<UndefValue>(P.getIncomingValue(K)))
      Ways.push_back(K);
  if (Ways.empty())
    for (unsigned K = 0; K < P.getNumIncomingValues(); ++K)
      Ways.push_back(K);
  unsigned N = unsigned(Ways.size());
  // The same value on every way in (what PRE leaves: one expression
  // computed on each path) needs no select.
  std::vector<SymRef> Values;
  for (unsigned K : Ways)
    Values.push_back(ValueOf(P.getIncomingValue(K)));
  if (std::all_of(Values.begin(), Values.end(), [&](const SymRef &V) { return sameExpr(V, Values[0]); }))
    return Values[0];
  SymRef V = Values[N - 1];
  for (unsigned K = N - 1; K-- > 0;) {
    const BasicBlock *From = P.getIncomingBlock(Ways[K]);
    bool ExitUnknown = false;
    const BasicBlock *Node = liftOutOfLoops(From, BB, ExitUnknown);
    SymRef Edge = Node == From ? edgeCondition(From, BB)
                  : ExitUnknown ? unknownOf(From->getTerminator(), "which lanes leave the loop this way")
                                : boolConstant(true);
    SymRef C = andOf(reachFrom(Dom, Node), Edge);
    V = selectOf(C, Values[K], V, T);
  }
  return V;
}

std::optional<IRPointer> IRTranslator::pointerPhiOf(const PHINode &P) {
  const BasicBlock *BB = P.getParent();
  const Loop *L = A.LI.getLoopFor(BB);
  if (L && L->getHeader() == BB) {
    if (SubstLoop == L)
      SubstFailed = true;
    loopIdOf(L);
    auto It = Ptrs.find(&P);
    if (It != Ptrs.end())
      return It->second;
    return std::nullopt;
  }
  if (SubstLoop) {
    SubstFailed = true;
    return std::nullopt;
  }
  std::optional<IRPointer> First;
  for (unsigned K = 0; K < P.getNumIncomingValues(); ++K) {
    if (isa<UndefValue>(P.getIncomingValue(K)))
      continue; // any pointer: gatedSelect takes another way's
    auto Q = ptrOf(P.getIncomingValue(K));
    if (!Q || (First && (Q->Shared != First->Shared || Q->ArrayId != First->ArrayId || Q->Base != First->Base)))
      return std::nullopt;
    if (!First)
      First = Q;
  }
  if (!First)
    return std::nullopt;
  IRPointer R = *First;
  R.Offset = gatedSelect(P, [&](const Value *V) {
    auto Q = ptrOf(V);
    R.LayoutExact &= Q->LayoutExact;
    return SymExpr::cast(Q->Offset, IntType::i64());
  }, IntType::i64());
  return R;
}

} // namespace cbl
