//===- ControlFlowWalker.cpp - Conditions, loops and switches -------------===//
//
// The control-flow half of FunctionWalker: if/else and ?: merge values with
// Select so straight-line code under conditions stays exact; early exits
// narrow what follows; loops get their counters (LoopInfo) for the symbolic
// layer to enumerate, after a dry walk decides which locals stay uniform;
// switch cases are guards on the condition's value.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"
#include "WalkerSupport.h"

#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;

namespace cbl {

bool leavesEarly(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    unsigned Nested = 0;
    bool TraverseForStmt(ForStmt *S) { return nested(S); }
    bool TraverseWhileStmt(WhileStmt *S) { return nested(S); }
    bool TraverseDoStmt(DoStmt *S) { return nested(S); }
    bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) { return nested(S); }
    bool TraverseSwitchStmt(SwitchStmt *S) { // a continue in it still leaves
      ++InSwitch;
      for (Stmt *Child : S->children())
        TraverseStmt(Child);
      --InSwitch;
      return !Found;
    }
    unsigned InSwitch = 0;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool nested(Stmt *S) {
      ++Nested;
      for (Stmt *Child : S->children())
        TraverseStmt(Child);
      --Nested;
      return !Found;
    }
    bool VisitBreakStmt(BreakStmt *) { Found |= Nested == 0 && InSwitch == 0; return !Found; }
    bool VisitContinueStmt(ContinueStmt *S) {
      Found |= Nested == 0;
      return !Found;
    }
    bool VisitReturnStmt(ReturnStmt *) { Found = true; return false; }
    bool VisitGotoStmt(GotoStmt *) { Found = true; return false; }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

static bool isAtomicCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  return N.starts_with("atomic") || N.starts_with("__atomic") || N.starts_with("__nv_atomic") ||
         (isa<CXXMethodDecl>(FD) && (N.starts_with("compare_exchange") || N.starts_with("fetch_")));
}

bool callsAtomic(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *C) {
      Found |= isAtomicCall(C);
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// A retry loop: it goes round again depending on what an atomic returned
/// (while (old != assumed) { ... old = atomicCAS(...); }, spin locks). Its
/// lanes leave it at different times, and nvcc's convergence barrier after
/// such a loop (BSSY/BSYNC with YIELD inside) does not hold them: measured on
/// an H100, the code after it, and the next iterations of an enclosing loop,
/// run in fragments of a few lanes until the next block barrier.
static bool isRetryLoop(const Expr *Cond, const Stmt *Body, bool VaryingExit) {
  if (!Body)
    return false;
  if (Cond && callsAtomic(Cond))
    return true;
  // Locals the body sets from an atomic's result.
  struct Assigned : RecursiveASTVisitor<Assigned> {
    llvm::SmallPtrSet<const VarDecl *, 4> Vars;
    void note(const Expr *LHS, const Expr *RHS) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (callsAtomic(RHS))
            Vars.insert(VD);
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp())
        note(BO->getLHS(), BO->getRHS());
      return true;
    }
  } A;
  A.TraverseStmt(const_cast<Stmt *>(Body));
  struct Reads : RecursiveASTVisitor<Reads> {
    const llvm::SmallPtrSet<const VarDecl *, 4> &Vars;
    bool Found = false;
    explicit Reads(const llvm::SmallPtrSet<const VarDecl *, 4> &V) : Vars(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Found |= Vars.count(VD) != 0;
      return !Found;
    }
  } R(A.Vars);
  if (Cond)
    R.TraverseStmt(const_cast<Expr *>(Cond));
  return R.Found || (VaryingExit && callsAtomic(Body));
}

