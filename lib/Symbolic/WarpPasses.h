//===- WarpPasses.h - Internals shared by the passes of WarpAnalysis -----===//
//
// The evaluation context of one access and the per-warp evaluation used by
// every pass (WarpAnalysis.cpp), and the parameter passes that reuse it
// (ParameterPasses.cpp). Private to lib/Symbolic.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_WARPPASSES_H
#define CUDA_BANK_LINT_SYMBOLIC_WARPPASSES_H

#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cbl::warp {

/// Bounds that keep every access's analysis small and predictable.
constexpr unsigned MaxIterationsPerLoop = 1024;
constexpr unsigned MaxWarpEvaluations = 8192;
/// Iterations of innermost loops that repeat an earlier one's state (counted,
/// not evaluated again), over all warps of one access.
constexpr unsigned MaxRepeatedIterations = 65536;

using LoopValues = std::map<unsigned, int64_t>;

void addUnique(std::vector<std::string> &V, const std::string &S);
std::string quotedNames(const std::map<std::string, int64_t> &Terms);
inline VerdictStatus statusFor(UnknownKind K) {
  return K == UnknownKind::DataDependent ? VerdictStatus::DataDependent : VerdictStatus::Unknown;
}

/// One conjunct of an access's guards, with what does not depend on the lane
/// worked out once (guards are evaluated for every lane of every warp).
struct GuardPart {
  SymRef Cond;
  bool Negated = false;
  bool Uniform = false;  ///< no threadIdx or lane-varying leaf
  std::string Assumed;   ///< for a uniform, non-constant part: how it is reported
  /// Mentions a per-lane value no analysis can compute (loaded data, float):
  /// the bound pass takes it as passed without evaluating it.
  bool Opaque = false;
  std::string Text;      ///< for a lane-dependent part: how it is reported
  bool Threshold = false; ///< for a lane-dependent part: isThreshold(*Cond)
  bool ReadsWidth = false; ///< reads blockDim.x
  /// For a large lane-dependent part that reads no per-lane unknown: its
  /// largest subexpressions that read threadIdx and nothing unknown, and the
  /// loop counters it reads. A lane's outcome of the part is a function of
  /// their values (laneKeyOf); empty when not keyed so.
  std::vector<const SymExpr *> LaneNumbers;
  std::vector<unsigned> Counters;
};

std::vector<GuardPart> guardPartsOf(const SharedAccess &A);
/// guardPartsOf(A), shared by the passes of one access: the parts of the
/// guards this thread split last are kept (keyed by the conditions, which
/// the parts hold on to).
std::shared_ptr<const std::vector<GuardPart>> sharedGuardParts(const SharedAccess &A);
std::map<unsigned, AffineCounter> affineCountersOf(const SharedAccess &A,
                                                   const std::vector<LoopInfo> &Loops);

/// Ids of the loop counters the access depends on: through its address, its
/// guards or its loops' conditions, and the updates of those counters. With
/// Skipped, loops the same for every lane whose counters nothing reads
/// (grid-stride loops) are left out and listed there: they are not run.
/// With SkippedIfWarpAgrees, the other loops whose counters only their own
/// condition reads: skipped in a warp whose lanes agree on them.
std::set<unsigned> neededCounters(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                  std::set<unsigned> *Skipped = nullptr,
                                  std::set<unsigned> *SkippedIfWarpAgrees = nullptr);

/// The loaded values an address reads, replaced by named unknowns the lanes'
/// environments give values to (RandomData.cpp).
struct DataLeaves {
  static constexpr unsigned MaxDataValues = 4;
  SymRef Offset;
  std::vector<std::string> Names; ///< as written, distinct
  std::vector<unsigned> Bits;     ///< per leaf: the loaded value's width
  bool Other = false;             ///< it also reads a lane-varying value not loaded
  /// Whether the lanes' values can be drawn: some, not too many, nothing else.
  bool drawable() const { return !Other && !Bits.empty() && Bits.size() <= MaxDataValues; }
};

/// The names of those unknowns start with this (never a C++ name).
constexpr const char *DataLeafPrefix = "\x01" "data";
DataLeaves dataLeaves(const SymRef &ByteOffset);

