//===- LoopEnumeration.cpp - Run the loops around an access ---------------===//
//
// Pass 2 of WarpAnalysis (and its bound variant): the loops enclosing an
// access are run iteration by iteration for every lane of one warp, with
// SIMT semantics (a lane that left a loop stays out), and each iteration is
// a case of the verdict. Bounded: distinct iterations per loop, warp
// evaluations per access, repeated iterations (counted, not evaluated).
//
//===----------------------------------------------------------------------===//
#include "WarpPasses.h"
#include "SymbolicText.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>

namespace cbl::warp {

namespace {

/// What a reason calls a counter's start or update: "the update of 'j' in
/// the loop at line 9", "... of a value ..." without a name; the flag of a
/// loop with several exits is no variable of the program: "whether a lane
/// runs another iteration of the loop at line 8".
std::string counterPart(const LoopCounter &LC, bool Start, unsigned Line) {
  std::string InLoop = "the loop at line " + std::to_string(Line);
  if (LC.Internal)
    return "whether " + internalLoopFlagName(Line);
  return std::string(Start ? "the start of " : "the update of ") +
         (LC.Name.empty() ? "a value" : "'" + LC.Name + "'") + " in " + InLoop;
}

void noteCounters(const SymRef &E, std::set<unsigned> &Ids) {
  if (E)
    addLoopCounters(*E, Ids);
}

/// Grows Ids (counter ids) by the counters that the updates (and, with
/// Starts, the start values) of the counters in Ids read, until stable.
void closeOverCounters(std::set<unsigned> &Ids, const std::vector<const LoopInfo *> &Loops,
                       bool Starts) {
  for (size_t Before = 0; Before != Ids.size();) {
    Before = Ids.size();
    for (const LoopInfo *L : Loops)
      for (const LoopCounter &LC : L->Counters)
        if (Ids.count(LC.Id)) {
          noteCounters(LC.Next, Ids);
          if (Starts)
            noteCounters(LC.Init, Ids);
        }
  }
}

/// Which counters of loop L (by position) the cost of an iteration depends
/// on: those in the address or the guards, and those their updates read.
std::vector<bool> relevantCounters(const Context &C, const LoopInfo &L) {
  std::set<unsigned> Ids;
  noteCounters(C.A.ByteOffset, Ids);
  // L's own condition guards its body; which lanes pass it is the state's
  // active mask already.
  for (const Guard &G : C.A.Guards)
    if (G.Cond != L.Cond)
      noteCounters(G.Cond, Ids);
  closeOverCounters(Ids, {&L}, false);
  std::vector<bool> Relevant(L.Counters.size(), false);
  for (size_t I = 0; I < L.Counters.size(); ++I)
    Relevant[I] = Ids.count(L.Counters[I].Id) != 0;
  return Relevant;
}

/// Whether the live lanes of warp W run the same iterations of L: every
/// counter starts at one value and steps alike in all of them, and the
/// condition reads nothing else that differs between them.
bool warpAgreesOn(Context &C, const LoopInfo &L, unsigned W,
                  const std::array<LoopValues, WarpSize> &Vals, uint32_t Alive) {
  std::vector<const SymExpr *> Parts;
  for (const LoopCounter &LC : L.Counters) {
    if (!LC.Init || !LC.Next)
      return false;
    Parts.push_back(LC.Init.get());
    Parts.push_back(LC.Next.get());
  }
  // The condition: of L's counters and warp-uniform unknowns only.
  const SymLeaves &Leaves = C.leavesOf(L.Cond);
  if (Leaves.usesLane() || !Leaves.Varyings.empty())
    return false;
  for (const SymExpr *V : Leaves.Loops) {
    bool Own = false;
    for (const LoopCounter &LC : L.Counters)
      Own |= LC.Id == V->LoopId;
    if (!Own)
      return false;
  }
  UniformMemo Memo;
  Memo.Shared = &C.PassMemo;
  for (const SymExpr *E : Parts) {
    std::optional<LaneValue> First;
    for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
      if (!(Alive >> Lane & 1))
        continue;
      LaneEnv Env;
      laneEnv(C, W, Lane, Env);
      Env.LoopValues = &Vals[Lane];
      Env.Memo = &Memo;
      LaneValue V = evaluateSymbolically(*E, Env);
      if (!V.known())
        return false;
      if (!First)
        First = V;
      else if (V.C != First->C || V.Terms != First->Terms)
        return false;
    }
  }
  return true;
}

} // namespace

