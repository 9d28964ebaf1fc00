//===- BoundaryWarps.cpp - Warps of partial tiles --------------------------===//
//
// A threshold guard (`if (tx > nLast) return;`, `if (i < n)`) passes every
// lane of the warps inside the block's range: their cost is what the warp
// analysis reports. In a boundary block (the last tile along an axis, when
// the problem size is not a multiple of the tile) it removes lanes. Removing
// lanes never adds a bank conflict, but Nsight Compute's source page compares
// the wavefronts with the bytes packed (sourcePageIdeal): an 8-byte access
// whose lanes 0-7 and 16-23 are left still takes its two half-warps, 2
// wavefronts against a page ideal of 1 (test/data/h200-edge-tiles.csv). Here
// every choice of the guards' block-uniform sides is tried on one warp state
// and the costliest boundary warp kept.
//
//===----------------------------------------------------------------------===//

#include "SymbolicText.h"
#include "WarpPasses.h"

#include <algorithm>
#include <map>
#include <set>

namespace cbl::warp {

namespace {

/// How one lane sees one order comparison of a threshold guard: decided on
/// its own, or as its key against the block-uniform cut `u` (Key + u op 0
/// when the two sides differ by a uniform sum; Key op u; u op Key).
struct AtomLane {
  enum Form { Fixed, Sum, KeyLeft, KeyRight } How = Fixed;
  bool Value = false;
  int64_t Key = 0;
  unsigned Cut = 0;
};

bool compare(Opcode Op, int64_t A, int64_t B) {
  switch (Op) {
  case Opcode::LT: return A < B;
  case Opcode::LE: return A <= B;
  case Opcode::GT: return A > B;
  default: return A >= B;
  }
}

bool isOrder(const SymExpr &E) {
  return E.Kind == ExprKind::Binary &&
         (E.Op == Opcode::LT || E.Op == Opcode::LE || E.Op == Opcode::GT || E.Op == Opcode::GE);
}

/// c ? 1 : 0 and c ? 0 : 1: c, or its negation.
bool constSelect(const SymExpr &E) {
  return E.Kind == ExprKind::Select && E.Ops[1]->isConst() && E.Ops[2]->isConst();
}

/// The order comparisons of a threshold guard, and its parts decided per lane.
void atomsOf(const SymExpr &E, std::vector<const SymExpr *> &Out, unsigned Depth = 0) {
  if (Depth > 32)
    return;
  if (E.Kind == ExprKind::Unary && E.Op == Opcode::LNot)
    return atomsOf(*E.Ops[0], Out, Depth + 1);
  if (constSelect(E))
    return atomsOf(*E.Ops[0], Out, Depth + 1);
  if (E.Kind == ExprKind::Binary && (E.Op == Opcode::LAnd || E.Op == Opcode::LOr)) {
    atomsOf(*E.Ops[0], Out, Depth + 1);
    return atomsOf(*E.Ops[1], Out, Depth + 1);
  }
  Out.push_back(&E);
}

/// The lanes' view of every atom of the threshold guards of one warp state.
struct Scan {
  std::vector<std::string> CutNames;  ///< one block-uniform side per cut
  std::map<const SymExpr *, SymRef> Diffs;
  std::array<std::map<const SymExpr *, AtomLane>, WarpSize> Lanes;

  unsigned cutOf(const std::string &Name) {
    auto It = std::find(CutNames.begin(), CutNames.end(), Name);
    if (It != CutNames.end())
      return unsigned(It - CutNames.begin());
    CutNames.push_back(Name);
    return unsigned(CutNames.size() - 1);
  }