/// The counters a loop's condition reads: its own, and those of enclosing
/// loops (LoopEnumeration.cpp: conditionReads).
struct LoopReads {
  std::set<unsigned> Own, Outer;
  /// The condition and its own counters' starts and updates read no
  /// per-lane value: the loop runs as often in every warp (at the same
  /// values of Outer).
  bool SameInEveryWarp = false;
};

struct Context {
  const SharedAccess &A;
  const std::vector<LoopInfo> &Loops;
  const std::vector<SharedArray> &Arrays;
  const EvalShape &Shape;
  BankArch Arch;
  LayoutChange Change;
  bool BoundGuards = false; ///< treat guards decided by uniform unknowns as taken
  bool UniformLoopBound = false; ///< a loop's bound depends on a uniform unknown
  std::vector<std::string> LoopBoundBy; ///< unknowns deciding how many iterations run
  const std::map<std::string, int64_t> *UniformValues = nullptr;
  const std::map<const SymExpr *, int64_t> *NodeValues = nullptr;
  std::vector<std::string> AssumedUniform;
  /// The byte offset with its loaded values as named unknowns, made when a
  /// lane's address first turns out data-dependent (loadedRowsDropped).
  std::optional<DataLeaves> Loaded;
  std::vector<std::string> BoundBy;
  /// Unknowns of threshold guards (gid < n): the warps inside pass whole.
  std::vector<std::string> ThresholdBy;
  /// Guards on per-lane values the engine cannot compute (data loaded from
  /// memory, floating point), assumed taken in the bound pass.
  std::vector<std::string> DataGuards;
  unsigned Evaluations = 0;
  unsigned RepeatedIterations = 0;
  std::shared_ptr<const std::vector<GuardPart>> GuardStore = sharedGuardParts(A);
  const std::vector<GuardPart> &Guards = *GuardStore;
  /// Per part of Guards that is uniform and reads no loop counter, its
  /// outcome in this pass once known (guardsTaken's PartOutcome; -1 not yet):
  /// the same in every lane, warp and iteration.
  std::vector<int8_t> PassOutcomes = std::vector<int8_t>(Guards.size(), -1);
  /// Outcomes of keyed lane-dependent parts (GuardPart::LaneNumbers) in this
  /// pass, by part and the lane's key.
  std::map<std::pair<size_t, std::vector<int64_t>>, std::pair<int8_t, std::optional<int64_t>>>
      LaneKeyedOutcomes;
  /// Values of the nodes that read no threadIdx, for the whole pass
  /// (UniformMemo::Shared of each warp's memo).
  UniformMemo PassMemo;
  std::map<unsigned, AffineCounter> Affine = affineCountersOf(A, Loops);
  std::set<unsigned> SkippedLoops, SkippedIfWarpAgrees;
  std::set<unsigned> Needed = neededCounters(A, Loops, &SkippedLoops, &SkippedIfWarpAgrees);
  /// Per skipped loop, the counters its condition reads (conditionReads);
  /// and the loops' trip counts (tripCount), by loop, warp and the values of
  /// the outer counters they read.
  std::map<unsigned, LoopReads> ConditionReads;
  std::map<std::vector<int64_t>, std::optional<uint64_t>> TripCounts;
  /// A skipped loop whose trip count is not known was passed through: the
  /// block sums are per iteration of it.
  bool RanUniformLoopOnce = false;
  /// The bound pass took a counter updated from a symbolic one as symbolic
  /// too (whether the lane is still in the loop).
  bool DerivedSymbolic = false;
  /// Enumerating a loop with an unknown bound: lanes whose addresses fall
  /// outside the array are left out (a correct program does not run them).
  bool PruneOutOfBounds = false;
  unsigned Pruned = 0;
  /// With values given to unknowns: a lane addressing outside a sized array
  /// means those values are not ones a correct program runs with.
  bool NoteOutsideArray = false;
  bool WentOutsideArray = false;
  /// collectLeaves of guard and loop conditions, asked per lane and
  /// iteration: computed once per expression.
  std::map<const SymExpr *, SymLeaves> LeavesCache;
  /// Boundary warps: choices of threshold sides left to try, and whether
  /// some were not tried.
  unsigned EdgeBudget = 1u << 16;
  bool EdgeIncomplete = false;
  int ScanEdges = -1; ///< scansBoundary, once computed
  /// The threshold guards a boundary scan varies, and their comparisons
  /// (scansBoundary fills them once per access).
  std::vector<const GuardPart *> EdgeParts;
  std::vector<const SymExpr *> EdgeAtoms;
  const SymLeaves &leavesOf(const SymRef &E) {
    auto [It, New] = LeavesCache.try_emplace(E.get());
    if (New)
      It->second = collectLeaves(E);
    return It->second;
  }
  unsigned threads() const {
    return Shape.Dim[0] ? Shape.Dim[0] * Shape.Dim[1] * Shape.Dim[2] : Shape.Warps * WarpSize;
  }
};

