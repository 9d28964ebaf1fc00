//===- BankConflictCheck.h - cuda-shared-bank-conflict ---------------------===//
//
// Evaluates every shared access of the translation unit for every warp of its
// kernel's block, records the result (JSON/--explain), and warns when the
// worst warp needs more wavefronts than the ideal. Offers a padding fix-it
// only after evaluating the padded layout for every access of the array
// (FixSearch).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_BANKCONFLICTCHECK_H
#define CUDA_BANK_LINT_LIB_CHECKS_BANKCONFLICTCHECK_H

#include "cuda-bank-lint/Checks/Check.h"
#include "FixSearch.h"
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

#include <vector>

namespace cbl {

class BankConflictCheck : public Check {
public:
  static constexpr const char *Name = "cuda-shared-bank-conflict";
  void run(CheckContext &Ctx) override;

  using Evaluated = EvaluatedAccess;

private:
  /// The finding for E; its fixes are FixSearch's, only once verified.
  Finding diagnose(CheckContext &Ctx, FixSearch &Fixes, const Evaluated &E);
  /// What --explain adds: the lane spacing, every lane on the worst bank,
  /// the calls, the cases, the block shape's origin, launch arguments, bounds.
  void detailNotes(Finding &F, CheckContext &Ctx, const Evaluated &E, bool WidthCases);
  /// A verified fix as a fix-it (its note one line by default), or why none.
  void fixNotes(Finding &F, CheckContext &Ctx, FixSearch &Fixes, const Evaluated &E);
  /// A 1-D or extern array: its index rewritten in every access, verified
  /// (FixSearch::rewrite), as fix-its when every subscript can be rewritten.
  void rewriteNotes(Finding &F, CheckContext &Ctx, FixSearch &Fixes, const Evaluated &E);
};

} // namespace cbl

#endif
