//===- Includers.h - A translation unit for a file that is not one --------===//
//
// Kernel files and headers are often not self-contained: `kernels.cu` or
// `tile.cuh` expect the macros, types and includes of the .cu that includes
// them. When such a file does not compile on its own, the driver analyses it
// through a translation unit that includes it, directly or through other
// headers: an entry of the compilation database if there is one, else a .cu
// file in its directory or up to two directories above (the first by path).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_INCLUDERS_H
#define CUDA_BANK_LINT_DRIVER_INCLUDERS_H

#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// A file among Candidates (absolute paths) that includes File, directly or
/// through headers found beside the including files; nullopt if none.
std::optional<std::string> findIncluder(const std::string &File,
                                        const std::vector<std::string> &Candidates);

/// The first Max files among Candidates that include File, in their order.
std::vector<std::string> findIncluders(const std::string &File,
                                       const std::vector<std::string> &Candidates, size_t Max);

/// Whether From includes File, directly or through headers found beside the
/// including files (the search findIncluder makes).
bool includesFile(const std::string &From, const std::string &File);

/// The .cu files in File's directory and up to two directories above (their
/// whole subtrees, at most MaxFiles files), sorted, nearest directory first.
std::vector<std::string> nearbySources(const std::string &File, unsigned MaxFiles = 4000);

} // namespace cbl

#endif
