//===- SymExpr.h - Symbolic integer expressions over the thread index -----===//
//
// The front end translates every index, guard and pointer offset it sees into
// this small expression language; the symbolic layer evaluates it per lane.
// It is deliberately independent of Clang so that checks and tests can build
// and inspect expressions without an AST.
//
// Leaves are constants, threadIdx/blockDim components, the padded row stride of
// a shared array (so a padding fix can be re-evaluated without re-parsing), and
// unknowns. An unknown is either warp-uniform (kernel parameters, blockIdx, loop
// counters with uniform bounds) or lane-varying (loads from memory, anything the
// front end cannot model); each carries the reason a user will be shown.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_ACCESSMODEL_SYMEXPR_H
#define CUDA_BANK_LINT_ACCESSMODEL_SYMEXPR_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cbl {

/// C++ integer type of a value: width in bits and signedness. Arithmetic is
/// evaluated in this type, so unsigned wrap-around and truncation are exact.
struct IntType {
  unsigned Bits = 32;
  bool Signed = true;
  static IntType i32() { return {32, true}; }
  static IntType u32() { return {32, false}; }
  static IntType i64() { return {64, true}; }
  static IntType u64() { return {64, false}; }
  static IntType boolean() { return {1, false}; }
  bool operator==(const IntType &O) const { return Bits == O.Bits && Signed == O.Signed; }
};

enum class Axis : unsigned { X = 0, Y = 1, Z = 2 };
const char *axisName(Axis A);

enum class ExprKind {
  Const,       ///< an integer constant
  ThreadIdx,   ///< threadIdx.{x,y,z}
  BlockDim,    ///< blockDim.{x,y,z}
  RowStride,   ///< elements between consecutive indices of one dimension of a shared array
  Uniform,     ///< an unknown value, the same for all lanes of a warp
  Varying,     ///< an unknown value that may differ between lanes
  LoopVar,     ///< a counter of an enclosing loop (LoopCounter::Id == LoopId)
  Unary,
  Binary,
  Select,      ///< Cond ? A : B
  Cast,        ///< conversion to Type
  Call,        ///< a host program's function (Fn) of the operands
};

enum class Opcode {
  // unary; Log2 is floor(log2(x)), what (int)log2(n) gives for n >= 1 (not
  // folded for n <= 0, where converting the logarithm is undefined)
  Neg, Not, LNot, Log2,
  // binary arithmetic
  Add, Sub, Mul, Div, Rem, Shl, Shr, And, Or, Xor, Min, Max,
  // comparisons and logic (result type bool)
  LT, LE, GT, GE, EQ, NE, LAnd, LOr,
};
const char *opcodeSpelling(Opcode Op);
bool isComparison(Opcode Op);

struct SymExpr;
using SymRef = std::shared_ptr<const SymExpr>;
struct HostFunction;

/// The largest expression tracked (as a tree): beyond it (a sorting network
/// unrolled into nested selects doubles at each step) a value is an unknown,
/// so that every computation on expressions stays bounded.
constexpr uint32_t MaxTreeSize = 4096;

/// The rendering of a node, made once on first use and kept (a node is
/// immutable): the evaluator names warp-uniform non-linear values by their
/// key text (keyText), once per lane. Safe to read from several threads; a copy starts
/// empty.
class TextCache {
  mutable std::atomic<const std::string *> Text{nullptr};

public:
  TextCache() = default;
  TextCache(const TextCache &) {}
  TextCache &operator=(const TextCache &) = delete;
  ~TextCache() { delete Text.load(); }
  /// The text, made by Make on the first call.
  template <class F> const std::string &get(F Make) const {
    if (const std::string *T = Text.load(std::memory_order_acquire))
      return *T;
    auto *New = new std::string(Make());
    const std::string *Expected = nullptr;
    if (Text.compare_exchange_strong(Expected, New, std::memory_order_acq_rel))
      return *New;
    delete New; // another thread made it first
    return *Expected;
  }
};