std::set<unsigned> neededCounters(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                  std::set<unsigned> *Skipped, std::set<unsigned> *SkippedIfWarpAgrees) {
  std::vector<const LoopInfo *> Enclosing;
  for (unsigned L : A.Loops)
    Enclosing.push_back(&Loops[L]);
  // The counters the access reads, through its address, guards and the
  // conditions of the loops not in Skip; Skip keeps the loops whose counters
  // stay unread (a loop's own condition does not count for it).
  auto Read = [&](std::set<unsigned> &Skip) {
    std::set<unsigned> Ids;
    for (;;) {
      Ids.clear();
      noteCounters(A.ByteOffset, Ids);
      for (const Guard &G : A.Guards) {
        bool SkippedLoopCond = false;
        for (const LoopInfo *L : Enclosing)
          SkippedLoopCond |= Skip.count(L->Id) && G.Cond == L->Cond;
        if (!SkippedLoopCond)
          noteCounters(G.Cond, Ids);
      }
      for (const LoopInfo *L : Enclosing)
        if (!Skip.count(L->Id))
          noteCounters(L->Cond, Ids);
      // Through the updates and starts of the counters that matter (a running
      // sum of loaded values is a counter too, but nothing reads it).
      closeOverCounters(Ids, Enclosing, true);
      std::set<unsigned> Still;
      for (unsigned Id : Skip) {
        bool IsRead = false;
        for (const LoopCounter &LC : Loops[Id].Counters)
          IsRead |= Ids.count(LC.Id) != 0;
        if (!IsRead)
          Still.insert(Id);
      }
      if (Still == Skip)
        return Ids;
      Skip = std::move(Still);
    }
  };
  // A loop the same for every lane whose counters the access does not read
  // (a grid-stride or persistent-block loop around the code): every
  // iteration costs the same, so it is not run. Start from every such loop
  // and keep those still unread once the others' conditions are counted.
  std::set<unsigned> Skip;
  if (Skipped)
    for (const LoopInfo *L : Enclosing)
      if (!L->LaneVarying && L->Cond && !isThreadVarying(L->Cond))
        Skip.insert(L->Id);
  std::set<unsigned> Ids = Read(Skip);
  // Loops of threads whose counters nothing else reads (idx = warp id + k *
  // warps): skipped in a warp whose lanes all agree on them.
  if (SkippedIfWarpAgrees) {
    std::set<unsigned> All = Skip;
    for (const LoopInfo *L : Enclosing)
      if (L->Cond)
        All.insert(L->Id);
    Read(All);
    SkippedIfWarpAgrees->clear();
    for (unsigned Id : All)
      if (!Skip.count(Id))
        SkippedIfWarpAgrees->insert(Id);
  }
  if (Skipped)
    *Skipped = std::move(Skip);
  return Ids;
}

/// The counters of L its condition reads, through their starts and updates
/// (Own), and the counters of enclosing loops those read (Outer): once per
/// loop and pass.
const LoopReads &conditionReads(Context &C, const LoopInfo &L) {
  auto [It, New] = C.ConditionReads.try_emplace(L.Id);
  if (New) {
    std::set<unsigned> Read;
    noteCounters(L.Cond, Read);
    closeOverCounters(Read, {&L}, true);
    for (unsigned Id : Read) {
      bool OwnCounter = llvm::any_of(L.Counters, [&](const LoopCounter &LC) { return LC.Id == Id; });
      (OwnCounter ? It->second.Own : It->second.Outer).insert(Id);
    }
    bool Same = !isThreadVarying(L.Cond);
    for (const LoopCounter &LC : L.Counters)
      if (It->second.Own.count(LC.Id))
        Same = Same && !isThreadVarying(LC.Init) && !isThreadVarying(LC.Next);
    It->second.SameInEveryWarp = Same;
  }
  return It->second;
}

