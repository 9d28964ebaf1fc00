//===- WarpAnalysis.cpp - Worst warp of one shared access ------------------===//
//
// See WarpAnalysis.h for the three passes. The evaluation of one warp at one
// point (one combination of loop iterations) is evalWarp; the passes differ
// in which loop counters are bound and how undecidable guards are treated.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"
#include "cuda-bank-lint/Symbolic/VerdictMemo.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "SymbolicText.h"
#include "WarpPasses.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <map>
#include <climits>
#include <numeric>
#include <optional>
#include <set>

namespace cbl {

EvalShape evalShapeFor(const BlockShape &Shape) {
  EvalShape E;
  if (Shape.known()) {
    E.Dim = Shape.Dim;
    E.Warps = (Shape.threads() + WarpSize - 1) / WarpSize;
  } else {
    E.Dim = {{0, 1, 1}};
    E.Warps = (Shape.MaxThreads + WarpSize - 1) / WarpSize;
  }
  return E;
}

namespace warp {

void addUnique(std::vector<std::string> &V, const std::string &S) {
  if (std::find(V.begin(), V.end(), S) == V.end())
    V.push_back(S);
}

std::string quotedNames(const std::map<std::string, int64_t> &Terms) {
  std::vector<std::string> Names;
  for (const auto &KV : Terms)
    Names.push_back(KV.first);
  return quotedList(Names);
}

std::map<unsigned, AffineCounter> affineCountersOf(const SharedAccess &A,
                                                   const std::vector<LoopInfo> &Loops) {
  std::map<unsigned, AffineCounter> M;
  for (unsigned Id : A.Loops)
    for (const LoopCounter &LC : Loops[Id].Counters)
      if (LC.LaneVarying)
        if (auto F = affineCounterOf(Loops[Id], LC))
          M.emplace(LC.Id, *F);
  return M;
}

/// Bytes of storage of a sized array (0: unsized extern).
uint64_t storageBytes(const SharedArray &A, unsigned Padding) {
  if (A.Dims.empty())
    return A.ElementSize;
  if (A.Dims[0] == 0)
    return 0;
  return A.Dims[0] * uint64_t(rowStrideOf(A, 0, Padding)) * A.ElementSize;
}

/// Byte offset Addr in the layout C evaluates: with the array's rows
/// XOR-swizzled (LayoutChange::SwizzleBytes), chunk c of row r within each
/// 128 bytes moves to c ^ (r % (128 / SwizzleBytes)).
uint64_t swizzled(const Context &C, uint64_t Addr) {
  if (!C.Change.swizzles(C.A.ArrayId))
    return Addr;
  const unsigned U = C.Change.SwizzleBytes;
  uint64_t Pitch = swizzleRowBytes(C.Arrays[C.A.ArrayId]);
  if (!Pitch)
    return Addr;
  uint64_t Row = Addr / Pitch, InRow = Addr % Pitch;
  uint64_t Chunk = (InRow % 128) / U ^ (Row % (128 / U));
  return Row * Pitch + InRow / 128 * 128 + Chunk * U + InRow % U;
}

/// The active lanes of R that address bytes outside the array (a sized one,
/// with the addresses fully known).
uint32_t lanesOutsideArray(const Context &C, const WarpResult &R) {
  if (!R.Ok || !R.Params.empty())
    return 0;
  const SharedArray &Arr = C.Arrays[C.A.ArrayId];
  uint64_t Size = storageBytes(Arr, C.Change.paddingOf(C.A.ArrayId));
  uint32_t Outside = 0;
  for (unsigned L = 0; Size && L < WarpSize; ++L)
    if ((R.WA.ActiveMask >> L & 1) && (R.WA.ByteAddr[L] > Size || R.WA.ByteAddr[L] + C.A.Width > Size))
      Outside |= 1u << L;
  return Outside;
}

/// The situation of lane L of warp W.
bool laneEnv(const Context &C, unsigned W, unsigned L, LaneEnv &Env) {
  unsigned T = W * WarpSize + L;
  if (T >= C.threads())
    return false;
  Env.Arrays = &C.Arrays;
  Env.UniformValues = C.UniformValues;
  Env.NodeValues = C.NodeValues;
  Env.Change = C.Change;
  Env.AffineCounters = &C.Affine;
  if (C.Shape.Dim[0]) {
    setThread(Env, T, C.Shape.Dim);
    // A warp lies in one row (one slice) when the rows (slices) are whole
    // warps: threadIdx.y (z) is then the same in all its lanes.
    if (C.Shape.Dim[0] % WarpSize == 0)
      Env.WarpUniformAxes |= 1u << unsigned(Axis::Y);
    if ((C.Shape.Dim[0] * C.Shape.Dim[1]) % WarpSize == 0)
      Env.WarpUniformAxes |= 1u << unsigned(Axis::Z);
  } else {
    Env.Tid[0] = T;
    Env.MaxThreads = C.threads();
    Env.BlockDim[1] = 1;
    Env.BlockDim[2] = 1;
  }
  return true;
}

/// Whether every live lane has the same loop counters (none given: yes).
static bool lanesShareCounters(const std::array<LoopValues, WarpSize> *Vals, uint32_t Alive) {
  if (!Vals)
    return true;
  const LoopValues *First = nullptr;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (Alive >> L & 1) {
      if (!First)
        First = &(*Vals)[L];
      else if ((*Vals)[L] != *First)
        return false;
    }
  return true;
}

static_assert(WarpLanes::Size == WarpSize);

/// The addresses of the lanes of Addressed, each evaluated on its own:
/// false (R.Fail set) at the first lane whose address cannot be used.
static bool addressesLaneByLane(Context &C, std::array<LaneEnv, WarpSize> &Envs, uint32_t Addressed,
                                WarpResult &R, std::map<std::string, int64_t> &Offset,
                                std::optional<std::string> &LoadedWhy) {
  bool First = true;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(Addressed >> L & 1))
      continue;
    LaneValue A = evaluateLane(*C.A.ByteOffset, Envs[L]);
    if (A.Unknown == UnknownKind::DataDependent) {
      if (!LoadedWhy)
        LoadedWhy = A.Why;
      A = loadedRowsDropped(C, Envs[L], std::move(A));
    }
    if (!A.known()) {
      R.Fail = {statusFor(A.Unknown), A.Why, false};
      return false;
    }
    if (First) {
      Offset = A.Terms;
      First = false;
    } else if (A.Terms != Offset) {
      R.Fail.Reason = "the address depends on " + quotedNames(A.Terms.empty() ? Offset : A.Terms) +
                      " differently in different threads";
      return false;
    }
    R.WA.ActiveMask |= 1u << L;
    R.WA.ByteAddr[L] = swizzled(C, uint64_t(A.C));
  }
  return true;
}