void FunctionWalker::mergeEnvs(const SymRef &Cond, const Env &Then, const Env &Else,
                               bool ThenLive, bool ElseLive) {
  if (!ThenLive) {
    Vars = Else;
    return;
  }
  if (!ElseLive) {
    Vars = Then;
    return;
  }
  // Values that differ between the branches become selects on Cond;
  // pointers and references must at least stay in the same array.
  auto MergeInts = [&](const auto &A, const auto &B, auto &Into) {
    for (const auto &KV : A) {
      auto It = B.find(KV.first);
      if (It == B.end())
        continue; // declared in one branch only: out of scope after it
      Into[KV.first] = KV.second == It->second
                           ? KV.second
                           : SymExpr::select(Cond, KV.second, It->second, KV.second->Type);
    }
  };
  auto MergePtrs = [&](const auto &A, const auto &B, auto &Into) {
    for (const auto &KV : A) {
      auto It = B.find(KV.first);
      if (It == B.end() || It->second.ArrayId != KV.second.ArrayId)
        continue;
      SharedLoc L = KV.second;
      if (L.ByteOffset != It->second.ByteOffset)
        L.ByteOffset = SymExpr::select(Cond, KV.second.ByteOffset, It->second.ByteOffset,
                                       IntType::i64());
      Into[KV.first] = L;
    }
  };
  auto MergeRefs = [&](const auto &A, const auto &B, auto &Into) {
    for (const auto &KV : A) {
      auto It = B.find(KV.first);
      if (It != B.end() && It->second.ArrayId == KV.second.ArrayId &&
          It->second.ByteOffset == KV.second.ByteOffset)
        Into[KV.first] = KV.second;
    }
  };
  auto MergeEqual = [](const auto &A, const auto &B, auto &Into) {
    for (const auto &KV : A) {
      auto It = B.find(KV.first);
      if (It != B.end() && It->second == KV.second)
        Into.insert(KV);
    }
  };
  Env M;
  MergeInts(Then.Ints, Else.Ints, M.Ints);
  MergePtrs(Then.Ptrs, Else.Ptrs, M.Ptrs);
  MergeRefs(Then.Refs, Else.Refs, M.Refs);
  MergeRefs(Then.SharedAddrs, Else.SharedAddrs, M.SharedAddrs);
  MergeRefs(Then.AtomicRefs, Else.AtomicRefs, M.AtomicRefs);
  MergeEqual(Then.ObjectVars, Else.ObjectVars, M.ObjectVars);
  M.Temporaries = Then.Temporaries;
  for (const auto &KV : Else.Temporaries)
    M.Temporaries.insert(KV);
  // Objects have unique ids: one made in a single branch is kept as it is.
  M.Objects = Then.Objects;
  for (const auto &[Id, E] : Else.Objects) {
    auto It = M.Objects.find(Id);
    if (It == M.Objects.end()) {
      M.Objects.emplace(Id, E);
      continue;
    }
    const ObjectState T = It->second;
    ObjectState &O = It->second;
    O = ObjectState();
    MergeInts(T.Ints, E.Ints, O.Ints);
    MergePtrs(T.Ptrs, E.Ptrs, O.Ptrs);
    MergeRefs(T.Refs, E.Refs, O.Refs);
    MergeEqual(T.Members, E.Members, O.Members);
  }
  Vars = std::move(M);
}

void FunctionWalker::exitPath(GuardKind What, SourceLocation Where) {
  bool Varying = false;
  for (const Guard &G : currentGuards())
    Varying |= isThreadVarying(G.Cond);
  // A return inside a helper walked in place (inlineCall) ends the helper,
  // not the caller's loops.
  if (What == GuardKind::EarlyReturn && !InlineStack.empty()) {
    Alive = SymExpr::constant(0, IntType::boolean());
    return;
  }
  // A continue does not leave the loop: the thread is back next iteration.
  if (Varying && LoopDepth > 0 && What != GuardKind::Continue)
    ExitedUnderVaryingGuard = true;
  if (Varying)
    Exits.push_back({What, pos(Where)});
  Alive = SymExpr::constant(0, IntType::boolean());
}

void FunctionWalker::walkBranch(const Stmt *S, SymRef Cond, bool Negated, GuardKind Kind,
                                SourceLocation Where) {
  SymRef Outer = Alive;
  bool PushedOuter = !isTrue(Outer);
  if (PushedOuter)
    Path.push_back(reachedGuard(Outer));
  Path.push_back(Guard{Cond, Negated, pos(Where), Kind});
  Alive = trueValue();
  ++Region;
  if (S)
    walkStmt(S);
  ++Region;
  Path.pop_back();
  if (PushedOuter)
    Path.pop_back();
}

