//===- IndexRewrite.cpp - A new index for every access of a 1-D shared array ===//
#include "IndexRewrite.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>

#include <algorithm>

namespace cbl {

namespace {

bool powerOfTwo(uint64_t V) { return V && !(V & (V - 1)); }

/// How an expression binds, to know where it needs parentheses: a name,
/// number, member or call (Primary), a chain of * / % (Product), of + - over
/// those (Sum), or anything else (Other: shifts, comparisons, ?:, ...).
enum class Binding { Primary, Product, Sum, Other };

Binding bindingOf(llvm::StringRef E) {
  Binding B = Binding::Primary;
  int Depth = 0;
  for (size_t I = 0; I < E.size(); ++I) {
    char C = E[I];
    if (C == '(' || C == '[')
      ++Depth;
    else if (C == ')' || C == ']')
      --Depth;
    if (Depth || C == '(' || C == ')' || C == '[' || C == ']')
      continue;
    if (C == '-' && I + 1 < E.size() && E[I + 1] == '>') { // a member through a pointer
      ++I;
      continue;
    }
    if (C == '*' || C == '/' || C == '%')
      B = std::max(B, Binding::Product);
    else if (C == '+' || C == '-')
      B = std::max(B, Binding::Sum);
    else if (llvm::StringRef("<>=!&|^?:,~").contains(C))
      return Binding::Other;
  }
  return B;
}

/// E as the left operand of an operator of the given binding.
std::string operand(const std::string &E, Binding Allowed) {
  return bindingOf(E) <= Allowed ? E : "(" + E + ")";
}

} // namespace

std::vector<IndexRewrite> rewriteCandidates(const SharedArray &Array, unsigned Widest) {
  uint64_t E = Array.ElementSize;
  if (!powerOfTwo(E) || E > RewriteRowBytes || Array.Dims.size() != 1)
    return {};
  // Every access keeps its alignment: the shift and the chunk are whole
  // elements, whole words, and multiples of the widest access.
  unsigned Unit = unsigned(std::max<uint64_t>({4, E, Widest}));
  if (!powerOfTwo(Unit) || Unit > RewriteRowBytes)
    return {};
  std::vector<IndexRewrite> Out;
  bool Sized = !Array.IsExtern && Array.Dims[0];
  if (Sized)
    for (unsigned Shift : {Unit, 2 * Unit})
      if (Shift < RewriteRowBytes)
        Out.push_back({IndexRewrite::Kind::Skew, Shift});
  if (!Sized || (Array.Dims[0] * E) % RewriteRowBytes == 0)
    if (Unit < RewriteRowBytes)
      Out.push_back({IndexRewrite::Kind::Xor, Unit});
  return Out;
}

SymRef rewrittenOffset(const SymRef &Offset, const IndexRewrite &R) {
  IntType T = IntType::i64();
  SymRef Off = SymExpr::cast(Offset, T);
  SymRef Row = SymExpr::binary(Opcode::Div, Off, SymExpr::constant(RewriteRowBytes), T);
  if (R.How == IndexRewrite::Kind::Skew)
    return SymExpr::binary(Opcode::Add, Off,
                           SymExpr::binary(Opcode::Mul, Row, SymExpr::constant(R.Bytes), T), T);
  SymRef Chunk = SymExpr::binary(Opcode::Rem, Row, SymExpr::constant(RewriteRowBytes / R.Bytes), T);
  return SymExpr::binary(Opcode::Xor, Off,
                         SymExpr::binary(Opcode::Mul, Chunk, SymExpr::constant(R.Bytes), T), T);
}

SharedArray rewrittenArray(const SharedArray &Array, const IndexRewrite &R) {
  SharedArray A = Array;
  if (R.How == IndexRewrite::Kind::Skew && !A.Dims.empty() && A.Dims[0] && A.ElementSize) {
    uint64_t PerRow = RewriteRowBytes / A.ElementSize;
    A.Dims[0] += A.Dims[0] / PerRow * (R.Bytes / A.ElementSize);
  }
  return A;
}

std::string rewrittenIndex(const std::string &Index, uint64_t ElementSize, const IndexRewrite &R) {
  uint64_t PerRow = RewriteRowBytes / ElementSize;
  unsigned long long Literal = 0;
  if (!llvm::StringRef(Index).getAsInteger(10, Literal)) { // a number: its new value
    uint64_t Row = Literal / PerRow;
    uint64_t New = R.How == IndexRewrite::Kind::Skew
                       ? Literal + Row * (R.Bytes / ElementSize)
                       : Literal ^ (Row % (RewriteRowBytes / R.Bytes) * (R.Bytes / ElementSize));
    return std::to_string(New);
  }
  std::string Row = fmt::format("{} / {}", operand(Index, Binding::Product), PerRow);
  if (R.How == IndexRewrite::Kind::Skew) {
    uint64_t Elements = R.Bytes / ElementSize;
    return fmt::format("{} + {}{}", operand(Index, Binding::Sum), Row,
                       Elements == 1 ? "" : fmt::format(" * {}", Elements));
  }
  uint64_t Chunks = RewriteRowBytes / R.Bytes, PerChunk = R.Bytes / ElementSize;
  return fmt::format("{} ^ ({} % {}{})", operand(Index, Binding::Product), Row, Chunks,
                     PerChunk == 1 ? "" : fmt::format(" * {}", PerChunk));
}

std::optional<Subscript> subscriptOf(const SourcePos &Where, const std::string &Spelling,
                                     const SharedArray &Array, std::string &Why) {
  llvm::StringRef S = Spelling;
  if (!Where.valid() || Where.InSystemHeader || S.empty()) {
    Why = "its source text is not known";
    return std::nullopt;
  }
  llvm::StringRef Rest = S;
  if (!Rest.consume_front(Array.Name) || !Rest.ltrim().starts_with("[")) {
    Why = "it does not index '" + Array.Name + "' by name";
    return std::nullopt;
  }
  size_t Open = S.size() - Rest.ltrim().size();
  int Depth = 0;
  size_t Close = llvm::StringRef::npos;
  for (size_t I = Open; I < S.size() && Close == llvm::StringRef::npos; ++I) {
    Depth += S[I] == '[' || S[I] == '(';
    Depth -= S[I] == ']' || S[I] == ')';
    if (Depth == 0)
      Close = I;
  }
  llvm::StringRef After = Close == llvm::StringRef::npos ? "" : S.drop_front(Close + 1);
  if (Close == llvm::StringRef::npos || S[Close] != ']' || (!After.empty() && !After.starts_with("."))) {
    Why = "its subscript is not one index of '" + Array.Name + "'";
    return std::nullopt;
  }
  llvm::StringRef Inner = S.slice(Open + 1, Close);
  llvm::StringRef Index = Inner.trim();
  // The rewrite writes the index twice: it must mean the same both times.
  for (size_t I = 0; I < Index.size(); ++I) {
    char C = Index[I], N = I + 1 < Index.size() ? Index[I + 1] : 0;
    char P = I ? Index[I - 1] : 0;
    bool Assign = C == '=' && N != '=' && !llvm::StringRef("=!<>").contains(P);
    bool Call = C == '(' && I && (llvm::isAlnum(P) || P == '_');
    if (Assign || Call || (C == '+' && N == '+') || (C == '-' && N == '-')) {
      Why = "its index '" + Index.str() + "' would be evaluated twice";
      return std::nullopt;
    }
  }
  unsigned Skip = unsigned(Open + 1 + (Inner.size() - Inner.ltrim().size()));
  Subscript Out;
  Out.Span.Begin = Where;
  Out.Span.Begin.Offset += Skip;
  Out.Span.Begin.Column += Skip;
  Out.Span.Length = unsigned(Index.size());
  Out.Text = Index.str();
  return Out;
}

std::string describeRewrite(const SharedArray &Array, const IndexRewrite &R) {
  uint64_t Words = R.Bytes / 4;
  if (R.How == IndexRewrite::Kind::Skew)
    return fmt::format("skew the index of '{}' by {} word{} every 128 bytes", Array.Name, Words,
                       Words == 1 ? "" : "s");
  return fmt::format("XOR-swizzle the {}-byte chunks of '{}' within each 128 bytes", R.Bytes,
                     Array.Name);
}

} // namespace cbl