/// The lanes of warp W that exist (Envs, R.Tids), with Alive's lanes in
/// Lanes; returns those lanes.
static uint32_t warpLanes(const Context &C, unsigned W, const std::array<LoopValues, WarpSize> *Vals,
                          uint32_t Alive, UniformMemo &Memo, std::array<LaneEnv, WarpSize> &Envs,
                          WarpLanes &Lanes, WarpResult &R) {
  uint32_t Live = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    LaneEnv &Env = Envs[L];
    if (!laneEnv(C, W, L, Env))
      break;
    Env.Memo = &Memo;
    R.Tids[L] = {{Env.Tid[0], Env.Tid[1], Env.Tid[2]}};
    if (!(Alive >> L & 1))
      continue;
    if (Vals)
      Env.LoopValues = &(*Vals)[L];
    Live |= 1u << L;
    Lanes.Tid[L] = R.Tids[L];
    Lanes.Loops[L] = Env.LoopValues;
    if (!Lanes.Common)
      Lanes.Common = &Env;
  }
  return Live;
}

/// The lanes of Live that run the access and address it: the guard parts
/// every lane decides by plain numbers for the whole warp, the others lane
/// by lane, up to the first lane they cannot be decided in (GuardFail).
static uint32_t lanesRunning(Context &C, std::array<LaneEnv, WarpSize> &Envs, const WarpLanes &Lanes,
                             uint32_t Live, std::array<std::vector<int64_t>, WarpSize> &Keys,
                             std::optional<Failure> &GuardFail) {
  size_t FirstPart = Live ? guardsByNumbers(C, Lanes, Live) : 0;
  uint32_t Addressed = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(Live >> L & 1))
      continue;
    bool Taken = true;
    Failure F;
    if (FirstPart < C.Guards.size() && !guardsTaken(C, Envs[L], Taken, F, &Keys[L], FirstPart)) {
      GuardFail = std::move(F);
      break;
    }
    if (Taken && (C.A.AddressLanes >> L & 1))
      Addressed |= 1u << L;
  }
  return Addressed;
}

