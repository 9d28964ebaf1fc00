//===- Paths.h - How every layer spells a file's path ---------------------===//
//
// The one home of path normalisation: Clang spells a header found through
// `-I.` as "./k.cuh" and a unit of a build directory as "../src/k.cu";
// messages, comparisons and fix-its use these forms instead.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SUPPORT_PATHS_H
#define CUDA_BANK_LINT_SUPPORT_PATHS_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <string>

namespace cbl {

/// Path with "." and ".." segments removed, not made absolute ("./k.cuh" ->
/// "k.cuh", "a/../b.cu" -> "b.cu"; a leading ".." of a relative path stays).
inline std::string withoutDots(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// Path made absolute (relative to Dir when given, else to the working
/// directory) with "." and ".." removed; an empty path stays empty. The one
/// way files are compared and located.
inline std::string absolutePath(llvm::StringRef Path, llvm::StringRef Dir = "") {
  if (Path.empty())
    return "";
  llvm::SmallString<256> P;
  if (llvm::sys::path::is_absolute(Path) || Dir.empty()) {
    P = Path;
    llvm::sys::fs::make_absolute(P);
  } else {
    P = Dir;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

} // namespace cbl

#endif // CUDA_BANK_LINT_SUPPORT_PATHS_H