  /// False when the atom is not a comparison of a lane's value with a
  /// block-uniform one.
  bool see(const SymExpr &E, const LaneEnv &Env, AtomLane &Out) {
    LaneValue Whole = evaluateLane(E, Env);
    if (Whole.exact()) {
      Out.Value = Whole.C != 0;
      return true;
    }
    if (!isOrder(E))
      return false;
    SymRef &D = Diffs[&E];
    if (!D)
      D = SymExpr::binary(Opcode::Sub, SymExpr::cast(E.Ops[0], IntType::i64()),
                          SymExpr::cast(E.Ops[1], IntType::i64()), IntType::i64());
    LaneValue V = evaluateLane(*D, Env);
    if (V.known()) { // Key + (a uniform sum) op 0
      std::string Name = "sum";
      for (const auto &[N, K] : V.Terms)
        Name += " " + std::to_string(K) + "*" + N;
      Out = {AtomLane::Sum, false, V.C, cutOf(Name)};
      return true;
    }
    LaneValue L = evaluateLane(*E.Ops[0], Env), R = evaluateLane(*E.Ops[1], Env);
    if (L.exact() && !R.known() && !isThreadVarying(E.Ops[1])) {
      Out = {AtomLane::KeyLeft, false, L.C, cutOf(keyText(*E.Ops[1]))};
      return true;
    }
    if (R.exact() && !L.known() && !isThreadVarying(E.Ops[0])) {
      Out = {AtomLane::KeyRight, false, R.C, cutOf(keyText(*E.Ops[0]))};
      return true;
    }
    return false;
  }

  bool atom(const SymExpr &E, unsigned L, const std::vector<int64_t> &Cuts) const {
    const AtomLane &A = Lanes[L].at(&E);
    switch (A.How) {
    case AtomLane::Fixed: return A.Value;
    case AtomLane::Sum: return compare(E.Op, A.Key + Cuts[A.Cut], 0);
    case AtomLane::KeyLeft: return compare(E.Op, A.Key, Cuts[A.Cut]);
    case AtomLane::KeyRight: return compare(E.Op, Cuts[A.Cut], A.Key);
    }
    return false;
  }

