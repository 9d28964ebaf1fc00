//===- WarpAnalysis.h - Bank cost of an access for every warp of a block --===//
//
// Evaluates one SharedAccess for each warp of the block (32 consecutive linear
// thread ids, x fastest), computes each warp's active lanes from the guards
// and each lane's byte address, asks the bank model for the cost, and keeps
// the worst warp. Six passes, each exact where it succeeds:
//  1. parametric: loop counters and other warp-uniform unknowns stay symbolic
//     (a block-stride counter i = threadIdx.x + k * blockDim.x in iteration
//     k). When they reach the address only as one common additive offset in
//     whole 4-byte words, the cost provably does not depend on them (the bank
//     model is invariant under such shifts) and the verdict holds for all
//     values;
//  2. enumerated: counted loops whose bounds are known (given the block
//     shape) are run iteration by iteration per lane, with exact SIMT
//     semantics (a lane that left the loop stays out), and each iteration is
//     a case of the verdict;
//  3. bound: when which lanes run an access depends on a warp-uniform unknown
//     (if (x < width)), the cost with every lane active is an upper bound:
//     removing lanes never adds distinct words to a bank. Loops whose bound
//     is unknown are enumerated until their counters cycle; a counter that
//     starts at an unknown value stays symbolic; lanes that would index
//     outside a sized array are left out (a correct program does not run them);
//  4. parameter cases (ParameterPasses.cpp): when the address is affine in
//     one warp-uniform unknown P with lane-dependent coefficients
//     (s[tid * stride]), the cost is periodic in P (128 bytes / gcd of P's
//     coefficients) once P exceeds the spread of the other terms; evaluating
//     one period plus the small values decides every P >= 0;
//  5. isl (4-byte accesses, any number of unknowns): the set of parameter
//     values for which two lanes access different words of one bank; empty
//     means conflict-free for every value (tried before pass 4, since it is
//     the stronger answer), otherwise its simplified form is the condition;
//  6. few values (PowerOfTwoCases.cpp): an unknown that meets the lane
//     non-linearly but is a shift amount (0 to 31: exhaustive) or a mask
//     length (x & (size - 1): every power of two, assumed and said so) is
//     fixed to each value in turn and passes 1-3 decide each.
// Every pass is bounded (iterations, evaluations); exhaustion is "unknown".
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_WARPANALYSIS_H
#define CUDA_BANK_LINT_SYMBOLIC_WARPANALYSIS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/BankModel/BankModel.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

class VerdictMemo; // VerdictMemo.h: the verdicts of inputs seen before


/// One enumerated iteration (or combination of iterations of nested loops).
struct VerdictCase {
  std::string Label;      ///< "s=16", or "iteration 3" for per-lane counters
  BankCost Cost;          ///< worst warp of this case
  unsigned Warp = 0;
  unsigned ActiveLanes = 0;
};

/// What Nsight Compute adds up per source line for one block: the access's
/// wavefronts and ideal, and for an atomic run as a compare-and-swap loop
/// the loop's own loads (counted by the hardware as loads of that line).
struct BlockSums {
  uint64_t Wavefronts = 0, Ideal = 0;
  uint64_t LoopLoadWavefronts = 0, LoopLoadIdeal = 0;
  BlockSums &operator+=(const BlockSums &O) {
    Wavefronts += O.Wavefronts;
    Ideal += O.Ideal;
    LoopLoadWavefronts += O.LoopLoadWavefronts;
    LoopLoadIdeal += O.LoopLoadIdeal;
    return *this;
  }
  BlockSums operator-(const BlockSums &O) const {
    return {Wavefronts - O.Wavefronts, Ideal - O.Ideal, LoopLoadWavefronts - O.LoopLoadWavefronts,
            LoopLoadIdeal - O.LoopLoadIdeal};
  }
  BlockSums operator*(uint64_t K) const {
    return {Wavefronts * K, Ideal * K, LoopLoadWavefronts * K, LoopLoadIdeal * K};
  }
};

/// A warp of a boundary block (a partial tile: a threshold guard such as
/// `tx <= nLast` removes lanes in some blocks only) whose wavefronts exceed
/// Nsight Compute's source-page ideal relatively more than the full warp's.
/// The hardware's bank conflicts never grow with fewer lanes, but an 8- or
/// 16-byte access is served per half- or quarter-warp: lanes spread over
/// phases keep its wavefronts while the page's ideal, the bytes packed,
/// drops (sourcePageIdeal).
struct EdgeWarp {
  BankCost Cost;          ///< the hardware's, for the lanes left
  unsigned PageIdeal = 0; ///< the source page's ideal for them
  unsigned Warp = 0;
  uint32_t Mask = 0;      ///< the lanes left
  uint32_t FullMask = 0;  ///< the lanes of the full warp
};

/// What a data-dependent access costs on random data: each lane's loaded
/// value independent and uniform over the values the program allows (all
/// 32-bit values when the index masks or reduces them, else those that keep
/// the address inside the array), averaged over Samples warps of a seeded
/// generator (Symbolic/RandomData.cpp).
struct RandomDataCost {
  double Wavefronts = 0, Ideal = 0; ///< expected per warp request
  BankCost Worst;                   ///< when the values collide in one bank
  /// Worst is a warp the values can make (every lane's address comes from
  /// the values alone); false: the costliest of the warps drawn.
  bool WorstReachable = false;
  unsigned Samples = 0;
  uint32_t Lanes = 0;               ///< the lanes of warp 0 that run it
  std::vector<std::string> Values;  ///< the loaded values, as written ("in[t]")
  /// Unknowns in non-linear positions ((k + r) & 255): the estimate is the
  /// same (within 5 %) at each of their values tried, 0 to 31.
  std::vector<std::string> Regardless;
  RandomDraw Draw = RandomDraw::LoadedValues;
  uint64_t Elements = 0;            ///< of the array, at the access's width (ArrayElement)
};

