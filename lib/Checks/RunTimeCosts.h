//===- RunTimeCosts.h - Findings on costs the run decides -----------------===//
//
// Costs the tool can state only as what to expect or under a condition the
// run decides: a data-dependent access on random data, and the warps of
// boundary blocks (partial tiles). Remarks, never warnings. Private to
// lib/Checks.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_RUNTIMECOSTS_H
#define CUDA_BANK_LINT_LIB_CHECKS_RUNTIMECOSTS_H

#include "FixSearch.h"
#include "cuda-bank-lint/Report/Finding.h"
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

#include <optional>
#include <string>

namespace cbl {

/// The record of an expected cost on random data.
RandomDataRecord randomDataRecord(const RandomDataCost &C);

/// A remark for a data-dependent access whose random values can make bank
/// conflicts: what to expect on random data and how bad it can get.
std::optional<Finding> randomDataRemark(const EvaluatedAccess &E, const std::string &Array,
                                        const std::string &Check);

/// The record of a boundary block's costliest warp.
EdgeRecord edgeRecord(const EdgeWarp &W);

/// A remark for an access whose boundary blocks (partial tiles) show excess
/// wavefronts on Nsight Compute's source page while its full warps do not
/// (or less): no bank conflict, lanes spread over the phases of an 8- or
/// 16-byte access.
std::optional<Finding> edgeRemark(const EvaluatedAccess &E, const std::string &Array,
                                  const std::string &Check);

} // namespace cbl

#endif
