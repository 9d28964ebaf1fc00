//===- FindingFilters.h - What the command line hides after the analysis ---===//
//
// clang-tidy's output filters that apply to findings once every file is
// analysed: --line-filter (its JSON format), --exclude-header-filter /
// ExcludeHeaderFilterRegex, and the finer check names (a check that runs
// because one of its names is enabled keeps only the findings whose name is).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_FINDINGFILTERS_H
#define CUDA_BANK_LINT_DRIVER_FINDINGFILTERS_H

#include "cuda-bank-lint/Report/Finding.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cbl {

/// --line-filter='[{"name":"file.cu","lines":[[1,3],[5,5]]},{"name":"k.cuh"}]'.
struct LineFilter {
  struct File {
    std::string Name;                                ///< matches paths ending with it
    std::vector<std::pair<unsigned, unsigned>> Lines; ///< inclusive; empty = all lines
  };
  std::vector<File> Files;

  /// Error set ("1:12: expected ..." or "expected array at [0].lines") when
  /// Text is not such JSON.
  static std::optional<LineFilter> parse(const std::string &Text, std::string &Error);
  /// clang-tidy's rule: an empty filter passes everything; otherwise the
  /// first entry whose name ends File decides, and a file no entry names is
  /// filtered out.
  bool passes(const std::string &File, unsigned Line) const;
};

struct FindingFilters {
  std::optional<LineFilter> Lines;
  std::string ExcludeHeaders;          ///< regex; empty excludes nothing
  std::vector<std::string> MainFiles;  ///< the analysed files: never headers
  std::string CheckGlobs;              ///< the names findings must carry
  /// The path a user sees for a file (stdin's temporary file -> "<stdin>").
  std::function<std::string(const std::string &)> DisplayName;
};

/// Removes the findings the filters hide; returns how many.
size_t applyFindingFilters(RunReport &R, const FindingFilters &F);

/// The globs the analysis runs with: Globs, plus the name of every check
/// one of whose finding names Globs enables (cuda-barrier-early-exit alone
/// runs cuda-barrier-divergence); applyFindingFilters then keeps Globs' names.
std::string globsToRun(const std::string &Globs);

} // namespace cbl

#endif