void FunctionWalker::walkIf(const IfStmt *If) {
  if (If->getInit())
    walkStmt(If->getInit());
  if (const DeclStmt *DS = If->getConditionVariableDeclStmt())
    walkStmt(DS);
  if (If->isConsteval()) {
    walkStmt(If->getElse() ? If->getElse() : nullptr);
    return;
  }
  visit(If->getCond());
  SymRef C = boolOf(If->getCond());
  SymRef Outer = Alive;
  Env Before = Vars;
  walkBranch(If->getThen(), C, false, GuardKind::If, If->getIfLoc());
  Env Then = Vars;
  SymRef AliveThen = Alive;
  Vars = Before;
  Alive = trueValue();
  if (If->getElse())
    walkBranch(If->getElse(), C, true, GuardKind::Else, If->getElseLoc());
  SymRef AliveElse = Alive;
  mergeEnvs(C, Then, Vars, !isFalse(AliveThen), !isFalse(AliveElse));
  SymRef Survive;
  if (isTrue(AliveThen) && isTrue(AliveElse))
    Survive = trueValue();
  else
    Survive = SymExpr::select(C, AliveThen ? AliveThen : trueValue(),
                              AliveElse ? AliveElse : trueValue(), IntType::boolean());
  Alive = andOf(Outer, Survive);
}