/// Undecided equality guards: only lanes with one key pass together, so the
/// worst case is the costliest such group of R's active lanes, not all.
static void worstEqualityGroup(const Context &C, WarpResult &R,
                               const std::array<std::vector<int64_t>, WarpSize> &Keys) {
  std::map<std::vector<int64_t>, uint32_t> Groups;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (R.WA.ActiveMask >> L & 1)
      Groups[Keys[L]] |= 1u << L;
  if (Groups.size() < 2)
    return;
  uint32_t WorstMask = 0;
  BankCost Worst;
  for (const auto &[Key, Mask] : Groups) {
    WarpAccess G = R.WA;
    G.ActiveMask = Mask;
    BankCost Cost = costOf(G, C.Arch);
    if (!WorstMask || worse(Cost, Worst) ||
        (!worse(Worst, Cost) && __builtin_popcount(Mask) > __builtin_popcount(WorstMask))) {
      Worst = Cost;
      WorstMask = Mask;
    }
  }
  R.WA.ActiveMask = WorstMask;
}

WarpResult evalWarp(Context &C, unsigned W, const std::array<LoopValues, WarpSize> *Vals,
                    uint32_t Alive) {
  WarpResult R;
  R.WA.Width = C.A.Width;
  R.WA.Op = C.A.Op;
  R.WA.Atomic = C.A.Atomic;
  R.WA.Matrix = C.A.Matrix;
  R.WA.ActiveMask = 0;
  ++C.Evaluations;
  std::array<std::vector<int64_t>, WarpSize> Keys;
  UniformMemo Memo;
  Memo.Shared = &C.PassMemo;
  // Lanes that share their counters in Alive share them in its subsets.
  const bool SameLoops = lanesShareCounters(Vals, Alive);
  if (SameLoops)
    Memo.WarpOutcomes.assign(C.Guards.size(), {int8_t(-1), std::nullopt});
  std::array<LaneEnv, WarpSize> Envs;
  WarpLanes Lanes;
  Lanes.SameLoops = SameLoops;
  uint32_t Live = warpLanes(C, W, Vals, Alive, Memo, Envs, Lanes, R);
  std::optional<Failure> GuardFail;
  uint32_t Addressed = lanesRunning(C, Envs, Lanes, Live, Keys, GuardFail);
  // The addresses, all at once when each is a plain number, else lane by
  // lane; the failure reported is the first lane's, guard or address, as in
  // a walk of the lanes.
  std::array<int64_t, WarpSize> Numbers;
  std::map<std::string, int64_t> Offset; // the common uniform offset
  std::optional<std::string> LoadedWhy;   // some lane's loaded values left out
  if (Addressed && evaluateWarpNumbers(*C.A.ByteOffset, Lanes, Addressed, Numbers)) {
    R.WA.ActiveMask = Addressed;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (Addressed >> L & 1)
        R.WA.ByteAddr[L] = swizzled(C, uint64_t(Numbers[L]));
  } else if (!addressesLaneByLane(C, Envs, Addressed, R, Offset, LoadedWhy)) {
    return R;
  }
  if (GuardFail) {
    R.Fail = std::move(*GuardFail);
    return R;
  }
  if (LoadedWhy && !banksDistinct(R.WA, C.Arch)) {
    R.Fail = {VerdictStatus::DataDependent, *LoadedWhy, false};
    return R;
  }
  if (!Offset.empty() && C.Change.swizzles(C.A.ArrayId)) {
    R.Fail.Reason = "a swizzle cannot be checked with an offset that depends on " + quotedNames(Offset);
    return R;
  }
  // A common offset sum(c_i * u_i) can take any multiple of gcd(c_i); the
  // bank model is exact for it when the cost is the same at each of them
  // (a whole bank word always is; bytes at finer steps are tried).
  if (!Offset.empty() && R.WA.ActiveMask) {
    uint64_t G = 0;
    for (const auto &KV : Offset)
      G = std::gcd(G, uint64_t(KV.second < 0 ? -KV.second : KV.second));
    if (!costSameAtEveryShift(R.WA, G, C.Arch)) {
      R.Fail.Reason = "the address has an offset of " + std::to_string(G) +
                      "-byte steps that depends on " + quotedNames(Offset);
      return R;
    }
    for (const auto &KV : Offset)
      R.Params.push_back(KV.first);
  }
  if (R.WA.ActiveMask && C.BoundGuards)
    worstEqualityGroup(C, R, Keys);
  R.Ok = true;
  if (C.ScanEdges < 0)
    C.ScanEdges = scansBoundary(C);
  if (C.ScanEdges && R.WA.ActiveMask)
    R.Edge = boundaryWarp(C, W, Vals, R);
  return R;
}