  /// The guard's value in lane L with the cuts at Cuts.
  bool eval(const SymExpr &E, unsigned L, const std::vector<int64_t> &Cuts, unsigned Depth = 0) const {
    if (Depth > 32)
      return true;
    if (E.Kind == ExprKind::Unary && E.Op == Opcode::LNot)
      return !eval(*E.Ops[0], L, Cuts, Depth + 1);
    if (constSelect(E))
      return eval(*E.Ops[0], L, Cuts, Depth + 1) ? E.Ops[1]->Value != 0 : E.Ops[2]->Value != 0;
    if (E.Kind == ExprKind::Binary && E.Op == Opcode::LAnd)
      return eval(*E.Ops[0], L, Cuts, Depth + 1) && eval(*E.Ops[1], L, Cuts, Depth + 1);
    if (E.Kind == ExprKind::Binary && E.Op == Opcode::LOr)
      return eval(*E.Ops[0], L, Cuts, Depth + 1) || eval(*E.Ops[1], L, Cuts, Depth + 1);
    return atom(E, L, Cuts);
  }
};

/// The values worth trying for each cut: around every key, where an
/// order comparison with it changes.
std::vector<std::vector<int64_t>> cutValues(const Scan &S, uint32_t Lanes) {
  std::vector<std::set<int64_t>> Values(S.CutNames.size());
  for (unsigned L = 0; L < WarpSize; ++L)
    if (Lanes >> L & 1)
      for (const auto &[E, A] : S.Lanes[L])
        if (A.How != AtomLane::Fixed) {
          int64_t K = A.How == AtomLane::Sum ? -A.Key : A.Key;
          for (int64_t D : {-1, 0, 1})
            Values[A.Cut].insert(K + D);
        }
  std::vector<std::vector<int64_t>> Out;
  for (const auto &V : Values)
    Out.emplace_back(V.begin(), V.end());
  return Out;
}

} // namespace

bool scansBoundary(Context &C) {
  if (!C.BoundGuards || C.Change.Array >= 0 || C.A.Op == AccessOp::Atomic || C.A.Matrix ||
      C.A.Width < 8)
    return false;
  for (const GuardPart &P : C.Guards)
    if (!P.Uniform && !P.Opaque && P.Threshold) {
      C.EdgeParts.push_back(&P);
      atomsOf(*P.Cond, C.EdgeAtoms);
    }
  return !C.EdgeParts.empty();
}

std::optional<EdgeWarp> boundaryWarp(Context &C, unsigned W,
                                     const std::array<LoopValues, WarpSize> *Vals,
                                     const WarpResult &R) {
  BankCost Full = costOf(R.WA, C.Arch);
  std::optional<unsigned> FullPage = sourcePageIdeal(R.WA, C.Arch);
  if (!FullPage || *FullPage != Full.Ideal || C.EdgeIncomplete)
    return std::nullopt; // the page and the counters disagree already: not claimed
  const std::vector<const GuardPart *> &Parts = C.EdgeParts;
  Scan S;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(R.WA.ActiveMask >> L & 1))
      continue;
    LaneEnv Env;
    if (!laneEnv(C, W, L, Env))
      return std::nullopt;
    if (Vals)
      Env.LoopValues = &(*Vals)[L];
    for (const SymExpr *E : C.EdgeAtoms)
      if (!S.see(*E, Env, S.Lanes[L][E]))
        return std::nullopt;
  }
  std::vector<std::vector<int64_t>> Values = cutValues(S, R.WA.ActiveMask);
  uint64_t Choices = 1;
  for (const auto &V : Values)
    Choices = std::min<uint64_t>(Choices * V.size(), uint64_t(1) << 32);
  if (Values.empty() || Choices > C.EdgeBudget) {
    C.EdgeIncomplete = !Values.empty();
    return std::nullopt;
  }
  C.EdgeBudget -= unsigned(Choices);
  std::optional<EdgeWarp> Worst;
  std::set<uint32_t> Seen;
  std::vector<size_t> Pick(Values.size(), 0);
  std::vector<int64_t> Cuts(Values.size());
  for (uint64_t N = 0; N < Choices; ++N) {
    for (size_t I = 0, Rest = N; I < Values.size(); Rest /= Values[I].size(), ++I)
      Cuts[I] = Values[I][Rest % Values[I].size()];
    uint32_t Mask = 0;
    for (unsigned L = 0; L < WarpSize; ++L)
      if ((R.WA.ActiveMask >> L & 1) &&
          std::all_of(Parts.begin(), Parts.end(), [&](const GuardPart *P) {
            return S.eval(*P->Cond, L, Cuts) != P->Negated;
          }))
        Mask |= 1u << L;
    if (!Mask || Mask == R.WA.ActiveMask || !Seen.insert(Mask).second)
      continue;
    WarpAccess G = R.WA;
    G.ActiveMask = Mask;
    BankCost Cost = costOf(G, C.Arch);
    std::optional<unsigned> Page = sourcePageIdeal(G, C.Arch);
    // Relatively costlier than the full warp: W/P > Wf/If.
    if (!Page || uint64_t(Cost.Wavefronts) * Full.Ideal <= uint64_t(Full.Wavefronts) * *Page)
      continue;
    EdgeWarp Here{Cost, *Page, W, Mask, R.WA.ActiveMask};
    if (!Worst || excessOf(Here) > excessOf(*Worst))
      Worst = Here;
  }
  return Worst;
}

void boundaryBlocks(const Context &C, AccessVerdict &V) {
  const EdgeWarp &E = *V.Edge;
  std::string Why = "in a boundary block (a partial tile), where the conditions on " +
                    quotedList(C.ThresholdBy) + " leave " +
                    std::to_string(__builtin_popcount(E.Mask)) + " lanes of a warp, it takes " +
                    std::to_string(E.Cost.Wavefronts) +
                    " wavefronts against Nsight Compute's source-page ideal of " +
                    std::to_string(E.PageIdeal) + " (no bank conflict: " +
                    std::to_string(C.A.Width) + "-byte accesses are served " +
                    std::to_string(WarpSize / std::max(1u, E.Cost.Phases)) +
                    " lanes at a time); the cost shown is the full warps'";
  V.PerExecution = false;
  if (V.Status == VerdictStatus::Exact) {
    V.Status = VerdictStatus::Bound;
    V.Reason = Why;
  } else {
    V.Reason += "; " + Why;
  }
}

} // namespace cbl::warp
