//===- ParameterPasses.cpp - Costs that depend on warp-uniform unknowns ---===//
//
// Passes 4 and 5 of WarpAnalysis (see WarpAnalysis.h): when the address
// depends on a kernel parameter (or another warp-uniform unknown) in a way
// that changes the cost, enumerate one parameter over a period of the bank
// pattern, or let isl decide the set of values with a conflict.
//
//===----------------------------------------------------------------------===//
#include "WarpPasses.h"
#include "SymbolicText.h"
#include "cuda-bank-lint/Symbolic/IslConditions.h"

#include <algorithm>
#include <climits>
#include <numeric>

namespace cbl::warp {

namespace {

/// Warp evaluations spent running loops over all values of one parameter.
constexpr unsigned MaxEvaluationsPerParameter = 4 * MaxWarpEvaluations;

/// The gcd of P's coefficients in every lane's byte offset, up to 128 (the
/// bank pattern repeats every 128 bytes); 1 when not known.
int64_t coefficientGcd(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                 const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                 const std::string &P) {
  Context C{A, Loops, Arrays, Shape, BankArch::Sm70Plus, -1, 0};
  uint64_t G = 128;
  for (unsigned W = 0; W < Shape.Warps && G > 4; ++W)
    for (unsigned L = 0; L < WarpSize; ++L) {
      LaneEnv Env;
      if (!laneEnv(C, W, L, Env))
        break;
      LaneValue V = evaluateLane(*A.ByteOffset, Env);
      if (!V.known())
        return 1;
      auto It = V.Terms.find(P);
      G = std::gcd(G, uint64_t(It == V.Terms.end() ? 0 : std::abs(It->second)));
    }
  return int64_t(G);
}

/// Pass 4 (see the header): enumerate the uniform unknown P, which enters the
/// address affinely; the other unknowns must become whole-word uniform
/// offsets once P is known (blockIdx.x * P).
std::optional<AccessVerdict> casesOfParameter(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                              const std::vector<SharedArray> &Arrays,
                                              const EvalShape &Shape, BankArch Arch,
                                              LayoutChange Change, const std::string &P,
                                              const SymLeaves &L, bool BoundGuards) {
  std::vector<std::string> BoundBy;     // unknowns that decide which lanes run it
  std::vector<std::string> ThresholdBy; // unknowns of threshold guards (gid < n)
  unsigned Evaluations = 0;
  // Cost for one value of P; nullopt when not exact.
  auto CostAt = [&](int64_t V) -> std::optional<AccessVerdict> {
    std::map<std::string, int64_t> Values{{P, V}};
    Context C{A, Loops, Arrays, Shape, Arch, Change};
    C.UniformValues = &Values;
    C.BoundGuards = BoundGuards;
    Collector Col(C);
    std::string Unused;
    if (runPass(C, false, Col, Unused)) {
      for (const auto &N : C.BoundBy)
        addUnique(BoundBy, N);
      for (const auto &N : C.ThresholdBy)
        addUnique(ThresholdBy, N);
      return finish(C, Col, VerdictStatus::Exact);
    }
    // The loops around it may need running (a guard on a block-stride
    // counter): passes 1-3 with P fixed, within a budget over all values.
    if (A.Loops.empty() || Evaluations > MaxEvaluationsPerParameter)
      return std::nullopt;
    PassesResult R = boundPasses(A, Loops, Arrays, Shape, Arch, Change, &Values);
    Evaluations += R.Evaluations;
    if (!R.Verdict || Evaluations > MaxEvaluationsPerParameter)
      return std::nullopt;
    // Whether it is a bound comes back through BoundBy, as for the
    // parametric pass above; the per-value cost itself is exact.
    for (const auto &N : R.Verdict->BoundBy)
      addUnique(BoundBy, N);
    for (const auto &N : R.Verdict->BoundaryBy)
      addUnique(ThresholdBy, N);
    R.Verdict->Status = VerdictStatus::Exact;
    return R.Verdict;
  };
  // The spread of the other terms (P = 0): once P moves the lanes further
  // apart than that, their words cannot coincide by accident and the cost is
  // periodic, with period 128 bytes / gcd(128, P's coefficients), at least
  // 32 (residues are described mod 32 or more).
  auto Base = CostAt(0);
  if (!Base)
    return std::nullopt;
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (Base->Mask >> Lane & 1) {
      Lo = std::min<int64_t>(Lo, int64_t(Base->Addr[Lane]));
      Hi = std::max<int64_t>(Hi, int64_t(Base->Addr[Lane]));
    }
  const int64_t G = coefficientGcd(A, Loops, Arrays, Shape, P);
  const int64_t Period = std::max<int64_t>(32, 128 / G);
  // (In bytes, plus the word or access either side may share.)
  int64_t Spread = Lo == INT64_MAX ? 0 : (Hi - Lo + 2 * std::max<int64_t>(A.Width, 4)) / G + 1;
  if (Spread > 2048)
    return std::nullopt;
  int64_t Start = Spread + 1, End = Start + 2 * Period;
  std::vector<unsigned> Degree(size_t(End), 0);
  AccessVerdict Worst;
  bool Any = false;
  // In order, checking the period as soon as a value has a partner one
  // period before it: a cost that is not periodic stops the enumeration there.
  for (int64_t V = 0; V < End; ++V) {
    auto R = V == 0 ? Base : CostAt(V);
    if (!R)
      return std::nullopt;
    Degree[size_t(V)] = R->Cost.Degree;
    if (V >= Start + Period && Degree[size_t(V)] != Degree[size_t(V - Period)])
      return std::nullopt; // not periodic: do not guess
    if (!Any || worse(R->Cost, Worst.Cost)) {
      Worst = *R;
      Worst.WorstCase = "'" + P + "' = " + std::to_string(V);
      Any = true;
    }
  }
  // Conditions per degree, over one period, plus small values that differ.
  std::map<unsigned, std::vector<bool>> ByDegree;
  for (int64_t V = Start; V < Start + Period; ++V) {
    auto &Set = ByDegree[Degree[size_t(V)]];
    Set.resize(size_t(Period), false);
    Set[size_t(V % Period)] = true;
  }
  std::string Cond;
  for (auto It = ByDegree.rbegin(); It != ByDegree.rend(); ++It) {
    if (It->first <= 1)
      continue;
    Cond += (Cond.empty() ? "" : "; ") + std::to_string(It->first) + "-way " +
            describeResidues(P, It->second);
  }
  // Small values that differ from the periodic pattern, as ranges of equal
  // degree: "'pitch' = 0-15 (conflict-free)".
  std::string Except;
  for (int64_t V = 0; V < Start;) {
    auto Differs = [&](int64_t X) {
      return Degree[size_t(X)] != Degree[size_t(Start + ((X - Start) % Period + Period) % Period)];
    };
    if (!Differs(V)) {
      ++V;
      continue;
    }
    int64_t W = V;
    while (W + 1 < Start && Differs(W + 1) && Degree[size_t(W + 1)] == Degree[size_t(V)])
      ++W;
    unsigned D = Degree[size_t(V)];
    Except += (Except.empty() ? "" : ", ") + std::to_string(V) +
              (W > V ? "-" + std::to_string(W) : "") + " (" +
              (D > 1 ? std::to_string(D) + "-way" : "conflict-free") + ")";
    V = W + 1;
  }
  if (!Except.empty())
    Cond += (Cond.empty() ? "conflict-free" : "") + std::string(", except '") + P + "' = " + Except;
  if (Cond.empty())
    Cond = "conflict-free for every value of '" + P + "'";
  // Only non-negative values were evaluated; say so for signed unknowns.
  bool Signed = false;
  for (const SymExpr *U : L.Uniforms)
    Signed |= U->Name == P && U->Type.Signed;
  for (const SymExpr *U : L.Loops)
    Signed |= U->Name == P && U->Type.Signed;
  if (Signed)
    Cond += " (for '" + P + "' >= 0)";
  Worst.Status = Worst.Cost.Degree > 1 || !BoundBy.empty() ? VerdictStatus::Bound : VerdictStatus::Exact;
  Worst.Condition = Cond;
  Worst.Parameters.clear();
  Worst.BoundBy = BoundBy;
  Worst.BoundaryBy = ThresholdBy;
  Worst.Boundary = boundaryNote(ThresholdBy);
  if (Worst.Cost.Degree > 1)
    Worst.Reason = dependsOnValueReason(P, Cond);
  if (!BoundBy.empty())
    Worst.Reason += std::string(Worst.Reason.empty() ? "" : "; ") + boundByReason(BoundBy);
  return Worst;
}

} // namespace

std::optional<AccessVerdict> parameterCases(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                            const std::vector<SharedArray> &Arrays,
                                            const EvalShape &Shape, BankArch Arch,
                                            LayoutChange Change, bool BoundGuards) {
  SymLeaves L = collectLeaves(A.ByteOffset);
  std::vector<std::string> Names;
  for (const SymExpr *U : L.Uniforms)
    addUnique(Names, U->Name);
  for (const SymExpr *U : L.Loops)
    if (!U->LaneVarying)
      addUnique(Names, U->Name);
  if (Names.size() > 4)
    return std::nullopt;
  for (const std::string &P : Names) {
    if (degreeIn(*A.ByteOffset, P) != 1 ||
        std::any_of(A.Guards.begin(), A.Guards.end(),
                    [&](const Guard &G) { return degreeIn(*G.Cond, P) != 0; }))
      continue;
    if (auto V = casesOfParameter(A, Loops, Arrays, Shape, Arch, Change, P, L, BoundGuards))
      return V;
  }
  return std::nullopt;
}

namespace {

/// The clamp nodes of E: min or max of a per-lane value and a warp-uniform
/// one that is not a constant. Appends the uniform operand and the other.
void clampsOf(const SymRef &E, std::vector<std::pair<SymRef, SymRef>> &Out, unsigned Depth = 0) {
  if (!E || Depth > 64 || Out.size() > 2)
    return;
  if (E->Kind == ExprKind::Binary && (E->Op == Opcode::Min || E->Op == Opcode::Max))
    for (unsigned I = 0; I < 2; ++I) {
      const SymRef &U = E->Ops[I], &X = E->Ops[1 - I];
      if (!U->isConst() && !isThreadVarying(U) && isThreadVarying(X)) {
        Out.push_back({U, X});
        return;
      }
    }
  for (const SymRef &Op : E->Ops)
    clampsOf(Op, Out, Depth + 1);
}

/// Every node of E whose keyText is Text (one value used in several places).
void nodesSpelled(const SymRef &E, const std::string &Text, std::map<const SymExpr *, int64_t> &Out,
                  int64_t V, unsigned Depth = 0) {
  if (!E || Depth > 64)
    return;
  if (!isThreadVarying(E) && !E->isConst() && keyText(*E) == Text) {
    Out[E.get()] = V;
    return;
  }
  for (const SymRef &Op : E->Ops)
    nodesSpelled(Op, Text, Out, V, Depth + 1);
}

/// Ranges of equal degree over (value, degree) pairs in order: "conflict-free
/// when 'n' is at most 31, 2-way when 'n' is at least 32".
std::string degreeRanges(const std::string &Name, const std::vector<std::pair<int64_t, unsigned>> &Degrees) {
  std::string Cases;
  for (size_t I = 0; I < Degrees.size();) {
    size_t J = I;
    while (J + 1 < Degrees.size() && Degrees[J + 1].second == Degrees[I].second)
      ++J;
    unsigned D = Degrees[I].second;
    std::string From = I == 0 ? "at most " + std::to_string(Degrees[J].first)
                       : J + 1 == Degrees.size() ? "at least " + std::to_string(Degrees[I].first)
                       : Degrees[I].first == Degrees[J].first
                           ? std::to_string(Degrees[I].first)
                           : std::to_string(Degrees[I].first) + " to " + std::to_string(Degrees[J].first);
    Cases += (Cases.empty() ? "" : ", ") + (D > 1 ? std::to_string(D) + "-way" : std::string("conflict-free")) +
             " when '" + Name + "' is " + From;
    I = J + 1;
  }
  return Cases;
}

/// Per warp, the range of the clamped value and the warp's cost at each
/// bound that moves one of its lanes: a bound below the range leaves every
/// lane its own value, one above it gives every lane the bound.
/// Cost[W][B - Lo[W] + 1], nullopt where no lane runs it.
struct ClampTable {
  std::vector<int64_t> Lo, Hi;
  std::vector<std::vector<std::optional<BankCost>>> Cost;
};

std::optional<ClampTable> clampTable(Context &C, const SymExpr &Value, std::map<const SymExpr *, int64_t> &Nodes) {
  const unsigned Warps = C.Shape.Warps;
  ClampTable T{std::vector<int64_t>(Warps, INT64_MAX), std::vector<int64_t>(Warps, INT64_MIN),
               std::vector<std::vector<std::optional<BankCost>>>(Warps)};
  int64_t Evaluations = 0;
  for (unsigned W = 0; W < Warps; ++W) {
    for (unsigned L = 0; L < WarpSize; ++L) {
      LaneEnv Env;
      if (!laneEnv(C, W, L, Env))
        break;
      LaneValue V = evaluateLane(Value, Env);
      if (!V.exact())
        return std::nullopt;
      T.Lo[W] = std::min(T.Lo[W], V.C);
      T.Hi[W] = std::max(T.Hi[W], V.C);
    }
    if (T.Lo[W] > T.Hi[W] || (Evaluations += T.Hi[W] - T.Lo[W] + 3) > int64_t(MaxEvaluationsPerParameter))
      return std::nullopt;
    for (int64_t B = T.Lo[W] - 1; B <= T.Hi[W] + 1; ++B) {
      for (auto &KV : Nodes)
        KV.second = B;
      WarpResult R = evalWarp(C, W, nullptr, 0xffffffffu);
      if (!R.Ok)
        return std::nullopt;
      T.Cost[W].push_back(R.WA.ActiveMask ? std::optional<BankCost>(costOf(R.WA, C.Arch)) : std::nullopt);
    }
  }
  return T;
}

} // namespace

std::optional<AccessVerdict> clampCases(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                        const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                                        BankArch Arch, LayoutChange Change, bool BoundGuards) {
  std::vector<std::pair<SymRef, SymRef>> Clamps;
  clampsOf(A.ByteOffset, Clamps);
  if (Clamps.size() != 1)
    return std::nullopt;
  const auto &[Bound, Value] = Clamps[0];
  const std::string Name = toString(*Bound); // as the reason names it
  // The bound is given values in the address only: a guard that reads it
  // stays a condition on an unknown (every lane passing is the worst case),
  // so that each warp's cost is constant outside its own range.
  std::map<const SymExpr *, int64_t> Nodes;
  nodesSpelled(A.ByteOffset, keyText(*Bound), Nodes, 0);
  Context C{A, Loops, Arrays, Shape, Arch, Change};
  C.NodeValues = &Nodes;
  C.BoundGuards = BoundGuards;
  std::optional<ClampTable> T = clampTable(C, *Value, Nodes);
  if (!T)
    return std::nullopt;
  const auto &[Lo, Hi, Cost] = *T;
  auto CostAt = [&](unsigned W, int64_t B) {
    return Cost[W][size_t(std::clamp(B, Lo[W] - 1, Hi[W] + 1) - Lo[W] + 1)];
  };
  // Every warp the same at every bound: the block's cost does not depend on it.
  bool Same = true;
  for (unsigned W = 0; W < Shape.Warps; ++W) {
    std::optional<BankCost> First;
    for (const auto &K : Cost[W])
      if (K && !First)
        First = K;
      else if (K)
        Same &= K->Wavefronts == First->Wavefronts && K->Ideal == First->Ideal;
  }
  // The worst warp at each bound, over the whole block's range.
  int64_t BlockLo = *std::min_element(Lo.begin(), Lo.end()), BlockHi = *std::max_element(Hi.begin(), Hi.end());
  std::vector<std::pair<int64_t, unsigned>> Degrees; // (bound, degree) where it runs, in order
  int64_t WorstBound = BlockLo - 1;
  std::optional<BankCost> Worst;
  for (int64_t B = BlockLo - 1; B <= BlockHi + 1; ++B) {
    std::optional<BankCost> AtB;
    for (unsigned W = 0; W < Shape.Warps; ++W)
      if (auto K = CostAt(W, B); K && (!AtB || worse(*K, *AtB)))
        AtB = K;
    if (!AtB)
      continue;
    Degrees.push_back({B, AtB->Degree});
    if (!Worst || worse(*AtB, *Worst)) {
      Worst = AtB;
      WorstBound = B;
    }
  }
  if (!Worst)
    return std::nullopt;
  // The verdict at the worst bound, over the block as the other passes give it.
  for (auto &KV : Nodes)
    KV.second = WorstBound;
  Context F{A, Loops, Arrays, Shape, Arch, Change};
  F.NodeValues = &Nodes;
  F.BoundGuards = BoundGuards;
  Collector Col(F);
  std::string Unused;
  if (!runPass(F, false, Col, Unused))
    return std::nullopt;
  for (const std::string &N : C.BoundBy)
    addUnique(F.BoundBy, N);
  AccessVerdict V = finish(F, Col, F.BoundBy.empty() ? VerdictStatus::Exact : VerdictStatus::Bound);
  if (Same) {
    addUnique(V.Parameters, Name);
    return V;
  }
  std::string Cases = degreeRanges(Name, Degrees);
  V.Status = VerdictStatus::Bound;
  V.Condition = Cases;
  V.Reason = dependsOnValueReason(Name, Cases) + (V.Reason.empty() ? "" : "; " + V.Reason);
  return V;
}

/// Pass 5 (4-byte accesses): the words are linear in several uniform
/// unknowns with lane-dependent coefficients; isl decides for which values
/// two lanes conflict (IslConditions.h). Not for atomics: two lanes on one
/// word conflict there too, which the word-difference condition does not say.
std::optional<AccessVerdict> islParameterSet(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                             const std::vector<SharedArray> &Arrays,
                                             const EvalShape &Shape, BankArch Arch, bool BoundGuards) {
  if (A.Width != 4 || Arch != BankArch::Sm70Plus || A.Op == AccessOp::Atomic)
    return std::nullopt;
  Context C{A, Loops, Arrays, Shape, Arch, {}};
  C.BoundGuards = BoundGuards;
  std::vector<std::vector<LinearWord>> Warps;
  std::vector<std::string> Names;
  for (unsigned W = 0; W < Shape.Warps; ++W) {
    std::vector<LinearWord> Lanes;
    for (unsigned L = 0; L < WarpSize; ++L) {
      LaneEnv Env;
      if (!laneEnv(C, W, L, Env))
        break;
      bool Taken = true;
      Failure F;
      if (!guardsTaken(C, Env, Taken, F))
        return std::nullopt;
      if (!Taken)
        continue;
      LaneValue V = evaluateLane(*A.ByteOffset, Env);
      if (!V.known() || V.C % 4)
        return std::nullopt;
      LinearWord Word{V.C / 4, {}};
      for (const auto &[N, K] : V.Terms) {
        if (K % 4)
          return std::nullopt;
        Word.Terms[N] = K / 4;
        addUnique(Names, N);
      }
      Lanes.push_back(std::move(Word));
    }
    if (!Lanes.empty())
      Warps.push_back(std::move(Lanes));
  }
  if (Names.empty())
    return std::nullopt;
  std::sort(Names.begin(), Names.end());
  auto R = conflictingParameters(Warps, bankCount(Arch));
  if (!R)
    return std::nullopt;
  AccessVerdict V;
  V.WarpsEvaluated = Shape.Warps;
  V.AssumedUniform = C.AssumedUniform;
  V.NeverExecuted = Warps.empty();
  V.BoundBy = C.BoundBy;
  V.BoundaryBy = C.ThresholdBy;
  V.Boundary = boundaryNote(C.ThresholdBy);
  const std::string Lanes =
      C.BoundBy.empty() ? "" : "which threads run it depends on " + quotedList(C.BoundBy);
  if (R->ConflictFree) {
    // One word per bank for every value: one wavefront per warp.
    V.Status = C.BoundBy.empty() ? VerdictStatus::Exact : VerdictStatus::Bound;
    V.Cost.Wavefronts = V.Cost.Ideal = V.Cost.Degree = Warps.empty() ? 0 : 1;
    V.Parameters = Names;
    if (!Lanes.empty())
      V.Reason = Lanes + "; conflict-free whichever run it";
    return V;
  }
  V.Status = VerdictStatus::Bound;
  V.Condition = "two lanes access different words of one bank when " + R->Condition +
                " (decided with isl; the degree is not computed)";
  V.Reason = "the cost depends on " + quotedList(Names) + ": " + V.Condition + (Lanes.empty() ? "" : "; " + Lanes);
  return V;
}

} // namespace cbl::warp
