//===- Inputs.h - The files a run analyses ---------------------------------===//
//
// The command line's inputs become the list of files to analyse: directories
// recurse into their .cu/.cuh files (sorted; binary ones skipped with a
// note), `--exclude=<glob>` skips files
// and directories (also the entries of the project mode, `-p build` without
// inputs), and `-` is the source on stdin, analysed as if it were the file
// named by --assume-filename (clang-format's convention) or `<stdin>.cu`.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_INPUTS_H
#define CUDA_BANK_LINT_DRIVER_INPUTS_H

#include "llvm/ADT/StringRef.h"
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

/// Why the start of a file is not source text: NUL bytes in its first 8 KiB,
/// or more than a tenth of them neither UTF-8 nor whitespace (a few Latin-1
/// bytes in a comment are text); "" when it is text.
std::string notSourceText(llvm::StringRef Start);

/// Path as text output shows it: relative to the working directory when
/// inside it, else as given; without ./ and dir/../ segments.
std::string displayPath(const std::string &Path);

/// The files a run's inputs name.
struct ExpandedInputs {
  std::vector<std::string> Files;
  /// .cu/.cuh files met in directories that are not source text, skipped.
  std::vector<std::string> NotSource;
  std::string Notes;  ///< one "note: skipped" line per NotSource file
  std::string Errors; ///< inputs missing, binary, or directories without CUDA source
};

/// Expands directories into their .cu/.cuh files (sorted), without what
/// Exclude names and without files that are not source text (skipped with a
/// note); an input named directly that is binary is an error. An excluded
/// input is skipped silently.
ExpandedInputs expandInputs(const std::vector<std::string> &Inputs, const ExcludeFilter &Exclude);

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
