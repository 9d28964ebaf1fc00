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

#include <map>
#include <tuple>
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
  /// The store of a read-modify-write written out, `s[b] = s[b] + s[a]`,
  /// whose lvalue the load A reads (same function, array, line, spelling and
  /// offset): its finding is the load's too, as with `s[b] += s[a]`. Null
  /// when there is none.
  const SharedAccess *storeOfSameLvalue(const FunctionModel &Fn, const SharedAccess &A) const;

  /// Stores by function, array, file, line and spelling (storeOfSameLvalue).
  std::map<std::tuple<const FunctionModel *, unsigned, std::string, unsigned, std::string>,
           std::vector<const SharedAccess *>>
      Stores;
};

} // namespace cbl

#endif