void FunctionWalker::walkLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
                              const Expr *Inc, const Stmt *Body, bool CondFirst) {
  // A loop body is a block of its own; so is the code after the loop.
  struct RegionBump {
    unsigned &R;
    explicit RegionBump(unsigned &R) : R(++R) {}
    ~RegionBump() { ++R; }
  } Bump(Region);
  if (Init)
    walkStmt(Init);
  AssignedVars AV;
  AV.TraverseStmt(const_cast<Stmt *>(Body));
  if (Cond)
    AV.TraverseStmt(const_cast<Expr *>(Cond));
  if (Inc)
    AV.TraverseStmt(const_cast<Expr *>(Inc));
  AV.dropDeclared();

  // Which modified locals stay warp-uniform? Start from "uniform unless the
  // value before the loop varies" and walk the body dry until stable.
  llvm::DenseMap<const VarDecl *, bool> Varying;
  for (const VarDecl *VD : AV.Vars) {
    auto It = Vars.Ints.find(VD);
    Varying[VD] = It != Vars.Ints.end() && isThreadVarying(It->second);
  }
  unsigned Line = pos(Loop->getBeginLoc()).Line;
  auto Bind = [&]() {
    for (const VarDecl *VD : AV.Vars) {
      if (VD->getType()->isPointerType()) {
        Vars.Ptrs.erase(VD);
        continue;
      }
      if (!VD->getType()->isIntegralOrEnumerationType()) {
        if (VD->getType()->isScalarType())
          Vars.Ints[VD] = uniformityMarker(VD, Varying[VD]);
        continue;
      }
      std::string N = VD->getNameAsString();
      std::string Why = "'" + N + "' changes in the loop at line " + std::to_string(Line);
      Vars.Ints[VD] = Varying[VD] ? SymExpr::varying(N, Why, intTypeOf(VD->getType()))
                                  : SymExpr::uniform(N, Why, intTypeOf(VD->getType()));
    }
    // Members of objects changed in the loop are not tracked through it.
    for (const FieldDecl *FD : AV.Fields)
      for (auto &KV : Vars.Objects) {
        KV.second.Ints.erase(FD);
        KV.second.Ptrs.erase(FD);
      }
  };
  Env Before = Vars;
  std::vector<Guard> PathBefore = Path;
  SymRef AliveBefore = Alive;
  bool WasRecording = Recording;
  bool VaryingExit = false;
  bool OuterExited = ExitedUnderVaryingGuard;
  const std::string SplitAtEntry = MaySplit;
  std::string SplitAtEnd; // after an iteration (seen in the dry walk)
  size_t ExitsBefore = Exits.size();
  bool Converged = false;
  for (unsigned Round = 0; Round < 8; ++Round) {
    Vars = Before;
    Bind();
    Recording = false;
    DryLoops.emplace_back();
    DryLoops.back().PathBase = Path.size();
    DryLoops.back().AliveBase = Alive;
    ExitedUnderVaryingGuard = false;
    Exits.resize(ExitsBefore);
    MaySplit = SplitAtEntry;
    ++LoopDepth;
    SymRef C = Cond ? boolOf(Cond) : trueValue();
    walkBranch(Body, C, false, GuardKind::Loop, Loop->getBeginLoc());
    Alive = AliveBefore; // a continue still runs the increment
    if (Inc)
      visit(Inc);
    --LoopDepth;
    VaryingExit = ExitedUnderVaryingGuard;
    SplitAtEnd = MaySplit;
    const auto Assigned = std::move(DryLoops.back().Assigned);
    DryLoops.pop_back();
    bool Changed = false;
    for (auto &KV : Assigned)
      if (KV.second && !Varying[KV.first]) {
        Varying[KV.first] = true;
        Changed = true;
      }
    if (!Changed) {
      Converged = true;
      break;
    }
  }
  Recording = WasRecording;
  Path = PathBefore;
  Alive = AliveBefore;
  // The exits that leave the loop (seen in the dry walk), for diagnostics.
  std::vector<ExitSite> Leaving;
  for (size_t I = ExitsBefore; I < Exits.size(); ++I)
    if (Exits[I].Kind != GuardKind::Continue)
      Leaving.push_back(Exits[I]);
  Exits.resize(ExitsBefore);
  bool VaryingReturn = llvm::any_of(Leaving, [](const ExitSite &E) { return E.Kind == GuardKind::EarlyReturn; });
  std::string LeaveText;
  GuardKind LeaveKind = GuardKind::Loop;
  SourcePos LeaveWhere = pos(Loop->getBeginLoc());
  if (!Leaving.empty()) {
    const bool Return = Leaving.front().Kind == GuardKind::EarlyReturn;
    LeaveText = std::string(" (the ") + (Return ? "return" : "break") + " at line " +
                std::to_string(Leaving.front().Where.Line) + ")";
    LeaveWhere = Leaving.front().Where;
    LeaveKind = VaryingReturn && llvm::all_of(Leaving, [](const ExitSite &E) {
                  return E.Kind == GuardKind::EarlyReturn;
                })
                    ? GuardKind::EarlyReturn
                    : GuardKind::Break;
  }

  // The loop's counters become LoopVars so the symbolic layer can enumerate
  // the iterations: every loop-carried integer when the body always reaches
  // its end, else only an integer that just the increment expression updates.
  std::vector<const VarDecl *> Counters;
  if (Recording && Out && CondFirst) {
    AssignedVars IncVars, BodyVars;
    if (Inc)
      IncVars.TraverseStmt(const_cast<Expr *>(Inc));
    BodyVars.TraverseStmt(const_cast<Stmt *>(Body));
    if (!leavesEarly(Body)) {
      for (const VarDecl *VD : AV.Vars)
        if (VD->getType()->isIntegralOrEnumerationType() && Before.Ints.count(VD))
          Counters.push_back(VD);
    } else if (IncVars.Vars.size() == 1 &&
               IncVars.Vars[0]->getType()->isIntegralOrEnumerationType() &&
               llvm::find(BodyVars.Vars, IncVars.Vars[0]) == BodyVars.Vars.end() &&
               Before.Ints.count(IncVars.Vars[0])) {
      Counters.push_back(IncVars.Vars[0]);
    }
  }

  // The real walk: one generic iteration with the counters as unknowns.
  Vars = Before;
  Bind();
  LoopInfo Info;
  for (const VarDecl *VD : Counters) {
    LoopCounter LC;
    LC.Id = NextCounterId++;
    LC.Name = VD->getNameAsString();
    LC.LaneVarying = Varying[VD];
    LC.Init = Before.Ints[VD];
    Vars.Ints[VD] = SymExpr::loopVar(LC.Id, LC.Name,
                                     "'" + LC.Name + "' changes in the loop at line " + std::to_string(Line),
                                     LC.LaneVarying, intTypeOf(VD->getType()));
    Info.LaneVarying |= LC.LaneVarying;
    Info.Counters.push_back(LC);
  }
  if (Cond)
    visit(Cond);
  SymRef C = Cond ? boolOf(Cond) : trueValue();
  if (!Counters.empty()) {
    Info.Id = unsigned(Out->Loops.size());
    Info.Where = pos(Loop->getBeginLoc());
    Info.Cond = C;
    Out->Loops.push_back(Info);
    LoopStack.push_back(Info.Id);
  }
  // Lanes split at the end of an iteration start the next one apart.
  MaySplit = SplitAtEnd.empty() ? SplitAtEntry : SplitAtEnd;
  if (!Recording && Converged) {
    // Inside an enclosing loop's dry walk the last round was this walk
    // already (same bindings, nothing recorded, the state after it dropped
    // below): walking the body again would double the work at each level
    // of nesting. What outlives it is replayed: the returns it leaves by,
    // and, when some lanes may have left the loop in an earlier iteration,
    // every variable it assigns as possibly differing between threads for
    // the enclosing loops.
    for (const ExitSite &E : Leaving)
      if (E.Kind == GuardKind::EarlyReturn)
        Exits.push_back(E);
    if (VaryingExit)
      for (DryLoop &L : DryLoops)
        for (const VarDecl *VD : AV.Vars)
          if (VD->getType()->isScalarType() && !VD->getType()->isPointerType())
            L.Assigned[VD] = true;
  } else {
    if (VaryingExit)
      Path.push_back(Guard{SymExpr::varying("early exit", "some threads may have left the loop at line " +
                                                              std::to_string(Line) + LeaveText +
                                                              " in an earlier iteration",
                                            IntType::boolean()),
                           false, LeaveWhere, LeaveKind});
    ++LoopDepth;
    walkBranch(Body, CondFirst ? C : trueValue(), false, GuardKind::Loop, Loop->getBeginLoc());
    SymRef AliveAfterIteration = Alive;
    Alive = AliveBefore; // a continue still runs the increment
    if (Inc)
      visit(Inc);
    Alive = AliveAfterIteration;
    --LoopDepth;
    if (!Counters.empty()) {
      // Each counter's value at the end of the iteration, from this walk.
      LoopInfo &Done = Out->Loops[LoopStack.back()];
      for (size_t I = 0; I < Counters.size(); ++I) {
        auto It = Vars.Ints.find(Counters[I]);
        Done.Counters[I].Next = It == Vars.Ints.end() ? nullptr : It->second;
      }
      LoopStack.pop_back();
    }
    if (VaryingExit)
      Path.pop_back();
  }
  // break/continue end with the loop; returns keep narrowing what follows.
  Exits.erase(std::remove_if(Exits.begin() + ExitsBefore, Exits.end(),
                             [](const ExitSite &E) { return E.Kind != GuardKind::EarlyReturn; }),
              Exits.end());
  ExitedUnderVaryingGuard = OuterExited || VaryingReturn;
  if (MaySplit.empty())
    MaySplit = SplitAtEntry; // the loop may not run at all
  if ((isThreadVarying(C) || VaryingExit) && isRetryLoop(Cond, Body, VaryingExit))
    noteRetryLoop(Loop);
  // After the loop the counters keep unknown values, unless the loop runs on
  // constants alone; threads that returned inside it are gone.
  std::optional<std::vector<SymRef>> Final;
  if (!Counters.empty() && Leaving.empty() && !VaryingExit)
    Final = valuesAfter(Out->Loops[Info.Id]);
  Vars = Before;
  Bind();
  if (Final)
    for (size_t I = 0; I < Counters.size(); ++I)
      Vars.Ints[Counters[I]] = (*Final)[I];
  Alive = AliveBefore;
  if (VaryingReturn)
    Alive = andOf(Alive, SymExpr::varying("loop exit", "some threads may have returned inside the loop at line " +
                                                           std::to_string(Line) + LeaveText,
                                          IntType::boolean()));
}

