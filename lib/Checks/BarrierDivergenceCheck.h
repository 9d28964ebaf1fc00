//===- BarrierDivergenceCheck.h - cuda-barrier-divergence ------------------===//
//
// Decides, for every block barrier of the access model (and every call that
// reaches one), whether all threads of the block reach it: evaluates its
// guards for every thread of every warp, with concrete values tried for the
// warp-uniform unknowns the guards mention and, when the block shape was not
// given, for the block size. Findings carry one of three check names:
//   cuda-barrier-divergence              lanes of one warp disagree, or which
//                                        threads reach it depends on data
//   cuda-barrier-divergence-across-warps whole warps skip it
//   cuda-barrier-early-exit              threads returned before it (remark
//                                        by default)
// A device function's parameters are assumed uniform inside it; each call
// that passes a thread-varying value is then checked with that value.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_BARRIERDIVERGENCECHECK_H
#define CUDA_BANK_LINT_LIB_CHECKS_BARRIERDIVERGENCECHECK_H

#include "cuda-bank-lint/Checks/Check.h"

namespace cbl {

class BarrierDivergenceCheck : public Check {
public:
  static constexpr const char *Name = "cuda-barrier-divergence";
  static constexpr const char *AcrossWarpsName = "cuda-barrier-divergence-across-warps";
  static constexpr const char *EarlyExitName = "cuda-barrier-early-exit";
  /// CheckOptions::Values key: "remark" (default), "warning" or "off".
  static constexpr const char *EarlyExitSeverityKey = "cuda-barrier-early-exit.Severity";
  void run(CheckContext &Ctx) override;
};

} // namespace cbl

#endif
