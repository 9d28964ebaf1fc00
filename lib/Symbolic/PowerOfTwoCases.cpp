//===- PowerOfTwoCases.cpp - Unknowns whose meaningful values are few ------===//
//
// Pass 6 of WarpAnalysis (see WarpAnalysis.h). A warp-uniform unknown that
// meets the lane non-linearly (lo = pos & (stride - 1) with
// stride = (1 << log2N) >> 2; pos = 2 * tid - (tid & (size - 1))) cannot be
// enumerated in general, but two uses pin its values down:
//  - a shift amount (1 << log2N) is 0 to the width of the shifted type minus
//    one: any other value is undefined behaviour, so this is exhaustive;
//  - a mask length (x & (size - 1)) is meant to be a power of two, the only
//    values for which the mask is 'x mod size': an assumption, stated.
// Each such value is analysed by passes 1-3 with the unknown fixed; values
// for which a lane would address outside a sized array are not ones a
// correct program runs with and are left out (and said so).
// A third kind of unknown has no use that pins it down: a uniform value in
// the start of a lane's loop counter (index = tid * offset, then cycled).
// Its small values are tried, and the verdict kept only if one of them
// makes every lane take a wavefront of its own: no value can cost more, so
// that worst case is exact although not every value was analysed.
//
//===----------------------------------------------------------------------===//
#include "WarpPasses.h"
#include "SymbolicText.h"

#include <algorithm>

