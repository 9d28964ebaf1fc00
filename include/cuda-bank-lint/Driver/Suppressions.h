//===- Suppressions.h - NOLINT comments, clang-tidy semantics -------------===//
//
// `// NOLINT`, `// NOLINT(check, glob*)` on a finding's line,
// `// NOLINTNEXTLINE(...)` on the line above, and
// `// NOLINTBEGIN(...)` ... `// NOLINTEND(...)` around it suppress findings.
// Without parentheses every check is suppressed. As in clang-tidy, the text
// of the source line is read, so the comment may follow any code.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_SUPPRESSIONS_H
#define CUDA_BANK_LINT_DRIVER_SUPPRESSIONS_H

#include "cuda-bank-lint/Frontend/UnsavedFiles.h"
#include "cuda-bank-lint/Report/Finding.h"

#include <string>
#include <vector>

namespace cbl {

/// Removes suppressed findings; unmatched NOLINTBEGIN/NOLINTEND comments are
/// reported in Messages (and suppress nothing). The comments are read from
/// the unsaved text of a file in Unsaved, if any, else from the disk.
void applySuppressions(std::vector<Finding> &Findings, std::string &Messages,
                       const UnsavedFiles *Unsaved = nullptr);

/// True when a NOLINT check list such as "cuda-*, -foo" (clang-tidy: a
/// comma-separated list of globs) names Check; an absent list names all.
bool nolintNames(const std::string &List, bool HasList, const std::string &Check);

} // namespace cbl

#endif
