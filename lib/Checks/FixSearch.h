//===- FixSearch.h - Candidate layouts for a conflicted shared array -------===//
//
// The fixes BankConflictCheck offers (innermost padding, an XOR swizzle of
// the 128-byte row segments, a rewritten index of a 1-D array) are verified against every access of the
// array's declaration, in every instantiation, at every block shape
// considered. A candidate's verdict over the whole declaration ("no access
// worse", "every access conflict-free") does not depend on which conflicted
// access asks, so it is computed once per declaration and candidate, and the
// search costs time linear in the number of accesses (private to
// lib/Checks).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_FIXSEARCH_H
#define CUDA_BANK_LINT_LIB_CHECKS_FIXSEARCH_H

#include "IndexRewrite.h"
#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace cbl {

/// One compiled access of one function (instantiation), with its verdict.
struct EvaluatedAccess {
  const FunctionModel *Fn;
  const SharedAccess *Access;
  AccessVerdict Verdict;
};

/// The arrays one declaration stands for: itself and its instantiations in
/// other template instantiations (a fix edits the declaration, so all).
std::vector<unsigned> sameDeclaration(const std::vector<SharedArray> &Arrays, unsigned Id);

class FixSearch {
public:
  /// All: every evaluated access of the translation unit; it must outlive
  /// this object and not change.
  FixSearch(CheckContext &Ctx, const std::vector<EvaluatedAccess> &All);

  /// Smallest innermost padding (elements) that makes Target conflict-free
  /// (every instance of it: same place and operation, any instantiation)
  /// without making any access of the same declaration worse; 0 if none up
  /// to 32.
  unsigned padding(const EvaluatedAccess &Target);
  /// The chunk (16 or 4 bytes) of an XOR swizzle of the array's 128-byte row
  /// segments by the row that leaves every access of the declaration
  /// conflict-free for every block shape considered; 0 if none does.
  unsigned swizzle(unsigned ArrayId);

  /// A rewrite of the index of every access of a 1-D or extern array
  /// (IndexRewrite.h), verified: every access of the declaration evaluated
  /// with its rewritten offset at every block shape considered, none worse
  /// (excess wavefronts, status), Target better. One per declaration: the
  /// candidate that makes the most conflicted accesses conflict-free, then
  /// removes the most excess wavefronts.
  struct Rewrite {
    IndexRewrite How;
    unsigned Wavefronts = 0, Ideal = 0; ///< Target's, with the rewrite
  };
  std::optional<Rewrite> rewrite(const EvaluatedAccess &Target);
  /// Every access of ArrayId's declaration, in every instantiation.
  std::vector<const EvaluatedAccess *> accessesOf(unsigned ArrayId);

private:
  /// What a verdict with another layout is compared by.
  struct PaddedResult {
    VerdictStatus Status;
    unsigned Wavefronts, Ideal;
  };
  /// An access's place and operation: the instances of one access.
  using Place = std::tuple<std::string, unsigned, AccessOp>;
  /// Accesses of one declaration (indices into All) and what is known of
  /// its candidate layouts.
  struct Declaration {
    std::vector<size_t> Members;
    std::map<Place, std::vector<size_t>> Conflicted; ///< per place, its conflicted instances
    std::map<unsigned, bool> NoWorse;                ///< per padding
    std::map<unsigned, bool> SwizzleClean;           ///< per chunk
    std::map<Place, unsigned> Padding;               ///< per place: padding()'s answer
    bool RewriteSearched = false;
    std::optional<IndexRewrite> Rewrite;             ///< the one chosen
    std::vector<PaddedResult> Rewritten;             ///< per member, with it
  };

  Declaration &declarationOf(unsigned ArrayId) { return Declarations[Canonical[ArrayId]]; }
  const PaddedResult &padded(size_t Index, unsigned Pad);
  bool targetsClean(const std::vector<size_t> &Targets, unsigned Pad);
  bool noWorse(Declaration &D, unsigned Pad);
  bool swizzleClean(Declaration &D, unsigned Chunk);
  /// Conflicted places made clean, excess wavefronts removed.
  using Gain = std::pair<size_t, uint64_t>;
  /// Every member's result with R, when R removes excess wavefronts, gains
  /// more than Best (which it then becomes) and makes no access worse;
  /// otherwise nothing (the other members are not analysed once the
  /// conflicted ones show R cannot be chosen).
  std::optional<std::vector<PaddedResult>> withRewrite(const Declaration &D, unsigned Id,
                                                       const IndexRewrite &R, Gain &Best);
  void searchRewrite(Declaration &D, unsigned Id);

  CheckContext &Ctx;
  const std::vector<EvaluatedAccess> &All;
  std::vector<unsigned> Canonical;            ///< per array: its declaration's first array
  std::map<unsigned, Declaration> Declarations; ///< by canonical array
  std::map<std::pair<size_t, unsigned>, PaddedResult> Padded; ///< per (access, padding)
  std::map<unsigned, unsigned> Swizzles;      ///< per array: swizzle()'s answer
};

} // namespace cbl

#endif
