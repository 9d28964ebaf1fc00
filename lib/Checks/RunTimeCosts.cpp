//===- RunTimeCosts.cpp - Findings on costs the run decides ---------------===//
#include "RunTimeCosts.h"
#include "FindingText.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace cbl {

namespace {

/// A remark of Check at access A, its source range underlined.
Finding remarkAt(const SharedAccess &A, const std::string &Check) {
  Finding F;
  F.Check = Check;
  F.Level = Severity::Remark;
  F.Where = A.Where;
  if (A.Length)
    F.Ranges.push_back({A.Where, A.Length});
  return F;
}

/// "'a', 'b'".
std::string quotedNames(const std::vector<std::string> &Names) {
  std::vector<std::string> Quoted;
  for (const std::string &N : Names)
    Quoted.push_back("'" + N + "'");
  return fmt::format("{}", fmt::join(Quoted, ", "));
}

} // namespace

RandomDataRecord randomDataRecord(const RandomDataCost &C) {
  return {C.Wavefronts, C.Ideal, C.Worst.Wavefronts, C.Worst.Ideal, C.WorstReachable,
          C.Samples, unsigned(__builtin_popcount(C.Lanes)), C.Values, C.Regardless,
          C.Draw, C.Elements};
}

// Never a warning: the run's data decides.
std::optional<Finding> randomDataRemark(const EvaluatedAccess &E, const std::string &Array,
                                        const std::string &Check) {
  const AccessVerdict &V = E.Verdict;
  if (V.Status != VerdictStatus::DataDependent || !V.Random ||
      V.Random->Worst.Wavefronts <= V.Random->Worst.Ideal)
    return std::nullopt;
  const RandomDataCost &R = *V.Random;
  const SharedAccess &A = *E.Access;
  Finding F = remarkAt(A, Check);
  const std::string Worst =
      R.WorstReachable
          ? fmt::format("up to {} when the values collide in one bank", R.Worst.Wavefronts)
          : fmt::format("{} in the costliest of the {} warps drawn", R.Worst.Wavefronts, R.Samples);
  F.Kind = "data-dependent cost";
  F.Summary = fmt::format("~{:.1f} wavefronts on random data", R.Wavefronts);
  if (R.Draw == RandomDraw::ArrayElement) {
    F.Message = fmt::format(
        "data-dependent cost {} {}: its address combines {} loaded value{}, more than the tool "
        "draws one by one; with each of the {} lanes of a warp at a random element of '{}', expect {:.1f} "
        "wavefronts per request (ideal {:.3g}), {}",
        doing(A), arrayAsWritten(A, Array), R.Values.size(), R.Values.size() == 1 ? "" : "s", __builtin_popcount(R.Lanes),
        Array, R.Wavefronts, R.Ideal, Worst);
    F.Notes.push_back({A.Where,
                       fmt::format("each lane's element drawn independently and uniformly from the {} "
                                   "{}-byte elements of '{}' ({} random warps, seeded): the least the "
                                   "program allows, for an address that combines {}; data that "
                                   "places lanes apart (a permutation, sorted keys) costs less or more",
                                   R.Elements, A.Width, Array, R.Samples, quotedNames(R.Values)),
                       {}, NoteRole::Key});
    return F;
  }
  F.Message = fmt::format(
      "data-dependent cost {} {}: on random values of {} the {} lanes of a warp expect {:.1f} "
      "wavefronts per request (ideal {:.3g}), {}",
      doing(A), arrayAsWritten(A, Array), quotedNames(R.Values), __builtin_popcount(R.Lanes),
      R.Wavefronts, R.Ideal, Worst);
  F.Notes.push_back({A.Where,
                     fmt::format("each lane's value drawn independently and uniformly from the values "
                                 "that keep its address inside '{}' ({} random warps, seeded){}; "
                                 "sorted or clustered data costs less or more",
                                 Array, R.Samples,
                                 R.Regardless.empty() ? std::string()
                                                : fmt::format(", the same at every value of {} tried (0 "
                                                              "to 31)",
                                                              quotedNames(R.Regardless))),
                     {}, NoteRole::Key});
  return F;
}

EdgeRecord edgeRecord(const EdgeWarp &W) {
  return {W.Cost.Wavefronts, W.PageIdeal, W.Warp, W.Mask};
}

// A remark: whether a boundary block exists, and which lanes it leaves, the
// problem size decides at run time.
std::optional<Finding> edgeRemark(const EvaluatedAccess &E, const std::string &Array,
                                  const std::string &Check) {
  const AccessVerdict &V = E.Verdict;
  if (!V.Edge)
    return std::nullopt;
  const EdgeWarp &W = *V.Edge;
  const SharedAccess &A = *E.Access;
  Finding F = remarkAt(A, Check);
  F.Message = fmt::format(
      "excess wavefronts in boundary blocks {} {}, no bank conflict: in a partial tile, {} of "
      "warp {} take {} wavefronts where Nsight Compute's source page counts an ideal of {} (whole "
      "warps: no excess)",
      doing(A), arrayAsWritten(A, Array), lanesText(W.Mask), W.Warp, W.Cost.Wavefronts, W.PageIdeal);
  F.Kind = "boundary blocks";
  F.Summary = fmt::format("{} wavefronts against a page ideal of {} in partial tiles",
                          W.Cost.Wavefronts, W.PageIdeal);
  F.Notes.push_back(
      {A.Where,
       fmt::format("{}-byte accesses are served {} lanes at a time, so lanes left in {} such "
                   "groups take {} wavefronts; the page's ideal is their bytes packed, ceil({} lanes "
                   "x {} bytes / 128) = {}; the hardware counts no bank conflict",
                   A.Width, WarpSize / std::max(1u, W.Cost.Phases), W.Cost.Ideal, W.Cost.Wavefronts,
                   __builtin_popcount(W.Mask), A.Width, W.PageIdeal),
       {},
       NoteRole::Key});
  return F;
}

} // namespace cbl