namespace {

/// E with the loop counters replaced by the constants in Values; null when
/// E reads anything else (a thread index, an unknown, another loop's counter).
SymRef onConstants(const SymRef &E, const std::map<unsigned, SymRef> &Values, unsigned Depth = 0) {
  if (!E || Depth > 200)
    return nullptr;
  switch (E->Kind) {
  case ExprKind::Const:
    return E;
  case ExprKind::LoopVar: {
    auto It = Values.find(E->LoopId);
    return It == Values.end() ? nullptr : It->second;
  }
  case ExprKind::Unary:
  case ExprKind::Binary:
  case ExprKind::Select:
  case ExprKind::Cast:
  case ExprKind::Call: {
    std::vector<SymRef> Ops;
    for (const SymRef &Op : E->Ops) {
      Ops.push_back(onConstants(Op, Values, Depth + 1));
      if (!Ops.back() || !Ops.back()->isConst())
        return nullptr;
    }
    SymRef R = withOperands(E, Ops);
    return R && R->isConst() ? R : nullptr;
  }
  default:
    return nullptr;
  }
}

} // namespace

std::optional<std::vector<SymRef>> FunctionWalker::valuesAfter(const LoopInfo &L) const {
  // Every counter starts at a constant; the condition and the updates read
  // only the counters: run the loop on constants (a counted loop's counters
  // after it, as `offset` after a scan's up-sweep).
  constexpr unsigned MaxTrips = 4096;
  std::map<unsigned, SymRef> Values;
  for (const LoopCounter &LC : L.Counters) {
    if (!LC.Init || !LC.Init->isConst() || !LC.Next || LC.LaneVarying)
      return std::nullopt;
    Values[LC.Id] = LC.Init;
  }
  for (unsigned Trip = 0; Trip <= MaxTrips; ++Trip) {
    SymRef Go = onConstants(L.Cond, Values);
    if (!Go)
      return std::nullopt;
    if (Go->Value == 0) {
      std::vector<SymRef> Out;
      for (const LoopCounter &LC : L.Counters)
        Out.push_back(Values[LC.Id]);
      return Out;
    }
    std::map<unsigned, SymRef> Next;
    for (const LoopCounter &LC : L.Counters)
      if (!(Next[LC.Id] = onConstants(LC.Next, Values)))
        return std::nullopt;
    Values = std::move(Next);
  }
  return std::nullopt;
}