/// Bytes of storage of a sized array with its innermost dimension padded
/// by Padding elements (0: an unsized extern array).
uint64_t storageBytes(const SharedArray &A, unsigned Padding);

/// The expected cost of a data-dependent access on random data
/// (RandomData.cpp); std::nullopt when its address is not a function of the
/// loaded values the engine can compute.
std::optional<RandomDataCost> randomDataCost(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                             const std::vector<SharedArray> &Arrays,
                                             const EvalShape &Shape, BankArch Arch);

/// The situation of lane L of warp W (false: no such thread).
bool laneEnv(const Context &C, unsigned W, unsigned L, LaneEnv &Env);

/// With the block shape not known (a 1-D block of a multiple of 32 threads,
/// up to Env.MaxThreads: blockDim.x is an unknown), a condition decided by blockDim.x
/// alone: whether it holds at every width of a block that has the thread of
/// Env (true), at none (false), or at some only (unset; also when other
/// unknowns decide it). What cannot happen at any width considered is then
/// not taken as possible (s = 2048 in a loop 's < blockDim.x').
std::optional<bool> atEveryBlockWidth(const SymExpr &Cond, const LaneEnv &Env);

struct Failure {
  VerdictStatus Status = VerdictStatus::Unknown;
  std::string Reason;
  bool FromGuard = false;
};

struct WarpResult {
  bool Ok = false;
  Failure Fail;
  WarpAccess WA;
  std::array<std::array<unsigned, 3>, WarpSize> Tids{};
  std::vector<std::string> Params;
  /// The costliest boundary warp of this warp state (BoundaryWarps.cpp).
  std::optional<EdgeWarp> Edge;
};

/// A guard of thresholds (gid < n, row < n && col < n, through negations):
/// it splits the block at a boundary, the warps inside pass whole.
bool isThreshold(const SymExpr &E, unsigned Depth = 0);

/// Boundary blocks (BoundaryWarps.cpp): the lanes of R's warp state that the
/// threshold guards leave for each choice of their block-uniform sides; the
/// costliest such warp whose wavefronts exceed the source page's ideal
/// relatively more than R's do, if any. Bounded: C.EdgeBudget choices per
/// access, after which C.EdgeIncomplete is set and the rest not checked.
std::optional<EdgeWarp> boundaryWarp(Context &C, unsigned W,
                                     const std::array<LoopValues, WarpSize> *Vals,
                                     const WarpResult &R);
/// V has a boundary warp (V.Edge): the cost holds in full tiles only; the
/// status becomes Bound (and not per execution), the reason says why.
void boundaryBlocks(const Context &C, AccessVerdict &V);
/// Whether a boundary scan can change the verdict of C's access (a plain
/// 8- or 16-byte load or store under a threshold guard, declared layout);
/// fills C.EdgeParts and C.EdgeAtoms.
bool scansBoundary(Context &C);
/// Wavefronts over the source page's ideal: which boundary warp is costlier.
inline unsigned excessOf(const EdgeWarp &W) { return W.Cost.Wavefronts - W.PageIdeal; }

/// Is lane Env active under the guards? Sets F (and returns false) when it
/// cannot be decided.
/// EqualityKeys (optional) receives, for each undecided guard `f == u` with
/// u warp-uniform, the lane's value of f - u without u: lanes whose keys
/// differ cannot both pass it.
/// FirstPart: the parts before it are known to hold in this lane.
bool guardsTaken(Context &C, const LaneEnv &Env, bool &Taken, Failure &F,
                 std::vector<int64_t> *EqualityKeys = nullptr, size_t FirstPart = 0);