bool worse(const BankCost &A, const BankCost &B) {
  if (A.Wavefronts - A.Ideal != B.Wavefronts - B.Ideal)
    return A.Wavefronts - A.Ideal > B.Wavefronts - B.Ideal;
  return A.Degree > B.Degree;
}

void Collector::add(const WarpResult &R, unsigned W, const std::vector<unsigned> *Point,
                    llvm::function_ref<std::string()> Label) {
  if (!R.Ok) {
    if (!Failed)
      Fail = R.Fail;
    Failed = true;
    return;
  }
  for (const auto &P : R.Params)
    addUnique(V.Parameters, P);
  if (!R.WA.ActiveMask)
    return;
  if (C.NoteOutsideArray && lanesOutsideArray(C, R))
    C.WentOutsideArray = true;
  BankCost Cost = costOf(R.WA, C.Arch);
  V.Block += {Cost.Wavefronts, Cost.Ideal, Cost.LoopLoadWavefronts, Cost.LoopLoadIdeal};
  unsigned Active = unsigned(__builtin_popcount(R.WA.ActiveMask));
  if (Point) {
    auto It = CaseIndex.find(*Point);
    if (It == CaseIndex.end()) {
      It = CaseIndex.emplace(*Point, V.Cases.size()).first;
      V.Cases.push_back({Label(), Cost, W, Active});
    } else if (worse(Cost, V.Cases[It->second].Cost)) {
      V.Cases[It->second].Cost = Cost;
      V.Cases[It->second].Warp = W;
      V.Cases[It->second].ActiveLanes = Active;
    }
  }
  if (R.Edge && (!V.Edge || excessOf(*R.Edge) > excessOf(*V.Edge)))
    V.Edge = R.Edge;
  if (!Any || worse(Cost, V.Cost)) {
    V.Cost = Cost;
    V.Warp = W;
    V.Mask = R.WA.ActiveMask;
    V.Addr = R.WA.ByteAddr;
    V.Tid = R.Tids;
    V.WorstCase = Label();
  }
  Any = true;
}
/// V is bound only by guards that decide which lanes run it (per-thread
/// values no analysis knows, or per-thread values compared with blockIdx or
/// parameters), not by how many iterations run, and its cost does not
/// depend on them: a plain load or store of at most 4 bytes (one phase; no
/// load merge) conflict-free in every warp and case.
bool whicheverLanesRun(const Context &C, const AccessVerdict &V) {
  if (C.BoundBy.empty() || C.Pruned || V.Edge || C.A.Op == AccessOp::Atomic || C.A.Matrix ||
      C.A.Width == 0 || C.A.Width > 4 || V.Cost.Ideal == 0 || V.Cost.Wavefronts != V.Cost.Ideal)
    return false;
  for (const std::string &B : C.BoundBy)
    if (std::find(C.LoopBoundBy.begin(), C.LoopBoundBy.end(), B) != C.LoopBoundBy.end())
      return false;
  for (const VerdictCase &K : V.Cases)
    if (K.Cost.Wavefronts != K.Cost.Ideal)
      return false;
  return true;
}