namespace cbl::warp {

namespace {

/// Warp evaluations all values of one unknown may take together.
constexpr unsigned MaxEvaluationsPerUnknown = 4 * MaxWarpEvaluations;
/// The same for an unknown whose values are only tried (Pinned::AnyValue).
constexpr unsigned MaxEvaluationsPerTriedUnknown = MaxWarpEvaluations;

/// What pins an unknown's values down, best first.
enum class Pinned {
  ShiftAmount, ///< 0 to the bits of the shifted value minus one: exhaustive
  MaskLength,  ///< a power of two: assumed, and said so
  AnyValue,    ///< nothing: small values, kept only if one costs the most possible
};

struct Candidate {
  std::string Name;
  Pinned How = Pinned::AnyValue;
  unsigned Bits = 32;       ///< of the shifted value, or of the unknown itself
  bool Signed = false;
  std::string Use;          ///< the expression that shows it, as C text
};

/// The values of an unknown tried when nothing pins them down.
constexpr int64_t MaxAnyValue = 64;

void addCandidate(std::vector<Candidate> &Out, Candidate C) {
  for (Candidate &Old : Out)
    if (Old.Name == C.Name) {
      if (C.How < Old.How)
        Old = std::move(C); // exhaustive beats assumed beats tried
      return;
    }
  Out.push_back(std::move(C));
}

void findCandidates(const SymExpr &E, std::vector<Candidate> &Out) {
  if (E.Kind == ExprKind::Binary && (E.Op == Opcode::Shl || E.Op == Opcode::Shr)) {
    const SymExpr &Amount = stripCasts(*E.Ops[1]);
    if (Amount.Kind == ExprKind::Uniform)
      addCandidate(Out, {Amount.Name, Pinned::ShiftAmount, E.Ops[0]->Type.Bits, false, toString(E)});
  }
  if (E.Kind == ExprKind::Binary && E.Op == Opcode::And) {
    for (const SymRef &Op : E.Ops) {
      const SymExpr &M = stripCasts(*Op);
      if (M.Kind != ExprKind::Binary || M.Op != Opcode::Sub || isThreadVarying(*M.Ops[0]))
        continue;
      const SymExpr &One = stripCasts(*M.Ops[1]);
      if (!One.isConst() || One.Value != 1)
        continue;
      // One unknown: a parameter, or a uniform loop counter that starts at
      // a run-time value (stride = n / 2; stride >>= 1).
      SymLeaves L = collectLeaves(M.Ops[0]);
      std::vector<const SymExpr *> Leaves = L.Uniforms;
      Leaves.insert(Leaves.end(), L.Loops.begin(), L.Loops.end());
      if (Leaves.size() == 1 && !Leaves[0]->LaneVarying)
        addCandidate(Out, {Leaves[0]->Name, Pinned::MaskLength, Leaves[0]->Type.Bits,
                           Leaves[0]->Type.Signed, toString(E)});
    }
  }
  for (const SymRef &Op : E.Ops)
    findCandidates(*Op, Out);
}

/// The values of Set: runs of more than three consecutive positions of
/// Values as "32 to 256", others one by one: "0, 1 or 31".
std::string valuesText(const std::vector<int64_t> &Values, const std::vector<bool> &Set) {
  std::vector<std::string> Items;
  for (size_t I = 0; I < Values.size();) {
    if (!Set[I]) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J + 1 < Values.size() && Set[J + 1])
      ++J;
    if (J - I >= 3)
      Items.push_back(std::to_string(Values[I]) + " to " + std::to_string(Values[J]));
    else
      for (size_t K = I; K <= J; ++K)
        Items.push_back(std::to_string(Values[K]));
    I = J + 1;
  }
  std::string S;
  for (size_t I = 0; I < Items.size(); ++I)
    S += (I == 0 ? "" : I + 1 == Items.size() ? " or " : ", ") + Items[I];
  return S;
}

std::optional<AccessVerdict> casesOf(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                     const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                                     BankArch Arch, LayoutChange Change,
                                     const Candidate &P) {
  std::vector<int64_t> Values;
  if (P.How == Pinned::ShiftAmount)
    for (int64_t K = 0; K < int64_t(std::max(P.Bits, 32u)); ++K)
      Values.push_back(K);
  else if (P.How == Pinned::MaskLength)
    for (unsigned K = 0; K + (P.Signed ? 1 : 0) < P.Bits && K < 63; ++K)
      Values.push_back(int64_t(1) << K);
  else
    for (int64_t K = 0; K <= MaxAnyValue; ++K)
      Values.push_back(K);

  enum class Outcome { Cost, Outside, NeverRuns, Failed };
  std::vector<Outcome> Out(Values.size(), Outcome::Failed);
  std::vector<AccessVerdict> Verdicts(Values.size());
  std::string FirstFailure;
  unsigned Evaluations = 0;
  std::vector<std::string> BoundBy;
  std::vector<std::string> ThresholdBy;
  bool DataGuards = false;
  for (size_t I = 0; I < Values.size(); ++I) {
    const unsigned Budget =
        P.How == Pinned::AnyValue ? MaxEvaluationsPerTriedUnknown : MaxEvaluationsPerUnknown;
    if (Evaluations > Budget) {
      FirstFailure = "more than " + std::to_string(Budget) + " warp evaluations would be needed";
      break;
    }
    std::map<std::string, int64_t> Fixed{{P.Name, Values[I]}};
    PassesResult R = boundPasses(A, Loops, Arrays, Shape, Arch, Change, &Fixed);
    Evaluations += R.Evaluations;
    if (!R.Verdict) {
      if (FirstFailure.empty())
        FirstFailure = R.Fail.Reason;
      // Tried values must all be analysable: one that is not ends the try.
      if (P.How == Pinned::AnyValue)
        return std::nullopt;
      continue;
    }
    // A condition of its own comes from guards on loaded data, taken as
    // passed by every lane: the worst case, said so below.
    DataGuards |= !R.Verdict->Condition.empty();
    if (R.OutsideArray) {
      Out[I] = Outcome::Outside;
      continue;
    }
    if (R.Verdict->NeverExecuted) {
      Out[I] = Outcome::NeverRuns;
      continue;
    }
    Out[I] = Outcome::Cost;
    for (const std::string &N : R.Verdict->BoundBy)
      addUnique(BoundBy, N);
    for (const std::string &N : R.Verdict->BoundaryBy)
      addUnique(ThresholdBy, N);
    Verdicts[I] = std::move(*R.Verdict);
    // Tried values: the first that costs the most possible ends the search.
    if (P.How == Pinned::AnyValue && Verdicts[I].Cost.Wavefronts >= WarpSize) {
      Values.resize(I + 1);
      Out.resize(I + 1);
      Verdicts.resize(I + 1);
      break;
    }
  }
  // An unknown whose values are not pinned down gives a verdict only when a
  // value was found at which the access costs the most any warp's access can
  // (one wavefront per lane): then no value is worse, and the worst case is
  // exact although the other values were not all analysed.
  if (P.How == Pinned::AnyValue &&
      (Out.back() != Outcome::Cost || Verdicts.back().Cost.Wavefronts < WarpSize ||
       Verdicts.back().Status != VerdictStatus::Exact || !BoundBy.empty() || DataGuards))
    return std::nullopt;
  auto Marked = [&](auto Pred) {
    std::vector<bool> Set(Values.size());
    bool Any = false;
    for (size_t I = 0; I < Values.size(); ++I)
      Any |= (Set[I] = Pred(I));
    return std::make_pair(Any, Set);
  };
  auto [AnyCost, CostSet] = Marked([&](size_t I) { return Out[I] == Outcome::Cost; });
  if (!AnyCost)
    return std::nullopt;

  // The worst value, and one case per run of values with the same cost.
  size_t WorstAt = Values.size();
  AccessVerdict Worst;
  for (size_t I = 0; I < Values.size(); ++I) {
    if (Out[I] != Outcome::Cost)
      continue;
    const AccessVerdict &V = Verdicts[I];
    if (WorstAt == Values.size() || worse(V.Cost, Worst.Cost)) {
      WorstAt = I;
      Worst = V;
    }
  }
  std::vector<VerdictCase> Cases;
  for (size_t I = 0; I < Values.size(); ++I) {
    if (Out[I] != Outcome::Cost)
      continue;
    const AccessVerdict &V = Verdicts[I];
    std::string Label = "'" + P.Name + "' = " + std::to_string(Values[I]);
    bool Continues = I > 0 && Out[I - 1] == Outcome::Cost && !Cases.empty() &&
                     Cases.back().Cost.Degree == V.Cost.Degree &&
                     Cases.back().Cost.Wavefronts == V.Cost.Wavefronts &&
                     Cases.back().Cost.Ideal == V.Cost.Ideal;
    if (Continues) {
      std::string &Prev = Cases.back().Label;
      Prev = Prev.substr(0, Prev.find(" to ")) + " to " + std::to_string(Values[I]);
    } else {
      Cases.push_back({Label, V.Cost, V.Warp, unsigned(__builtin_popcount(V.Mask))});
    }
  }

  // The condition: degrees per set of values, worst first.
  std::map<unsigned, std::vector<bool>> ByDegree;
  for (size_t I = 0; I < Values.size(); ++I)
    if (Out[I] == Outcome::Cost) {
      auto &Set = ByDegree[Verdicts[I].Cost.Wavefronts > Verdicts[I].Cost.Ideal
                               ? Verdicts[I].Cost.Degree
                               : 1];
      Set.resize(Values.size(), false);
      Set[I] = true;
    }
  std::string Cond;
  for (auto It = ByDegree.rbegin(); It != ByDegree.rend(); ++It)
    Cond += std::string(Cond.empty() ? "" : ", ") +
            (It->first > 1 ? std::to_string(It->first) + "-way" : "conflict-free") + " when '" +
            P.Name + "' is " + valuesText(Values, It->second);
  if (DataGuards)
    Cond = "if every lane passes the guards on loaded data, " + Cond;
  auto [AnyNever, NeverSet] = Marked([&](size_t I) { return Out[I] == Outcome::NeverRuns; });
  if (AnyNever)
    Cond += "; it never runs when '" + P.Name + "' is " + valuesText(Values, NeverSet);
  std::string Scope;
  if (P.How == Pinned::ShiftAmount)
    Scope = "'" + P.Name + "' is a shift amount in '" + P.Use + "': 0 to " +
            std::to_string(Values.back()) + " were analysed";
  else if (P.How == Pinned::MaskLength)
    Scope = "'" + P.Name + "' is assumed a power of two: it is a mask length in '" + P.Use + "'";
  else
    Scope = "0 to " + std::to_string(Values.back()) + " were analysed; at " +
            std::to_string(Values.back()) + " every lane takes a wavefront of its own, the most " +
            "any access can cost, so no other value is worse";
  auto [AnyOutside, OutsideSet] = Marked([&](size_t I) { return Out[I] == Outcome::Outside; });
  if (AnyOutside)
    Scope += "; when it is " + valuesText(Values, OutsideSet) + " some lane would access outside '" +
             Arrays[A.ArrayId].Name + "'";
  auto [AnyFailed, FailedSet] = Marked([&](size_t I) { return Out[I] == Outcome::Failed; });
  if (AnyFailed)
    Scope += "; not analysed when it is " + valuesText(Values, FailedSet) + " (" + FirstFailure + ")";

  const bool Conflict = Worst.Cost.Wavefronts > Worst.Cost.Ideal;
  Worst.Cases = Cases;
  Worst.WorstCase = "'" + P.Name + "' = " + std::to_string(Values[WorstAt]) +
                    (Worst.WorstCase.empty() ? "" : ", " + Worst.WorstCase);
  Worst.Parameters.clear();
  Worst.BoundBy = BoundBy;
  Worst.BoundaryBy = ThresholdBy;
  Worst.Boundary = boundaryNote(ThresholdBy);
  Worst.Status = Conflict || AnyFailed || !BoundBy.empty() ? VerdictStatus::Bound : VerdictStatus::Exact;
  const std::string Stated = Cond + " (" + Scope + ")";
  Worst.Condition = Conflict ? Stated : "";
  Worst.Reason = Conflict || AnyFailed ? dependsOnValueReason(P.Name, Stated)
                                       : "conflict-free for every value of '" + P.Name + "' (" +
                                             Scope + ")";
  if (!BoundBy.empty())
    Worst.Reason += "; " + boundByReason(BoundBy);
  return Worst;
}

} // namespace

