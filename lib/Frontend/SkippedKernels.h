//===- SkippedKernels.h - Kernels in code the preprocessor skipped (private) ===//
//
// What the preprocessor removes the tool never sees: a kernel under
// `#if defined(ARCH_SUPPORTED)` that Clang's configuration leaves undefined
// (CUTLASS compiles its SM100 kernels out under Clang) would be analysed as
// nothing, silently. Clang reports each region it skips
// (PPCallbacks::SourceRangeSkipped, as clangd's inactive regions); the
// regions of the user's files (not system headers, not the toolkit) are
// scanned as text for `__global__` and each file that has any gets one note.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_SKIPPEDKERNELS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_SKIPPEDKERNELS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/Lex/PPCallbacks.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace cbl {

/// The kernel names in Text, a skipped region of C++: each `__global__`
/// outside comments, string literals and preprocessor directives, named by
/// the identifier before its parameter list ("" when none is found).
std::vector<std::string> kernelsInText(llvm::StringRef Text);

/// What the callbacks found; read once the file is parsed.
class SkippedKernels {
public:
  SkippedKernels(const clang::SourceManager &SM, std::vector<std::string> ToolkitDirs);
  /// Callbacks that record into this object (which must outlive them).
  std::unique_ptr<clang::PPCallbacks> callbacks();
  /// One note per file with kernels in skipped code, at its first such
  /// region: "2 kernels ('a', 'b') are in code the preprocessor skipped
  /// (#if defined(X) at line 40); the tool analyses what the compiler compiles".
  std::vector<FrontEndNote> notes() const;

private:
  struct Region {
    clang::SourceLocation Hash; ///< the directive that starts it
    std::string Directive;      ///< "#if defined(X)", on one line
    std::vector<std::string> Kernels;
  };
  void skipped(clang::SourceRange Range);
  bool userFile(clang::FileID ID) const;

  const clang::SourceManager &SM;
  std::vector<std::string> ToolkitDirs;
  std::map<clang::FileID, bool> Known; ///< whether a file is the user's
  std::map<clang::FileID, std::vector<Region>> Files; ///< in order of sight per file
  std::vector<clang::FileID> Order;
};

} // namespace cbl

#endif