AccessVerdict finish(Context &C, Collector &Col, VerdictStatus Status) {
  AccessVerdict V = std::move(Col.V);
  V.Status = Status;
  V.WarpsEvaluated = C.Shape.Warps;
  V.AssumedUniform = C.AssumedUniform;
  V.BoundBy = C.BoundBy;
  V.BoundaryBy = C.ThresholdBy;
  V.Boundary = boundaryNote(C.ThresholdBy);
  V.NeverExecuted = !Col.Any;
  V.RepeatedIterations = C.RepeatedIterations;
  if (Status == VerdictStatus::Bound && C.LoopBoundBy.size() == C.BoundBy.size()) {
    // The loop's condition is the same in every lane (a bound on a thread's
    // counter is not taken as unknown): iterations run by whole warps, and
    // the enumeration ran every state the counters reach.
    V.PerExecution = C.DataGuards.empty() && !C.Pruned &&
                     std::all_of(V.Cases.begin(), V.Cases.end(), [&](const VerdictCase &K) {
                       return K.Cost.Wavefronts == V.Cost.Wavefronts && K.Cost.Ideal == V.Cost.Ideal;
                     });
    V.Reason = "which loop iterations run depends on " + quotedList(C.LoopBoundBy) +
               (V.PerExecution ? "; every iteration that may run costs the same: the cost shown is "
                                 "exact per execution, how many executions is not known"
                               : "; the cost shown is the worst over every iteration that may run");
  }
  else if (Status == VerdictStatus::Bound)
    V.Reason = boundByReason(C.BoundBy);
  if (V.Edge)
    boundaryBlocks(C, V);
  if (Status == VerdictStatus::Bound && whicheverLanesRun(C, V)) {
    // Removing lanes never adds distinct words to a bank, and an access
    // of at most 4 bytes is one phase: conflict-free with every lane, it
    // is one wavefront (ideal one) whichever of them run it.
    V.Status = VerdictStatus::Exact;
    V.BoundBy.clear();
    bool OnlyData = V.BoundaryBy.empty() && C.DataGuards.size() == C.BoundBy.size();
    for (const std::string &G : C.BoundBy)
      addUnique(V.BoundaryBy, G);
    V.Boundary = "which lanes run it depends on " +
                 (OnlyData ? "per-thread values that are not known statically (" + quotedList(C.DataGuards) + ")"
                           : quotedList(V.BoundaryBy)) +
                 "; conflict-free whichever do: one wavefront per execution";
    return V;
  }
  if (Status == VerdictStatus::Bound && !C.DataGuards.empty()) {
    // Which lanes run it depends on values no static analysis knows: a
    // possible conflict, stated with the condition that gives the worst case.
    if (V.Cost.Wavefronts > V.Cost.Ideal)
      V.Condition = std::to_string(V.Cost.Degree) + "-way if every lane passes " + quotedList(C.DataGuards);
    V.Reason = "which threads run it depends on per-thread values that are not known statically (" +
               quotedList(C.DataGuards) + "); the cost shown is the worst case, when every lane passes";
  }
  if (Status == VerdictStatus::Bound && C.Pruned)
    V.Reason += " (lanes that would access outside '" + C.Arrays[C.A.ArrayId].Name +
                "' in an iteration are assumed not to run it)";
  return V;
}

/// One pass: parametric (no enumeration) or enumerated.
bool runPass(Context &C, bool Enumerate, Collector &Col, std::string &NotEnumerable) {
  for (unsigned W = 0; W < C.Shape.Warps; ++W) {
    if (Enumerate) {
      std::array<LoopValues, WarpSize> Vals;
      std::vector<unsigned> Point;
      uint32_t All = 0xffffffffu;
      if (!enumerate(C, Col, W, 0, Vals, All, Point, NotEnumerable))
        return false;
    } else {
      Col.add(evalWarp(C, W, nullptr, 0xffffffffu), W, nullptr, [] { return std::string(); });
      if (Col.Failed)
        return false;
    }
  }
  return true;
}

} // namespace warp

