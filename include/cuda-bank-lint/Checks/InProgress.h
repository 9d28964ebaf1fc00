//===- InProgress.h - Which function a check is analysing, per thread ------===//
//
// Checks mark the function they work on; when the analysis fails internally
// (a crash the driver recovers from with llvm::CrashRecoveryContext), the
// driver reports that kernel as not analysed and analyses the rest of the
// file without it. A hidden debugging option makes the analysis of a named
// function fail on purpose, for the tests of that recovery.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_CHECKS_INPROGRESS_H
#define CUDA_BANK_LINT_CHECKS_INPROGRESS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include <string>

namespace cbl {

class FunctionInProgress {
public:
  explicit FunctionInProgress(const FunctionModel &F);
  ~FunctionInProgress();
  FunctionInProgress(const FunctionInProgress &) = delete;
  FunctionInProgress &operator=(const FunctionInProgress &) = delete;

  /// The function the calling thread is analysing, or null.
  static const FunctionModel *current();
  /// Forget the calling thread's marks (after a recovered failure).
  static void reset();
  /// Debugging: analysing a function of this name traps (empty: never).
  static void failOnPurposeIn(const std::string &Name);

private:
  const FunctionModel *Outer;
};

} // namespace cbl

#endif
