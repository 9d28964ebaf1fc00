//===- IndexRewrite.h - A new index for every access of a 1-D shared array --===//
//
// The fix for a conflict on a one-dimensional or extern __shared__ array,
// which has no row to pad: the index of every access rewritten, in the
// user's own words, either skewed (s[i] -> s[i + i / 32], one word more every
// 128 bytes, the array grown to match) or XOR-swizzled within each 128 bytes
// (s[i] -> s[i ^ (i / 32 % 32)], no memory added). The same rewrite as a
// byte offset (SymExpr), which FixSearch evaluates for every access of the
// array before it is offered; as source text, the subscript of each access.
// Private to lib/Checks.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_INDEXREWRITE_H
#define CUDA_BANK_LINT_LIB_CHECKS_INDEXREWRITE_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Report/Finding.h"

#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// Bytes of the segments both rewrites work in: a warp's 32 banks of 4 bytes.
constexpr unsigned RewriteRowBytes = 128;

struct IndexRewrite {
  enum class Kind { Skew, Xor };
  Kind How = Kind::Skew;
  /// Skew: bytes added per 128 bytes of index; Xor: the chunk that moves
  /// whole (a multiple of the element and of every access's width).
  unsigned Bytes = 4;
  bool operator==(const IndexRewrite &O) const { return How == O.How && Bytes == O.Bytes; }
};

/// The rewrites worth evaluating for Array, whose accesses are at most
/// Widest bytes wide, in the order they are preferred: skews (readable; a
/// fixed-size array grows by 1/32) for a sized array, the XOR swizzle (no
/// memory added) when the storage is whole 128-byte segments or unsized.
/// None for an element whose size does not divide 128 bytes.
std::vector<IndexRewrite> rewriteCandidates(const SharedArray &Array, unsigned Widest);

/// The byte offset Offset of an access of the array, once the index is
/// rewritten.
SymRef rewrittenOffset(const SymRef &Offset, const IndexRewrite &R);

/// The array's layout after the rewrite: a skewed sized array grows.
SharedArray rewrittenArray(const SharedArray &Array, const IndexRewrite &R);

/// What the rewrite makes of an index written Index (elements of
/// ElementSize bytes): "i + i / 32", "(a + b) ^ ((a + b) / 32 % 32)".
std::string rewrittenIndex(const std::string &Index, uint64_t ElementSize, const IndexRewrite &R);

/// The subscript of one access as written, to replace: Access must index
/// Array by its name directly ('s[...]', 's[...].x'), in user code, outside
/// a helper reached through a pointer, and the subscript must be safe to
/// repeat (no call, assignment, ++ or --). Why is set when it is not.
struct Subscript {
  SourceSpan Span;
  std::string Text;
};
std::optional<Subscript> subscriptOf(const SourcePos &Where, const std::string &Spelling,
                                     const SharedArray &Array, std::string &Why);

/// "skew" or "XOR-swizzle" with what it does, for the note that offers it.
std::string describeRewrite(const SharedArray &Array, const IndexRewrite &R);

} // namespace cbl

#endif
