//===- Annotations.cpp - `// cuda-bank-lint: block-dim(...)` above kernels -===//
#include "cuda-bank-lint/Driver/Annotations.h"
#include "cuda-bank-lint/Driver/Analyzer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace cbl {

namespace {
constexpr llvm::StringLiteral Marker = "cuda-bank-lint:";
/// How far above the kernel's name the annotation may be: the declaration
/// may span template<>, __launch_bounds__ and attribute lines.
constexpr unsigned MaxLinesAbove = 8;
} // namespace

std::optional<BlockShape> AnnotationReader::blockDimFor(const SourcePos &Name,
                                                        std::string &Messages) {
  if (!Name.valid())
    return std::nullopt;
  auto It = Files.find(Name.File);
  if (It == Files.end()) {
    auto Buf = readSource(Name.File, Unsaved);
    It = Files.emplace(Name.File, Buf ? std::move(*Buf) : nullptr).first;
  }
  if (!It->second)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  It->second->getBuffer().split(Lines, '\n');
  for (unsigned L = Name.Line; L >= 1 && L + MaxLinesAbove >= Name.Line; --L) {
    if (L > Lines.size())
      return std::nullopt;
    llvm::StringRef Text = Lines[L - 1].rtrim("\r \t");
    size_t At = Text.find(Marker);
    if (At != llvm::StringRef::npos) {
      llvm::StringRef Rest = Text.drop_front(At + Marker.size()).trim();
      std::string Where = Name.File + ":" + std::to_string(L) + ":" + std::to_string(At + 1);
      if (!Rest.consume_front("block-dim(") || !Rest.contains(')')) {
        Messages += Where + ": warning: ignoring malformed annotation (expected "
                            "'cuda-bank-lint: block-dim(x, y, z)')\n";
        return std::nullopt;
      }
      std::string Args = Rest.take_until([](char C) { return C == ')'; }).str();
      auto Dim = parseBlockDim(Args);
      if (!Dim) {
        Messages += Where + ": warning: ignoring block-dim annotation '" + Args +
                    "' (expected x[, y[, z]] with at most 1024 threads)\n";
        return std::nullopt;
      }
      BlockShape S;
      S.Dim = *Dim;
      S.From = BlockShape::Source::Annotation;
      S.Where = SourcePos{Name.File, L, unsigned(At + 1), 0};
      S.Description = "from the annotation at " + Name.File + ":" + std::to_string(L);
      return S;
    }
    // Stop at the end of the previous declaration or a blank line.
    if (L != Name.Line) {
      llvm::StringRef T = Text.trim();
      if (T.empty() || T.ends_with(";") || T.ends_with("}") || T.ends_with("{"))
        return std::nullopt;
    }
    if (L == 1)
      break;
  }
  return std::nullopt;
}

} // namespace cbl