const Stmt *findRetryLoop(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt *Found = nullptr;
    bool check(const Stmt *L, const Expr *Cond, const Stmt *Body) {
      if (!Found && isRetryLoop(Cond, Body, false))
        Found = L;
      return !Found;
    }
    bool VisitWhileStmt(WhileStmt *W) { return check(W, W->getCond(), W->getBody()); }
    bool VisitDoStmt(DoStmt *D) { return check(D, D->getCond(), D->getBody()); }
    bool VisitForStmt(ForStmt *F) { return check(F, F->getCond(), F->getBody()); }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

void FunctionWalker::noteRetryLoop(const Stmt *Loop) {
  SourcePos P = pos(Loop->getBeginLoc());
  MaySplit = "the lanes of a warp may run it apart: they leave the atomic retry loop at " +
             llvm::sys::path::filename(P.File).str() + ":" + std::to_string(P.Line) +
             " at different times and do not run together again before the next block barrier";
}

void FunctionWalker::walkSwitch(const SwitchStmt *Sw) {
  ++Region;
  if (Sw->getInit())
    walkStmt(Sw->getInit());
  if (const DeclStmt *DS = Sw->getConditionVariableDeclStmt())
    walkStmt(DS);
  visit(Sw->getCond());
  SymRef C = intOf(Sw->getCond());
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  if (!Body) {
    walkBranch(Sw->getBody(), SymExpr::varying("switch", "unstructured switch", IntType::boolean()),
               false, GuardKind::Switch, Sw->getSwitchLoc());
    return;
  }
  // All case values, for the condition of 'default'.
  SymRef NotAnyCase = trueValue();
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase())
    if (const auto *CS = dyn_cast<CaseStmt>(SC))
      NotAnyCase = andOf(NotAnyCase, SymExpr::binary(Opcode::NE, C, SymExpr::cast(intOf(CS->getLHS()), C->Type),
                                                     IntType::boolean()));
  SymRef Outer = Alive;
  Env Before = Vars;
  size_t ExitsBefore = Exits.size();
  // Reach: the threads executing the current statement of the switch body.
  SymRef Reach = SymExpr::constant(0, IntType::boolean());
  for (const Stmt *S : Body->body()) {
    while (const auto *SC = dyn_cast<SwitchCase>(S)) {
      SymRef Hit = isa<DefaultStmt>(SC)
                       ? NotAnyCase
                       : SymExpr::binary(Opcode::EQ, C,
                                         SymExpr::cast(intOf(cast<CaseStmt>(SC)->getLHS()), C->Type),
                                         IntType::boolean());
      Reach = isFalse(Reach) ? Hit : SymExpr::binary(Opcode::LOr, Reach, Hit, IntType::boolean());
      S = SC->getSubStmt();
    }
    if (isa<BreakStmt>(S)) {
      Reach = SymExpr::constant(0, IntType::boolean());
      continue;
    }
    Vars = Before; // values assigned in cases do not flow into others here
    walkBranch(S, Reach, false, GuardKind::Switch, S->getBeginLoc());
    if (isFalse(Alive))
      Reach = SymExpr::constant(0, IntType::boolean());
  }
  // Values assigned inside the switch are unknown afterwards.
  Env After = Before;
  for (auto &KV : Vars.Ints)
    if (!Before.Ints.count(KV.first) || Before.Ints[KV.first] != KV.second)
      After.Ints.erase(KV.first);
  Vars = After;
  Alive = Outer;
  // A break inside the switch ends with it.
  Exits.erase(std::remove_if(Exits.begin() + ExitsBefore, Exits.end(),
                             [](const ExitSite &E) { return E.Kind == GuardKind::Break; }),
              Exits.end());
}

} // namespace cbl