using namespace warp;

namespace warp {

PassesResult boundPasses(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                         const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                         BankArch Arch, LayoutChange Change,
                         const std::map<std::string, int64_t> *Values) {
  PassesResult Out;
  // One pass (enumerated or parametric, bound or not); on success it fills
  // Out. What the caller needs of a failure comes back.
  struct Attempt {
    bool Done = false, Failed = false, UniformLoopBound = false, DerivedSymbolic = false;
    Failure Fail;
    std::string NotEnumerable; ///< why the loops could not be run
  };
  auto Run = [&](bool Bound, bool Enumerate) {
    Context C{Access, Loops, Arrays, Shape, Arch, Change};
    C.UniformValues = Values;
    C.NoteOutsideArray = Values != nullptr;
    C.BoundGuards = Bound;
    Collector Col(C);
    std::string NotEnumerable;
    Attempt R;
    R.Done = runPass(C, Enumerate, Col, NotEnumerable);
    Out.Evaluations += C.Evaluations;
    if (R.Done) {
      Out.Verdict = finish(C, Col, Bound && !C.BoundBy.empty() ? VerdictStatus::Bound
                                                               : VerdictStatus::Exact);
      // Parametric: the trip counts of the enclosing loops are not known.
      if (!Enumerate && !Access.Loops.empty())
        Out.Verdict->BlockIterations = 0;
      // A uniform loop not run (grid-stride): the result holds for each of
      // its iterations, whose number is not counted.
      if (Enumerate && C.RanUniformLoopOnce) {
        Out.Verdict->BlockIterations = 0;
        for (unsigned Id : C.SkippedLoops)
          for (const LoopCounter &LC : Loops[Id].Counters)
            addUnique(Out.Verdict->Parameters, LC.Name);
      }
      Out.OutsideArray = C.WentOutsideArray;
    }
    R.Failed = Col.Failed;
    R.Fail = Col.Fail;
    R.NotEnumerable = NotEnumerable;
    R.UniformLoopBound = C.UniformLoopBound;
    R.DerivedSymbolic = C.DerivedSymbolic;
    return R;
  };
  Failure &FirstFailure = Out.Fail;
  std::string LoopsNotRun; // the last enumeration's reason, if it stopped at a loop
  for (bool Bound : {false, true}) {
    // Would the bound pass help? Only against guards or loop bounds decided
    // by warp-uniform unknowns.
    bool UniformUnknownsInTheWay = false;
    // Enumerate the enclosing loops where possible: exact per iteration, and
    // the block sums count every iteration.
    if (!Access.Loops.empty()) {
      Attempt E = Run(Bound, true);
      // Iterations bound only through a flag taken as symbolic: the
      // parametric pass may still find every iteration's cost the same
      // (exact per execution), as it did before the flag could be run.
      if (E.Done && E.DerivedSymbolic && Out.Verdict && Out.Verdict->Status == VerdictStatus::Bound) {
        PassesResult Enumerated = Out;
        if (Run(Bound, false).Done && Out.Verdict && Out.Verdict->Status == VerdictStatus::Exact)
          return Out;
        Out = std::move(Enumerated);
      }
      if (E.Done)
        return Out;
      // The latest pass got furthest: its failure is the most telling.
      if (E.Failed)
        FirstFailure = E.Fail;
      else
        LoopsNotRun = E.NotEnumerable;
      if (E.Failed && !E.Fail.FromGuard)
        break; // the address itself is not analysable: binding more will not help
      UniformUnknownsInTheWay |= E.UniformLoopBound || (E.Failed && E.Fail.FromGuard);
    }
    // Parametric: loop counters and other uniform unknowns stay symbolic.
    Attempt P = Run(Bound, false);
    if (P.Done)
      return Out;
    FirstFailure = P.Fail;
    Out.FailedInBoundPass = Bound;
    if (!P.Fail.FromGuard && !UniformUnknownsInTheWay)
      break; // only undecidable guards or loop bounds are helped by the bound pass
  }
  // The parametric pass only knows that a counter changes; the enumeration
  // knows why the loop could not be run.
  if (!LoopsNotRun.empty() && FirstFailure.Status == VerdictStatus::Unknown &&
      FirstFailure.Reason.find(LoopsNotRun) == std::string::npos)
    FirstFailure.Reason += " (the loops were not run: " + LoopsNotRun + ")";
  return Out;
}

} // namespace warp

