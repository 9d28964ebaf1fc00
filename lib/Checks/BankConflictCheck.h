//===- BankConflictCheck.h - cuda-shared-bank-conflict ---------------------===//
//
// Evaluates every shared access of the translation unit for every warp of its
// kernel's block, records the result (JSON/--explain), and warns when the
// worst warp needs more wavefronts than the ideal. Offers a padding fix-it
// only after evaluating the padded layout for every access of the array.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_BANKCONFLICTCHECK_H
#define CUDA_BANK_LINT_LIB_CHECKS_BANKCONFLICTCHECK_H

#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

#include <map>
#include <optional>
#include <vector>

namespace cbl {

class BankConflictCheck : public Check {
public:
  static constexpr const char *Name = "cuda-shared-bank-conflict";
  void run(CheckContext &Ctx) override;

  /// One compiled access of one function (instantiation), with its verdict.
  struct Evaluated {
    const FunctionModel *Fn;
    const SharedAccess *Access;
    AccessVerdict Verdict;
  };

private:
  /// Smallest innermost padding (elements) that makes Target conflict-free
  /// without making any access of the same array worse; 0 if none up to 32.
  unsigned findPadding(CheckContext &Ctx, const std::vector<Evaluated> &All,
                       const Evaluated &Target);
  /// The chunk (16 or 4 bytes) of an XOR swizzle of the array's 128-byte row
  /// segments by the row that leaves every access of the array conflict-free
  /// for every block shape considered; 0 if none does.
  unsigned findSwizzle(CheckContext &Ctx, const std::vector<Evaluated> &All, unsigned Id);
  std::map<unsigned, unsigned> SwizzleCache; ///< per array: findSwizzle's answer
  Finding diagnose(CheckContext &Ctx, const std::vector<Evaluated> &All, const Evaluated &E);
  /// Verdicts with an array padded, per (index in the evaluated accesses,
  /// padding), computed only when a padding candidate needs them.
  std::map<std::pair<size_t, unsigned>, AccessVerdict> PaddedCache;
  /// Each function's accesses as the compiler emits them (adjacent ones
  /// merged); Evaluated::Access points into these.
  std::vector<std::vector<SharedAccess>> Compiled;
};

} // namespace cbl

#endif