/// Runs L's counters in Own from their starts for the lane of Env (whose
/// LoopValues is Local, the enclosing loops' values) and counts the
/// iterations; std::nullopt where a value is not a number, the loop would
/// never end or it runs more than MaxRepeatedIterations.
std::optional<uint64_t> countIterations(const LoopInfo &L, const std::set<unsigned> &Own,
                                        const LaneEnv &Env, LoopValues &Local) {
  auto Number = [&](const SymRef &E) -> std::optional<int64_t> {
    LaneValue V = evaluateLane(*E, Env);
    return V.exact() ? std::optional<int64_t>(V.C) : std::nullopt;
  };
  std::vector<const LoopCounter *> Counters;
  for (const LoopCounter &LC : L.Counters)
    if (Own.count(LC.Id)) {
      std::optional<int64_t> Start = LC.Init && LC.Next ? Number(LC.Init) : std::nullopt;
      if (!Start)
        return std::nullopt;
      Local[LC.Id] = *Start;
      Counters.push_back(&LC);
    }
  std::vector<int64_t> Next(Counters.size());
  for (uint64_t Trips = 0;; ++Trips) {
    std::optional<int64_t> Holds = Number(L.Cond);
    if (!Holds || (*Holds && Trips == MaxRepeatedIterations))
      return std::nullopt;
    if (!*Holds)
      return Trips;
    bool Changed = false;
    for (size_t I = 0; I < Counters.size(); ++I) {
      std::optional<int64_t> V = Number(Counters[I]->Next);
      if (!V)
        return std::nullopt;
      Next[I] = *V;
      Changed |= *V != Local[Counters[I]->Id];
    }
    if (!Changed)
      return std::nullopt; // it would never end
    for (size_t I = 0; I < Counters.size(); ++I)
      Local[Counters[I]->Id] = Next[I];
  }
}

/// How many times warp W runs the loop L, which the access does not read
/// and every lane of Alive runs alike (a skipped loop): counted on its first
/// lane at the enclosing loops' values in Vals, each value of those once per
/// pass (for all warps at once where the loop reads no per-lane value).
/// std::nullopt where that is not known (a bound that is a parameter or
/// blockDim, as in a grid-stride loop) or past MaxRepeatedIterations.
std::optional<uint64_t> tripCount(Context &C, const LoopInfo &L, unsigned W,
                                  const std::array<LoopValues, WarpSize> &Vals, uint32_t Alive) {
  if (!Alive)
    return std::nullopt;
  const unsigned Lane = unsigned(__builtin_ctz(Alive));
  const LoopReads &Reads = conditionReads(C, L);
  std::vector<int64_t> Key{int64_t(L.Id), Reads.SameInEveryWarp ? -1 : int64_t(W)};
  for (unsigned Id : Reads.Outer) {
    auto It = Vals[Lane].find(Id);
    if (It == Vals[Lane].end())
      return std::nullopt;
    Key.push_back(It->second);
  }
  auto [Known, New] = C.TripCounts.try_emplace(std::move(Key));
  LaneEnv Env;
  if (New && laneEnv(C, W, Lane, Env)) {
    LoopValues Local = Vals[Lane];
    Env.LoopValues = &Local;
    Known->second = countIterations(L, Reads.Own, Env, Local);
  }
  return Known->second;
}

