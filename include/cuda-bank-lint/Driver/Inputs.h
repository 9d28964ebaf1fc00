//===- Inputs.h - The files a run analyses ---------------------------------===//
//
// The command line's inputs become the list of files to analyse: directories
// recurse into their .cu/.cuh files (sorted), `--exclude=<glob>` skips files
// and directories (also the entries of the project mode, `-p build` without
// inputs), and `-` is the source on stdin, analysed as if it were the file
// named by --assume-filename (clang-format's convention) or `<stdin>.cu`.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_INPUTS_H
#define CUDA_BANK_LINT_DRIVER_INPUTS_H

#include "llvm/Support/GlobPattern.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// --exclude: llvm::GlobPattern globs. A path is excluded when a glob matches
/// one of its file or directory names, or the path itself or one of its
/// parent directories, spelled as given, absolute, or relative to the
/// current directory ('build', '*_test.cu', 'src/gen/*', '/abs/vendor').
class ExcludeFilter {
public:
  /// Error set (and nullopt returned) for an invalid glob.
  static std::optional<ExcludeFilter> create(const std::vector<std::string> &Globs,
                                             std::string &Error);
  bool excluded(const std::string &Path) const;
  bool empty() const { return Patterns.empty(); }

private:
  /// A GlobPattern refers to its text: each text lives on the heap, so that
  /// moving the filter keeps it where the pattern points.
  std::vector<std::unique_ptr<const std::string>> Texts;
  std::vector<llvm::GlobPattern> Patterns;
};

/// Expands directories into their .cu/.cuh files (sorted), without what
/// Exclude names; reports inputs that do not exist, are binary, or are
/// directories without CUDA source in Errors. An excluded input is skipped
/// silently.
std::vector<std::string> expandInputs(const std::vector<std::string> &Inputs,
                                      const ExcludeFilter &Exclude, std::string &Errors);

/// The source on stdin, in a temporary file that the analysis reads like any
/// other. It lives in the directory of the assumed name (else the current
/// directory; the system's temporary directory when that is not writable),
/// so its relative includes, configuration and compilation database are
/// those of that place. Removed when this object dies (or on a signal).
class StdinInput {
public:
  /// Reads stdin. AssumedName may be empty (then the source is "<stdin>").
  static std::unique_ptr<StdinInput> read(const std::string &AssumedName, std::string &Error);
  ~StdinInput();
  StdinInput(const StdinInput &) = delete;
  StdinInput &operator=(const StdinInput &) = delete;

  /// The temporary file, as the analysis names it.
  const std::string &path() const { return Path; }
  /// What the user sees instead: the assumed name, or "<stdin>".
  const std::string &displayName() const { return Display; }
  /// Text with every spelling of the temporary file replaced by the display
  /// name (diagnostics, reports and exported fixes are rendered first).
  std::string mapBack(std::string Text) const;

private:
  StdinInput() = default;
  std::string Path, Display;
};

} // namespace cbl

#endif