/// The guard parts a whole warp decides by plain numbers, in order: Live
/// (the lanes of Lanes that may run the access) loses the lanes a part
/// leaves out; returns the first part some lane of Live cannot decide so
/// (guardsTaken goes on from there), or the number of parts.
size_t guardsByNumbers(Context &C, const WarpLanes &Lanes, uint32_t &Live);
WarpResult evalWarp(Context &C, unsigned W, const std::array<LoopValues, WarpSize> *Vals,
                    uint32_t Alive);

/// The active lanes of R that address bytes outside its (sized) array.
uint32_t lanesOutsideArray(const Context &C, const WarpResult &R);
/// More excess wavefronts (then a higher degree) than B.
bool worse(const BankCost &A, const BankCost &B);
/// Lane Env's address, found data-dependent (A): the same address with the
/// loaded values left out when each enters it only in whole rows of the
/// banks, so that the lane's bank is the same whatever they are; otherwise A.
/// The warp's cost is then the same for every value when no two of its lanes
/// share a bank (banksDistinct).
LaneValue loadedRowsDropped(Context &C, const LaneEnv &Env, LaneValue A);
bool banksDistinct(const WarpAccess &WA, BankArch Arch);

/// Collects warp results into the verdict: worst warp and case, block sums.
struct Collector {
  Context &C;
  AccessVerdict V;
  bool Any = false;
  std::map<std::vector<unsigned>, size_t> CaseIndex;
  Failure Fail;
  bool Failed = false;

  explicit Collector(Context &C) : C(C) {}

  /// Label names the case (Point's counters); asked only where it is kept.
  void add(const WarpResult &R, unsigned W, const std::vector<unsigned> *Point,
           llvm::function_ref<std::string()> Label);

};

/// Pass 2 for warp W (LoopEnumeration.cpp): runs the loops enclosing the
/// access from Level inwards; false (with Why) when one cannot be enumerated.
bool enumerate(Context &C, Collector &Out, unsigned W, size_t Level,
               std::array<LoopValues, WarpSize> &Vals, uint32_t Alive,
               std::vector<unsigned> &Point, std::string &Why);

AccessVerdict finish(Context &C, Collector &Col, VerdictStatus Status);
/// One pass: parametric (no enumeration) or enumerated.
bool runPass(Context &C, bool Enumerate, Collector &Col, std::string &NotEnumerable);

/// Passes 1-3 (and their bound variants) with the unknowns in Values fixed.
struct PassesResult {
  std::optional<AccessVerdict> Verdict; ///< unset: failed, see Fail
  Failure Fail;
  bool FailedInBoundPass = false; ///< guards decided by unknowns were already bounded
  bool OutsideArray = false;      ///< some lane addressed outside a sized array
  unsigned Evaluations = 0;       ///< warp evaluations spent
};
PassesResult boundPasses(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                         const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                         BankArch Arch, LayoutChange Change,
                         const std::map<std::string, int64_t> *Values = nullptr);

/// Pass 4: one uniform unknown enters the address affinely; its values are
/// enumerated over one period of the bank pattern plus the small values.
std::optional<AccessVerdict> parameterCases(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                            const std::vector<SharedArray> &Arrays,
                                            const EvalShape &Shape, BankArch Arch,
                                            LayoutChange Change, bool BoundGuards);
/// Pass 5 (4-byte accesses): isl decides for which values of several
/// uniform unknowns two lanes conflict.
std::optional<AccessVerdict> islParameterSet(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                             const std::vector<SharedArray> &Arrays,
                                             const EvalShape &Shape, BankArch Arch, bool BoundGuards);

/// Pass 6: a uniform unknown that is a shift amount (1 << log2N: 0 to 31)
/// or a power of two by its use as a mask (x & (size - 1)) enters the
/// address non-linearly; every such value is analysed. An unknown that only
/// starts a lane's loop counter has its small values tried, kept when one
/// costs the most any access can.
std::optional<AccessVerdict> powerOfTwoCases(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                             const std::vector<SharedArray> &Arrays,
                                             const EvalShape &Shape, BankArch Arch,
                                             LayoutChange Change);

/// Pass 7: a clamp of a per-lane value by a warp-uniform unknown
/// (max(tid - 1, lo), min(i, n - 1)): every value of the bound that moves
/// a lane, from below the warp's lowest value to above its highest.
std::optional<AccessVerdict> clampCases(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                        const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                                        BankArch Arch, LayoutChange Change, bool BoundGuards);

} // namespace cbl::warp

#endif