/// One node. Immutable once built; share freely.
struct SymExpr {
  ExprKind Kind = ExprKind::Const;
  IntType Type;
  int64_t Value = 0;        ///< Const: the value (already wrapped to Type)
  Axis Dim = Axis::X;       ///< ThreadIdx/BlockDim
  unsigned ArrayId = 0;     ///< RowStride: which shared array
  unsigned DimIndex = 0;    ///< RowStride: which dimension (0 = outermost)
  std::string Name;         ///< Uniform/Varying/LoopVar: source spelling ("n", "blockIdx.x")
  std::string Reason;       ///< Uniform/Varying/LoopVar: why it is unknown
  unsigned LoopId = 0;      ///< LoopVar: which counter (LoopCounter::Id)
  bool LaneVarying = false; ///< LoopVar: the counter differs between lanes
  /// Some leaf is a loop counter (its value depends on the iteration).
  bool ReadsCounter = false;
  /// The threadIdx axes some leaf reads (bit 0: x, 1: y, 2: z); set by the
  /// builders.
  uint8_t ThreadAxes = 0;
  /// Some leaf differs between threads other than through threadIdx (a
  /// lane-varying value or counter); set by the builders.
  bool ReadsLaneValue = false;
  /// Some leaf may differ between threads (read through isThreadVarying).
  bool threadVarying() const { return ThreadAxes || ReadsLaneValue; }
  /// It differs between threads only through threadIdx on the axes in Axes
  /// (bit 0: x, 1: y, 2: z): the same in threads that agree on those.
  bool readsThreadOnlyOn(unsigned Axes) const { return !ReadsLaneValue && !(ThreadAxes & ~Axes); }
  /// Nodes of the expression written out as a tree (shared operands counted
  /// each time, saturating): what printing or evaluating it costs. The
  /// builders replace an expression larger than MaxTreeSize by an unknown.
  uint32_t TreeSize = 1;
  uint64_t Hash = 0;        ///< of the structure, to tell two such unknowns apart
  Opcode Op = Opcode::Add;  ///< Unary/Binary
  std::vector<SymRef> Ops;  ///< operands (Select: cond, then, else; Call: arguments)
  std::shared_ptr<const HostFunction> Fn; ///< Call: the function (HostFunction.h)
  TextCache Text;           ///< toString's result, once asked
  TextCache Key;            ///< keyText's result, once asked

  static SymRef constant(int64_t V, IntType T = IntType::i64());
  static SymRef threadIdx(Axis A);
  static SymRef blockDim(Axis A);
  static SymRef rowStride(unsigned ArrayId, unsigned DimIndex);
  static SymRef uniform(std::string Name, std::string Reason, IntType T);
  static SymRef varying(std::string Name, std::string Reason, IntType T);
  static SymRef loopVar(unsigned LoopId, std::string Name, std::string Reason, bool LaneVarying,
                        IntType T);
  static SymRef unary(Opcode Op, SymRef A, IntType T);
  static SymRef binary(Opcode Op, SymRef A, SymRef B, IntType T);
  static SymRef select(SymRef C, SymRef A, SymRef B, IntType T);
  static SymRef cast(SymRef A, IntType T);
  /// Fn(Args), folded to its value when every argument is a constant and
  /// the function gives one.
  static SymRef call(std::shared_ptr<const HostFunction> Fn, std::vector<SymRef> Args, IntType T);

  bool isConst() const { return Kind == ExprKind::Const; }
};

/// E with its operands replaced by Ops (same kind, opcode and type), folded
/// by the builders; E itself when it has no operands.
SymRef withOperands(const SymRef &E, const std::vector<SymRef> &Ops);

/// E with each leaf L replaced by Leaf(L) (kept where Leaf gives null),
/// rebuilt through withOperands only where something changed.
SymRef replaceLeaves(const SymRef &E, const std::function<SymRef(const SymRef &)> &Leaf);

/// E without the conversions around it (the node a cast chain wraps).
const SymExpr &stripCasts(const SymExpr &E);

/// floor(log2(V)) for V >= 1.
inline int64_t floorLog2(uint64_t V) { return 63 - __builtin_clzll(V); }

/// Wraps V to the range of T (two's complement truncation, sign or zero
/// extension back to 64 bits).
inline int64_t wrapToType(int64_t V, IntType T) {
  if (T.Bits >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << T.Bits) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (T.Signed && T.Bits > 1 && (U >> (T.Bits - 1)))
    U |= ~Mask;
  return int64_t(U);
}

/// Human-readable rendering in C syntax, e.g. "threadIdx.x * 32 + n".
std::string toString(const SymRef &E);
std::string toString(const SymExpr &E);
/// The rendering with copies of one source expression told apart (an
/// unrolled loop's 'n' and 'n#2', which toString prints alike): equal for
/// the same value only, a key for it.
std::string keyText(const SymExpr &E);

/// Facts about which leaves an expression mentions.
struct SymLeaves {
  bool UsesThreadIdx[3] = {false, false, false};
  bool UsesBlockDim[3] = {false, false, false};
  std::vector<const SymExpr *> Uniforms; ///< distinct by Name
  std::vector<const SymExpr *> Varyings; ///< distinct by Name+Reason
  std::vector<const SymExpr *> Loops;    ///< loop counters, distinct by LoopId
  bool usesLane() const { return UsesThreadIdx[0] || UsesThreadIdx[1] || UsesThreadIdx[2]; }
};
SymLeaves collectLeaves(const SymRef &E);
/// Adds the ids of the loop counters E reads to Ids (the LoopIds of
/// collectLeaves(E).Loops, walking only the operands that read one).
void addLoopCounters(const SymExpr &E, std::set<unsigned> &Ids);

/// True when the value can differ between threads of one warp: it mentions
/// threadIdx or a lane-varying unknown.
bool isThreadVarying(const SymRef &E);
bool isThreadVarying(const SymExpr &E);

} // namespace cbl

#endif
