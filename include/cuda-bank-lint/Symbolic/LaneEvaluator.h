//===- LaneEvaluator.h - Evaluate a SymExpr for one thread -----------------===//
//
// Evaluates an expression for one concrete thread (threadIdx known), with C++
// integer semantics in each node's type. Warp-uniform unknowns (kernel
// parameters, blockIdx, loop counters) are carried as a polynomial with
// integer coefficients (products of unknowns are terms of their own, "a*b");
// a non-linear operation on uniform values only (n / 2) is an opaque uniform
// term "(n / 2)"; a non-linear operation mixing the lane with an unknown
// makes the result unknown, with the reason. Lane-varying unknowns make it
// unknown at once.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_LANEEVALUATOR_H
#define CUDA_BANK_LINT_SYMBOLIC_LANEEVALUATOR_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include <array>
#include <map>
#include <optional>
#include <tuple>

namespace cbl {

/// Why a value could not be computed.
enum class UnknownKind {
  None,
  DataDependent, ///< depends on a value loaded from memory that differs per lane
  Varying,       ///< depends on another lane-varying value the engine cannot model
  NonLinear,     ///< a warp-uniform unknown enters a non-linear operation
  Undefined,     ///< division by zero or an oversized shift
};

struct LaneValue {
  int64_t C = 0;                          ///< known part
  std::map<std::string, int64_t> Terms;   ///< uniform unknown name -> coefficient
  UnknownKind Unknown = UnknownKind::None;
  std::string Why;                        ///< set when Unknown != None
  bool known() const { return Unknown == UnknownKind::None; }
  bool exact() const { return known() && Terms.empty(); }
};

/// A lane-varying loop counter that advances by the same warp-uniform step in
/// every iteration (i = threadIdx.x; ...; i += blockDim.x): in iteration k
/// it is Init + k * Step, k being the uniform unknown named Iteration.
struct AffineCounter {
  SymRef Init, Step;
  std::string Iteration;
};

/// A layout of one array to evaluate instead of the declared one, to check a
/// fix without re-parsing: its innermost dimension padded by Padding
/// elements, or its rows XOR-swizzled in chunks of SwizzleBytes (16: the
/// 16-byte chunk c of row r moves to c ^ (r % 8); 4: word c moves to
/// c ^ (r % 32)), within each 128 bytes of a row.
struct LayoutChange {
  int Array = -1; ///< -1: the declared layouts
  unsigned Padding = 0;
  unsigned SwizzleBytes = 0;
  /// The padding of array Id's innermost dimension (0 for other arrays).
  unsigned paddingOf(unsigned Id) const { return int(Id) == Array ? Padding : 0; }
  /// Whether array Id's rows are swizzled.
  bool swizzles(unsigned Id) const { return SwizzleBytes && int(Id) == Array; }
};

/// The bytes of one row of A (its innermost dimension) when its rows can be
/// XOR-swizzled in 128-byte segments (a static array of two or more
/// dimensions whose rows are a multiple of 128 bytes); 0 otherwise.
uint64_t swizzleRowBytes(const SharedArray &A);

/// Values of nodes that do not read threadIdx.x or a lane-varying value or
/// counter, kept while the lanes of one warp are evaluated: such a node has
/// one value in every lane with the same threadIdx.y and .z that runs the
/// same iterations (every lane of the warp, when its rows are whole warps),
/// so it is computed once. Keyed by the node, the threadIdx.y/z and loop
/// counters it reads, and what else the value depends on (the block shape,
/// the maps of values given to unknowns and nodes, which must not change
/// while the memo is used).
class UniformMemo {
public:
  /// The threadIdx axes a node the memo keeps may read (y and z).
  static constexpr unsigned RowAxes = 6;
  struct Key {
    const SymExpr *Node;
    const void *NodeValues, *UniformValues;
    std::array<int64_t, 3> BlockDim;
    std::array<int64_t, 2> TidYZ; ///< -1 for an axis the node does not read
    unsigned WarpUniformAxes;
    std::vector<int64_t> Counters;
    bool operator<(const Key &O) const {
      return std::tie(Node, NodeValues, UniformValues, BlockDim, TidYZ, WarpUniformAxes, Counters) <
             std::tie(O.Node, O.NodeValues, O.UniformValues, O.BlockDim, O.TidYZ,
                      O.WarpUniformAxes, O.Counters);
    }
  };
  std::map<Key, LaneValue> Values;
  /// Outcomes of guard conditions decided once per warp (keyed like
  /// Values), as their users code them, with a value they keep beside.
  std::map<Key, std::pair<int8_t, std::optional<int64_t>>> Outcomes;
  /// When every lane of the warp has the same loop counters, one entry per
  /// guard condition (-1: not decided yet; else empty): a condition that
  /// reads no per-lane value then has one outcome in the warp, kept here by
  /// its index.
  std::vector<std::pair<int8_t, std::optional<int64_t>>> WarpOutcomes;
  /// The loop counters (LoopCounter::Id) each node reads, in a fixed order
  /// (kept in Shared when there is one).
  const std::vector<unsigned> &countersOf(const SymExpr &E);
  /// E's key in the situation Env.
  Key keyOf(const SymExpr &E, const struct LaneEnv &Env);
  /// Where nodes that read no threadIdx at all are kept instead, when no
  /// values are given to nodes: a memo that outlives this one (the whole
  /// pass's), whose values of unknowns do not change while it is used.
  UniformMemo *Shared = nullptr;

private:
  std::map<const SymExpr *, std::vector<unsigned>> Counters;
};

/// The concrete situation of one thread.
struct LaneEnv {
  unsigned Tid[3] = {0, 0, 0};
  std::optional<unsigned> BlockDim[3];       ///< unset = warp-uniform unknown
  /// The most threads of a block whose blockDim.x is unset (1-D).
  unsigned MaxThreads = 1024;
  /// threadIdx axes with one value in every lane of this thread's warp (bit
  /// 1: y when blockDim.x is a multiple of 32; bit 2: z when blockDim.x *
  /// blockDim.y is): a non-linear operation on them and uniform unknowns is
  /// a uniform unknown of the warp, not a dead end.
  unsigned WarpUniformAxes = 0;
  const std::vector<SharedArray> *Arrays = nullptr;
  /// A layout to evaluate instead of the declared one (a fix, checked
  /// without re-parsing).
  LayoutChange Change;
  /// Values of enumerated loop counters for this thread (LoopId -> value);
  /// counters not bound here stay unknowns.
  const std::map<unsigned, int64_t> *LoopValues = nullptr;
  /// Values given to warp-uniform unknowns by name (parameter enumeration).
  const std::map<std::string, int64_t> *UniformValues = nullptr;
  /// Values given to warp-uniform subexpressions (the bound of a clamp,
  /// max(tid - 1, lo), enumerated), by node.
  const std::map<const SymExpr *, int64_t> *NodeValues = nullptr;
  /// Lane-varying counters not bound in LoopValues, as functions of the
  /// iteration (LoopCounter::Id -> form).
  const std::map<unsigned, AffineCounter> *AffineCounters = nullptr;
  /// Where the lanes of one warp share the values of warp-uniform nodes
  /// (unset: each lane computes them).
  UniformMemo *Memo = nullptr;
};

/// Whether counter LC of loop L advances by a warp-uniform step that does
/// not depend on the loop's counters; the form, named after L's line.
std::optional<AffineCounter> affineCounterOf(const LoopInfo &L, const LoopCounter &LC);

/// Polynomial degree of E in the uniform unknown Name (1 = affine), or -1
/// when Name enters a non-polynomial operation (/, %, &, comparisons...).
int degreeIn(const SymExpr &E, const std::string &Name);

/// E's value in thread Env: a number when every leaf is known (computed
/// without building terms), else the symbolic form below.
LaneValue evaluateLane(const SymExpr &E, const LaneEnv &Env);
/// The same, always through the symbolic form (numbers, warp-uniform terms,
/// or unknown with the reason); evaluateLane's numeric path must agree with
/// it, which the unit tests check.
LaneValue evaluateSymbolically(const SymExpr &E, const LaneEnv &Env);

/// Counter Id's value in Env (LoopValues), INT64_MIN where it has none: a
/// memo key's part.
int64_t counterValue(const LaneEnv &Env, unsigned Id);

/// The lanes of one warp (WarpNumbers.cpp): what they share (Common: block
/// shape, arrays, layout, values of unknowns and nodes), and each lane's
/// threadIdx and loop counters.
struct WarpLanes {
  static constexpr unsigned Size = 32;
  const LaneEnv *Common = nullptr;
  std::array<std::array<unsigned, 3>, Size> Tid{};
  std::array<const std::map<unsigned, int64_t> *, Size> Loops{};
  bool SameLoops = true; ///< every lane has the counters of the first one asked
};
/// E's value in every lane of Mask, as evaluateLane's numeric path gives it
/// lane by lane (each node visited once for the warp); false when some
/// lane's value is not a plain number.
bool evaluateWarpNumbers(const SymExpr &E, const WarpLanes &W, uint32_t Mask,
                         std::array<int64_t, WarpLanes::Size> &Out);

/// Sets Env to thread T (linear id, x fastest) of a block of shape Dim:
/// threadIdx from T, blockDim from Dim.
void setThread(LaneEnv &Env, unsigned T, const std::array<unsigned, 3> &Dim);

/// Elements between consecutive indices of dimension Dim of array A, with the
/// innermost dimension padded by Padding elements.
int64_t rowStrideOf(const SharedArray &A, unsigned Dim, unsigned Padding);

} // namespace cbl

#endif