/// The verdict for a warp that runs the access together.
static AccessVerdict analyseConverged(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                                      const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                                      BankArch Arch, LayoutChange Change) {
  if (!Access.Unsupported.empty() || !Access.NotAnalysable.empty()) {
    AccessVerdict V;
    V.Status = Access.Unsupported.empty() ? VerdictStatus::Unknown : VerdictStatus::Unsupported;
    V.Reason = Access.Unsupported.empty() ? Access.NotAnalysable : Access.Unsupported;
    return V;
  }
  PassesResult First = boundPasses(Access, Loops, Arrays, Shape, Arch, Change);
  if (First.Verdict)
    return *First.Verdict;
  const Failure &FirstFailure = First.Fail;
  const bool FailedInBoundPass = First.FailedInBoundPass;
  if (!FirstFailure.FromGuard && FirstFailure.Status == VerdictStatus::Unknown) {
    // isl first: "conflict-free for every value of every unknown" is the
    // strongest answer; otherwise the degrees per value of one parameter say
    // more than isl's condition for "some conflict". Guards these cannot
    // decide (a break on a per-lane value) are then taken as passed by every
    // lane: a bound, the worst case.
    auto Parametric = [&](bool BoundGuards, bool PowersOfTwo) -> std::optional<AccessVerdict> {
      std::optional<AccessVerdict> Isl;
      if (Change.Array < 0)
        Isl = islParameterSet(Access, Loops, Arrays, Shape, Arch, BoundGuards);
      if (Isl && Isl->Status == VerdictStatus::Exact)
        return Isl;
      if (auto V = parameterCases(Access, Loops, Arrays, Shape, Arch, Change, BoundGuards))
        return V;
      if (auto V = clampCases(Access, Loops, Arrays, Shape, Arch, Change, BoundGuards))
        return V;
      if (PowersOfTwo)
        if (auto V = powerOfTwoCases(Access, Loops, Arrays, Shape, Arch, Change))
          return V;
      return Isl;
    };
    if (auto V = Parametric(FailedInBoundPass, true))
      return *V;
    if (!FailedInBoundPass)
      if (auto V = Parametric(true, false))
        return *V;
  }
  AccessVerdict V;
  V.Status = FirstFailure.Status;
  V.Reason = FirstFailure.Reason;
  V.WarpsEvaluated = Shape.Warps;
  return V;
}

WarpAccess worstWarpAccess(const SharedAccess &Access, const AccessVerdict &V) {
  WarpAccess W;
  W.Width = Access.Width;
  W.Op = Access.Op;
  W.Atomic = Access.Atomic;
  W.Matrix = Access.Matrix;
  W.ActiveMask = V.Mask;
  W.ByteAddr = V.Addr;
  return W;
}

AccessVerdict analyseAccess(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                            const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                            BankArch Arch, LayoutChange Change) {
  AccessVerdict V = analyseConverged(Access, Loops, Arrays, Shape, Arch, Change);
  if (V.Status == VerdictStatus::DataDependent && Change.Array < 0)
    V.Random = warp::randomDataCost(Access, Loops, Arrays, Shape, Arch);
  // Lanes that run it apart take several instructions of fewer lanes each:
  // none costs more than the whole warp's, which is what is shown.
  if (!Access.MaySplit.empty() && V.Status == VerdictStatus::Exact) {
    V.Status = VerdictStatus::Bound;
    V.Reason = Access.MaySplit + "; the cost shown is the whole warp's, the most one instruction "
                                 "of it can cost";
  }
  return V;
}

} // namespace cbl