std::optional<AccessVerdict> powerOfTwoCases(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                             const std::vector<SharedArray> &Arrays,
                                             const EvalShape &Shape, BankArch Arch,
                                             LayoutChange Change) {
  std::vector<Candidate> Candidates;
  findCandidates(*A.ByteOffset, Candidates);
  for (const Guard &G : A.Guards)
    findCandidates(*G.Cond, Candidates);
  std::vector<SymRef> StartsOfLaneCounters;
  const std::set<unsigned> Needed = neededCounters(A, Loops);
  for (unsigned Id : A.Loops) {
    const LoopInfo &L = Loops[Id];
    if (L.Cond)
      findCandidates(*L.Cond, Candidates);
    for (const LoopCounter &LC : L.Counters) {
      for (const SymRef &E : {LC.Init, LC.Next})
        if (E)
          findCandidates(*E, Candidates);
      if (LC.LaneVarying && LC.Init && Needed.count(LC.Id))
        StartsOfLaneCounters.push_back(LC.Init);
    }
  }
  // A warp-uniform unknown in the start of a lane's counter (index = tid *
  // offset, then cycled through a loop) reaches the address only through
  // the loop: no other pass sees it. One of its values may cost the most
  // possible.
  for (const SymRef &E : StartsOfLaneCounters)
    for (const SymExpr *U : collectLeaves(E).Uniforms)
      addCandidate(Candidates, {U->Name, Pinned::AnyValue, U->Type.Bits, U->Type.Signed, ""});
  if (Candidates.size() > 4)
    return std::nullopt;
  // Exhaustive answers (shift amounts) before assumed ones (mask lengths),
  // before tried values.
  std::stable_sort(Candidates.begin(), Candidates.end(),
                   [](const Candidate &X, const Candidate &Y) { return X.How < Y.How; });
  for (const Candidate &P : Candidates)
    if (auto V = casesOf(A, Loops, Arrays, Shape, Arch, Change, P))
      return V;
  return std::nullopt;
}

} // namespace cbl::warp