struct AccessVerdict {
  VerdictStatus Status = VerdictStatus::Unknown;
  std::string Reason;               ///< why not exact
  BankCost Cost;                    ///< of the worst warp (and case)
  unsigned Warp = 0;                ///< the worst warp
  unsigned WarpsEvaluated = 0;
  uint32_t Mask = 0;                ///< active lanes of the worst warp
  std::array<uint64_t, WarpSize> Addr{}; ///< byte offsets of the worst warp
  std::array<std::array<unsigned, 3>, WarpSize> Tid{}; ///< threadIdx per lane
  std::vector<std::string> Parameters; ///< uniform unknowns the verdict holds for
  std::vector<std::string> AssumedUniform; ///< uniform guards assumed taken
  std::vector<std::string> BoundBy; ///< unknowns that decide which lanes run it
  /// Unknowns of threshold guards (gid < n) that split the block at a
  /// boundary: the cost is exact for the warps whose lanes all pass.
  std::vector<std::string> BoundaryBy;
  std::string Boundary;             ///< what that means, for the user
  bool NeverExecuted = false;       ///< no thread of the block runs it
  std::vector<VerdictCase> Cases;   ///< enumerated iterations, in order
  /// Warp iterations of an innermost loop that repeated an earlier case's
  /// state (counters the address depends on, active lanes): counted in the
  /// block sums, not listed as cases.
  uint64_t RepeatedIterations = 0;
  std::string WorstCase;            ///< label of the worst case
  /// When the cost depends on one warp-uniform unknown (s[tid * stride]):
  /// the conditions under which each degree occurs, e.g. "2-way when
  /// 'stride' is even"; the costs above are the worst over its values.
  std::string Condition;
  /// Sums over every warp of one block and every enumerated iteration (what
  /// Nsight Compute adds up per source line); BlockIterations says how many
  /// executions that covers, 0 when a loop's trip count is unknown.
  BlockSums Block;
  uint64_t BlockIterations = 1;
  /// Status Bound only because which iterations of a loop run is not known
  /// (its bound is a kernel argument), and every iteration that may run
  /// costs the same: the cost of each execution is exact, their number is
  /// not (Cost and the ratio of the block sums hold per execution).
  bool PerExecution = false;
  /// The costliest boundary warp, when one costs relatively more than the
  /// full warps (then the status is not Exact: the cost holds in full tiles).
  std::optional<EdgeWarp> Edge;
  /// Status DataDependent: the expected cost on random data, when the
  /// address is a computable function of the loaded values.
  std::optional<RandomDataCost> Random;
};

/// The worst warp's instruction as the bank model sees it (the access's
/// width, direction and rule; V's active lanes and byte offsets): V.Cost is
/// costOf of it.
WarpAccess worstWarpAccess(const SharedAccess &Access, const AccessVerdict &V);

/// How the block is laid out for evaluation.
struct EvalShape {
  std::array<unsigned, 3> Dim{{0, 1, 1}}; ///< Dim[0] == 0: 1-D, unknown size
  unsigned Warps = 1;
};

/// The warps to evaluate: all warps of a known shape; for an unknown shape, a
/// 1-D block of up to Shape.MaxThreads threads (1024, or __launch_bounds__'s
/// maximum) whose blockDim.x is a warp-uniform unknown.
EvalShape evalShapeFor(const BlockShape &Shape);

/// Analyses Access (of a function whose counted loops are Loops) over every
/// warp. PaddedArray/Padding evaluate a layout with the innermost dimension of
/// that array padded (for fix-its).
AccessVerdict analyseAccess(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                            const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                            BankArch Arch, LayoutChange Change = {});

/// For a block of unknown shape: if the access depends on threadIdx.y/z, the
/// answer depends on blockDim.x; analyses it at the widths people launch
/// (multiples of 32, the extent of the dimension threadIdx.x indexes; whole
/// warps spread over rows, Shape.MaxThreads threads at most), or at the one
/// a launch fixes (then also when y and z are not read), and returns the
/// worst, with one case per run of widths; a conflict at only some widths is
/// a bound with that condition. Otherwise the 1-D analysis of analyseAccess. With a Memo, each
/// analyseAccess goes through it (UnknownShapes.cpp).
AccessVerdict analyseAccessAnyShape(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                                    const std::vector<SharedArray> &Arrays, const BlockShape &Shape,
                                    BankArch Arch, LayoutChange Change = {},
                                    VerdictMemo *Memo = nullptr);

/// Whether Access has no excess wavefronts (status exact or bound) for every
/// shape analyseAccessAnyShape considers; stops at the first shape with a
/// conflict (a quick test for candidate fixes).
bool conflictFreeAnyShape(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                          const std::vector<SharedArray> &Arrays, const BlockShape &Shape,
                          BankArch Arch, LayoutChange Change = {}, VerdictMemo *Memo = nullptr);

/// The byte offset of an access as C text, with array strides resolved, e.g.
/// "threadIdx.x * 132 + threadIdx.y * 4".
std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays);
/// The same at a known block shape: blockDim its extents, threadIdx.y and .z
/// 0 where the block has one row or slice ("threadIdx.x % 32" for
/// "(threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x) % 32"
/// at 256x1x1); and where it reads shorter, with constant factors
/// multiplied out and the constants of a sum added up ("C * 4 + i * 8" for
/// "C * 4 + i * 2 * 4"): what a finding shows.
std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays,
                         const BlockShape &Shape);

} // namespace cbl

#endif