/// Runs the loops enclosing the access level by level for warp W; returns
/// false (with Why) when a loop cannot be enumerated exactly.
bool enumerate(Context &C, Collector &Out, unsigned W, size_t Level,
               std::array<LoopValues, WarpSize> &Vals, uint32_t Alive,
               std::vector<unsigned> &Point, std::string &Why) {
  if (Level == C.A.Loops.size()) {
    auto Label = [&] {
      std::string Text;
      for (size_t I = 0; I < C.A.Loops.size(); ++I) {
        const LoopInfo &L = C.Loops[C.A.Loops[I]];
        std::string Part;
        if (!L.LaneVarying) {
          for (unsigned Lane = 0; Lane < WarpSize && Part.empty(); ++Lane)
            if (Alive >> Lane & 1)
              for (const LoopCounter &LC : L.Counters)
                if (auto It = Vals[Lane].find(LC.Id); It != Vals[Lane].end() && !LC.Internal)
                  Part += (Part.empty() ? "" : ", ") + LC.Name + "=" + std::to_string(It->second);
        } else {
          Part = "iteration " + std::to_string(Point[I]) + " of the loop at line " +
                 std::to_string(L.Where.Line);
        }
        if (!Part.empty()) // a loop not run names no value
          Text += (Text.empty() ? "" : ", ") + Part;
      }
      return Text;
    };
    WarpResult R = evalWarp(C, W, &Vals, Alive);
    if (C.PruneOutOfBounds) {
      if (uint32_t Outside = lanesOutsideArray(C, R)) {
        R.WA.ActiveMask &= ~Outside;
        ++C.Pruned;
        if (!R.WA.ActiveMask)
          return true;
      }
    }
    Out.add(R, W, &Point, Label);
    return !Out.Failed;
  }
  const LoopInfo &L = C.Loops[C.A.Loops[Level]];
  if (C.SkippedLoops.count(L.Id) ||
      (C.SkippedIfWarpAgrees.count(L.Id) && warpAgreesOn(C, L, W, Vals, Alive))) {
    // Every iteration of this loop costs the same: one stands for all, in
    // the block sums as many times as it runs where that is known here (a
    // loop that does not run at these values is no case at all).
    std::optional<uint64_t> Trips = tripCount(C, L, W, Vals, Alive);
    if (Trips == uint64_t(0))
      return true;
    if (!Trips)
      C.RanUniformLoopOnce = true;
    const BlockSums Before = Out.V.Block;
    Point.push_back(0);
    bool Ok = enumerate(C, Out, W, Level + 1, Vals, Alive, Point, Why);
    Point.pop_back();
    if (Ok && Trips > uint64_t(1))
      Out.V.Block += (Out.V.Block - Before) * (*Trips - 1);
    return Ok;
  }
  // "the loop over 'i', 'j'": its counters that are variables of the program.
  std::vector<std::string> CounterNames;
  for (const LoopCounter &LC : L.Counters)
    if (!LC.Internal && !LC.Name.empty())
      CounterNames.push_back(LC.Name);
  const std::string TheLoop = CounterNames.empty()
                                  ? "the loop at line " + std::to_string(L.Where.Line)
                                  : "the loop over " + quotedList(CounterNames);
  if (!L.Cond || L.Counters.empty()) {
    Why = "the loop at line " + std::to_string(L.Where.Line) + " is not a counted loop";
    return false;
  }
  // Counters nothing in the access depends on are not run at all.
  std::vector<bool> Needed(L.Counters.size());
  for (size_t I = 0; I < L.Counters.size(); ++I)
    Needed[I] = C.Needed.count(L.Counters[I].Id) != 0;
  for (size_t I = 0; I < L.Counters.size(); ++I)
    if (Needed[I] && (!L.Counters[I].Init || !L.Counters[I].Next)) {
      const LoopCounter &LC = L.Counters[I];
      Why = "'" + LC.Name + "' is not a counter of the loop at line " + std::to_string(L.Where.Line);
      return false;
    }
  bool UnknownBound = false; // the condition depends on a uniform unknown
  // The parts of the loop's condition and updates that are the same in
  // every lane, evaluated once per warp and iteration (once per pass for
  // those that read no threadIdx).
  UniformMemo Memo;
  Memo.Shared = &C.PassMemo;
  auto EnvOf = [&](unsigned Lane) {
    LaneEnv Env;
    laneEnv(C, W, Lane, Env);
    Env.LoopValues = &Vals[Lane];
    Env.Memo = &Memo;
    return Env;
  };
  auto Evaluate = [&](const SymExpr &E, unsigned Lane) { return evaluateLane(E, EnvOf(Lane)); };
  // The uniform unknowns of E decide which iterations run (status "bound").
  auto IterationsBoundBy = [&](const SymRef &E) {
    for (const SymExpr *U : C.leavesOf(E).Uniforms) {
      addUnique(C.BoundBy, U->Name);
      addUnique(C.LoopBoundBy, U->Name);
    }
  };
  auto Eval = [&](const SymExpr &E, unsigned Lane, int64_t &Result) {
    LaneValue V = Evaluate(E, Lane);
    if (&E == L.Cond.get() && !V.exact() && C.leavesOf(L.Cond).UsesBlockDim[0]) {
      // An iteration no block width considered runs is not possible.
      if (std::optional<bool> Holds = atEveryBlockWidth(E, EnvOf(Lane))) {
        Result = *Holds;
        return true;
      }
    }
    if (&E == L.Cond.get() && C.BoundGuards &&
        (V.Unknown == UnknownKind::NonLinear || (V.known() && !V.exact())) &&
        !isThreadVarying(L.Cond)) {
      // A uniform bound (size < n): every iteration may run; the verdict is
      // the worst over them, an upper bound (status "bound").
      IterationsBoundBy(L.Cond);
      UnknownBound = true;
      Result = 1;
      return true;
    }
    if (!V.exact()) {
      // A bound or a uniform counter's start that depends on warp-uniform
      // unknowns: the bound pass may still run the loop.
      bool UniformStart = false;
      for (const LoopCounter &LC : L.Counters)
        UniformStart |= &E == LC.Init.get() && !LC.LaneVarying;
      if ((&E == L.Cond.get() || UniformStart) &&
          (V.Unknown == UnknownKind::NonLinear || V.known()) && !isThreadVarying(E))
        C.UniformLoopBound = true;
      // Say which part of the loop is not known: its condition, or where a
      // counter starts or how it changes.
      std::string What = "the bounds of " + TheLoop + " are not known (they depend";
      for (const LoopCounter &LC : L.Counters)
        if (&E == LC.Init.get() || &E == LC.Next.get())
          What = counterPart(LC, &E == LC.Init.get(), L.Where.Line) + " is not known (it depends";
      Why = V.known() ? What + " on " + quotedNames(V.Terms) + ")"
                      : What.substr(0, What.find(" (")) + ": " + V.Why;
      return false;
    }
    Result = V.C;
    return true;
  };
  // The lanes for the conditions and updates of the counters evaluated for
  // the whole warp at once (when each lane's value is a plain number).
  // Lanes past the block's last thread are left to the per-lane path.
  WarpLanes Lanes;
  LaneEnv Common;
  uint32_t Exist = 0;
  for (unsigned Lane = WarpSize; Lane-- > 0;) {
    LaneEnv Env;
    if (!laneEnv(C, W, Lane, Env))
      continue;
    Exist |= 1u << Lane;
    Lanes.Tid[Lane] = {Env.Tid[0], Env.Tid[1], Env.Tid[2]};
    Lanes.Loops[Lane] = &Vals[Lane];
    Common = Env;
  }
  Lanes.Common = &Common;
  Lanes.SameLoops = false;
  size_t N = L.Counters.size();
  std::vector<std::array<int64_t, WarpSize>> Value(N), NextValue(N);
  std::array<int64_t, WarpSize> CondValue;
  // In the bound pass a uniform counter that starts at an unknown value
  // (d = n >> 1) stays a symbolic unknown; the others are still enumerated.
  std::vector<bool> Symbolic(N, false);
  auto EvalInit = [&](size_t I, unsigned Lane) {
    const LoopCounter &LC = L.Counters[I];
    if (!Needed[I])
      return true;
    if (C.BoundGuards && !LC.LaneVarying && !isThreadVarying(LC.Init)) {
      LaneValue V = Evaluate(*LC.Init, Lane);
      if (V.exact()) {
        Value[I][Lane] = V.C;
        return true;
      }
      if (V.known()) {
        Symbolic[I] = true;
        IterationsBoundBy(LC.Init);
        return true;
      }
    }
    return Eval(*LC.Init, Lane, Value[I][Lane]);
  };
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Alive >> Lane & 1)
      for (size_t I = 0; I < N; ++I)
        if (!EvalInit(I, Lane))
          return false;
  // A uniform counter updated from a symbolic one is symbolic too (whether
  // the lane is still in the loop, when the test reads d before its
  // update): the bound pass takes every iteration it allows as run.
  for (bool Changed = C.BoundGuards; Changed;) {
    Changed = false;
    for (size_t I = 0; I < N; ++I) {
      if (Symbolic[I] || L.Counters[I].LaneVarying || !L.Counters[I].Next)
        continue;
      for (const SymExpr *V : C.leavesOf(L.Counters[I].Next).Loops)
        for (size_t J = 0; J < N; ++J)
          if (Symbolic[J] && L.Counters[J].Id == V->LoopId && !Symbolic[I])
            Symbolic[I] = Changed = C.DerivedSymbolic = true;
    }
  }
  uint32_t In = Alive;
  bool Ok = true;
  // With an unknown bound the counters may cycle (2, 4, ..., 2^31, 0, 0...):
  // a state seen before adds nothing new, so enumeration stops there.
  std::set<std::vector<int64_t>> Seen;
  // A symbolic counter stands for every value it takes: the iterations add
  // nothing new once the enumerated counters repeat.
  const bool AnySymbolic = std::find(Symbolic.begin(), Symbolic.end(), true) != Symbolic.end();
  // The counters that are not run: symbolic ones and those nothing needs.
  std::vector<bool> Skip(N);
  for (size_t I = 0; I < N; ++I)
    Skip[I] = Symbolic[I] || !Needed[I];
  // Innermost loop: an iteration whose active lanes and address-relevant
  // counters repeat an earlier one's costs the same; it is counted in the
  // block sums without evaluating the warp again, so long loops over a
  // cycling index (index = (index + 32) % size, 10,000 times) stay exact.
  const bool Innermost = Level + 1 == C.A.Loops.size();
  const std::vector<bool> Relevant = Innermost ? relevantCounters(C, L) : std::vector<bool>();
  std::map<std::vector<int64_t>, size_t> FirstSeen; // state -> iteration
  std::vector<BlockSums> History; // per iteration
  unsigned Distinct = 0;
  // With a condition the same for every lane (i < 10000), the iterations
  // after a repeated state cycle with its period until the condition fails:
  // one lane's counters say how many remain, and the sums follow.
  auto FastForward = [&](size_t K0, size_t K, unsigned Lane) {
    std::vector<int64_t> Now(N), Next(N);
    for (size_t I = 0; I < N; ++I)
      Now[I] = Value[I][Lane];
    uint64_t Remaining = 0;
    for (;;) {
      for (size_t I = 0; I < N; ++I)
        if (!Skip[I])
          Vals[Lane][L.Counters[I].Id] = Now[I];
      int64_t Cond = 0;
      if (!Eval(*L.Cond, Lane, Cond))
        return false;
      if (!Cond)
        break;
      if (++Remaining > MaxRepeatedIterations * uint64_t(16)) {
        Why = TheLoop + " runs more than " +
              std::to_string(MaxRepeatedIterations * uint64_t(16)) + " iterations";
        return false;
      }
      for (size_t I = 0; I < N; ++I)
        if (!Skip[I] && !Eval(*L.Counters[I].Next, Lane, Next[I]))
          return false;
      if (Next == Now) {
        // Nothing changes and the condition still holds: it never ends
        // (x <<= 1 from 0, with the unknown that started it fixed to 0).
        Why = TheLoop + " never ends: its counters stop changing while its "
              "condition holds";
        return false;
      }
      Now.swap(Next);
    }
    const size_t Period = K - K0;
    BlockSums Cycle, Part;
    for (size_t J = 0; J < Period; ++J) {
      Cycle += History[K0 + J];
      if (J < Remaining % Period)
        Part += History[K0 + J];
    }
    Out.V.Block += Cycle * (Remaining / Period);
    Out.V.Block += Part;
    C.RepeatedIterations += Remaining;
    return true;
  };
  for (unsigned K = 0;; ++K) {
    if (UnknownBound || AnySymbolic) {
      std::vector<int64_t> State;
      for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
        if (In >> Lane & 1)
          for (size_t I = 0; I < N; ++I)
            if (!Skip[I])
              State.push_back(Value[I][Lane]);
      if (!Seen.insert(State).second)
        break;
    }
    if ((UnknownBound && K >= 64u) || Distinct >= MaxIterationsPerLoop ||
        C.RepeatedIterations > MaxRepeatedIterations) {
      Why = UnknownBound && K >= 64u
                ? TheLoop + ", whose bound is not known, was run 64 times "
                  "without its counters repeating"
                : TheLoop + " runs more than " + std::to_string(MaxIterationsPerLoop) +
                      " iterations" + (Distinct < MaxIterationsPerLoop ? " that repeat earlier ones" : "");
      Ok = false;
      break;
    }
    if (C.Evaluations > MaxWarpEvaluations) {
      Why = "more than " + std::to_string(MaxWarpEvaluations) +
            " warp evaluations would be needed to enumerate the loops";
      Ok = false;
      break;
    }
    uint32_t Now = 0;
    for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
      if (In >> Lane & 1)
        for (size_t I = 0; I < N; ++I)
          if (!Skip[I])
            Vals[Lane][L.Counters[I].Id] = Value[I][Lane];
    if (In && !(In & ~Exist) && evaluateWarpNumbers(*L.Cond, Lanes, In, CondValue)) {
      for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
        if ((In >> Lane & 1) && CondValue[Lane])
          Now |= 1u << Lane;
    } else {
      for (unsigned Lane = 0; Lane < WarpSize && Ok; ++Lane) {
        if (!(In >> Lane & 1))
          continue;
        int64_t Cond = 0;
        Ok = Eval(*L.Cond, Lane, Cond);
        if (Ok && Cond)
          Now |= 1u << Lane;
      }
    }
    if (!Ok || !Now)
      break;
    std::vector<int64_t> State;
    if (Innermost) {
      State.push_back(Now);
      for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
        if (Now >> Lane & 1)
          for (size_t I = 0; I < N; ++I)
            if (Relevant[I] && !Skip[I])
              State.push_back(Value[I][Lane]);
    }
    if (auto Seen = FirstSeen.find(State); Innermost && Seen != FirstSeen.end()) {
      // With an unknown bound the verdict is the worst over the iterations
      // that may run, and from a repeated state on they repeat earlier ones.
      if (UnknownBound)
        break;
      if (!isThreadVarying(L.Cond)) {
        Ok = FastForward(Seen->second, K, unsigned(__builtin_ctz(Now)));
        break;
      }
      ++C.RepeatedIterations;
      const auto Same = History[Seen->second]; // (a copy: push_back may reallocate)
      History.push_back(Same);
      Out.V.Block += History.back();
    } else {
      ++Distinct;
      const BlockSums Before = Out.V.Block;
      Point.push_back(K);
      bool Prune = C.PruneOutOfBounds;
      C.PruneOutOfBounds |= UnknownBound;
      bool Inner = enumerate(C, Out, W, Level + 1, Vals, Now, Point, Why);
      C.PruneOutOfBounds = Prune;
      Point.pop_back();
      if (!Inner) {
        Ok = false;
        break;
      }
      if (Innermost) {
        FirstSeen.emplace(std::move(State), History.size());
        History.push_back(Out.V.Block - Before);
      }
    }
    // Every counter advances at once, from the values at the iteration's start.
    bool ByWarp = !(Now & ~Exist);
    for (size_t I = 0; I < N && ByWarp; ++I)
      ByWarp = Skip[I] || evaluateWarpNumbers(*L.Counters[I].Next, Lanes, Now, NextValue[I]);
    for (unsigned Lane = 0; Lane < WarpSize && Ok; ++Lane)
      if (Now >> Lane & 1)
        for (size_t I = 0; I < N && Ok; ++I)
          if (ByWarp)
            Value[I][Lane] = Skip[I] ? Value[I][Lane] : NextValue[I][Lane];
          else
            Ok = Skip[I] || Eval(*L.Counters[I].Next, Lane, Value[I][Lane]);
    if (!Ok)
      break;
    In = Now; // a lane that left the loop stays out (SIMT semantics)
  }
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    for (const LoopCounter &LC : L.Counters)
      Vals[Lane].erase(LC.Id);
  return Ok;
}

} // namespace cbl::warp
