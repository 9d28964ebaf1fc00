//===- GuardParts.cpp - Which lanes run an access under its guards -------===//
//
// The guards of an access split into parts (guardPartsOf), and for one lane
// whether each part lets it run the access (guardsTaken): warp-uniform parts
// the same for every lane (assumed when undecided), thresholds and other
// parts decided by warp-uniform unknowns (every lane passing is the worst
// case), parts no analysis can compute. A part's outcome is kept for the
// pass or the warp when nothing it reads differs between the lanes that
// share it.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "SymbolicText.h"
#include "WarpPasses.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace cbl::warp {

/// A threshold condition: order comparisons (gid < n), joined by && and ||
/// (row < n && col < n; the compiler's i < lo || i > hi), through negations
/// (!c, and c ? 0 : 1: a thread left where c held). Lanes pass it in runs,
/// so the warps inside a run pass with every lane.
bool isThreshold(const SymExpr &E, unsigned Depth) {
  if (Depth > 32)
    return false;
  if (E.Kind == ExprKind::Unary && E.Op == Opcode::LNot)
    return isThreshold(*E.Ops[0], Depth + 1);
  if (E.Kind == ExprKind::Select && E.Ops[1]->isConst() && E.Ops[2]->isConst() &&
      (E.Ops[1]->Value != 0) != (E.Ops[2]->Value != 0))
    return isThreshold(*E.Ops[0], Depth + 1);
  if (E.Kind == ExprKind::Binary && (E.Op == Opcode::LAnd || E.Op == Opcode::LOr))
    return isThreshold(*E.Ops[0], Depth + 1) && isThreshold(*E.Ops[1], Depth + 1);
  if (E.Kind == ExprKind::Binary &&
      (E.Op == Opcode::LT || E.Op == Opcode::LE || E.Op == Opcode::GT || E.Op == Opcode::GE))
    return true;
  // A part decided for every lane on its own (tid == 0) joins a threshold
  // without breaking its runs.
  SymLeaves L = collectLeaves(std::shared_ptr<const SymExpr>(std::shared_ptr<const SymExpr>(), &E));
  return L.Uniforms.empty() && L.Varyings.empty() &&
         std::all_of(L.Loops.begin(), L.Loops.end(), [](const SymExpr *X) { return X->LaneVarying; });
}

/// Splits non-negated conjunctions so that a uniform part (n > 0) does not
/// hide an exact lane part (tid < 16).
/// C (or !C when Negated) as a conjunction of parts, each a condition and
/// whether it is negated: a && b; !(a || b) as !a, !b (De Morgan: what an
/// early `if (x >= w || y >= h) return;` leaves alive); through !c and
/// c ? 0 : 1.
void conjuncts(const SymRef &C, bool Negated, std::vector<std::pair<SymRef, bool>> &Out) {
  if (C->Kind == ExprKind::Binary && C->Op == (Negated ? Opcode::LOr : Opcode::LAnd)) {
    conjuncts(C->Ops[0], Negated, Out);
    conjuncts(C->Ops[1], Negated, Out);
    return;
  }
  if (C->Kind == ExprKind::Unary && C->Op == Opcode::LNot)
    return conjuncts(C->Ops[0], !Negated, Out);
  if (C->Kind == ExprKind::Select && C->Ops[1]->isConst() && C->Ops[2]->isConst() &&
      (C->Ops[1]->Value != 0) != (C->Ops[2]->Value != 0))
    return conjuncts(C->Ops[0], C->Ops[1]->Value != 0 ? Negated : !Negated, Out);
  Out.push_back({C, Negated});
}

namespace {

/// Whether E has a number in every lane: built of threadIdx, blockDim,
/// constants and row strides only (Memo: per node, for a DAG).
bool laneNumeric(const SymExpr &E, std::map<const SymExpr *, bool> &Memo) {
  auto [It, New] = Memo.try_emplace(&E, false);
  if (!New)
    return It->second;
  bool Numeric = false;
  switch (E.Kind) {
  case ExprKind::ThreadIdx: case ExprKind::BlockDim: case ExprKind::Const: case ExprKind::RowStride:
    Numeric = true;
    break;
  case ExprKind::Unary: case ExprKind::Binary: case ExprKind::Select: case ExprKind::Cast:
  case ExprKind::Call:
    Numeric = std::all_of(E.Ops.begin(), E.Ops.end(), [&](const SymRef &O) { return laneNumeric(*O, Memo); });
    break;
  default:
    break;
  }
  return Memo[&E] = Numeric;
}

/// The largest subexpressions of E that read threadIdx and have a number in
/// every lane (each once).
void laneNumbers(const SymExpr &E, std::map<const SymExpr *, bool> &Memo, std::set<const SymExpr *> &Seen,
                 std::vector<const SymExpr *> &Out) {
  if (!E.ThreadAxes || !Seen.insert(&E).second)
    return;
  if (laneNumeric(E, Memo)) {
    Out.push_back(&E);
    return;
  }
  for (const SymRef &O : E.Ops)
    laneNumbers(*O, Memo, Seen, Out);
}

/// Parts this large are keyed by their lanes' numbers (smaller ones cost
/// little to evaluate in each lane).
constexpr unsigned MinKeyedTreeSize = 16;

void keyByLaneNumbers(GuardPart &Part) {
  const SymExpr &P = *Part.Cond;
  if (Part.Uniform || Part.Opaque || Part.ReadsWidth || P.ReadsLaneValue || P.TreeSize < MinKeyedTreeSize)
    return;
  std::map<const SymExpr *, bool> Memo;
  std::set<const SymExpr *> Seen;
  laneNumbers(P, Memo, Seen, Part.LaneNumbers);
  std::set<unsigned> Ids;
  addLoopCounters(P, Ids);
  Part.Counters.assign(Ids.begin(), Ids.end());
}

/// Lane Env's key for a keyed part: the values of its lane numbers and
/// counters; nothing when the part is not keyed or a value is missing.
std::optional<std::vector<int64_t>> laneKeyOf(const Context &C, const GuardPart &Part, const LaneEnv &Env) {
  if (Part.LaneNumbers.empty() || Env.UniformValues != C.UniformValues)
    return std::nullopt;
  std::vector<int64_t> Key;
  Key.reserve(Part.LaneNumbers.size() + Part.Counters.size());
  for (const SymExpr *N : Part.LaneNumbers) {
    LaneValue V = evaluateLane(*N, Env);
    if (!V.exact())
      return std::nullopt;
    Key.push_back(V.C);
  }
  for (unsigned Id : Part.Counters)
    Key.push_back(counterValue(Env, Id));
  return Key;
}

} // namespace

std::vector<GuardPart> guardPartsOf(const SharedAccess &A) {
  std::vector<GuardPart> Parts;
  for (const Guard &G : A.Guards) {
    std::vector<std::pair<SymRef, bool>> Conds;
    conjuncts(G.Cond, G.Negated, Conds);
    for (const auto &[P, Negated] : Conds) {
      GuardPart Part{P, Negated, !isThreadVarying(P), ""};
      const SymLeaves Leaves = collectLeaves(P);
      Part.ReadsWidth = Leaves.UsesBlockDim[0];
      if (Part.Uniform && !P->isConst())
        Part.Assumed = Negated ? "!(" + toString(P) + ")" : toString(P);
      if (!Part.Uniform) {
        Part.Opaque = !Leaves.Varyings.empty();
        Part.Text = Negated ? "!(" + toString(P) + ")" : toString(P);
        Part.Threshold = isThreshold(*P);
        keyByLaneNumbers(Part);
      }
      Parts.push_back(std::move(Part));
    }
  }
  return Parts;
}

std::shared_ptr<const std::vector<GuardPart>> sharedGuardParts(const SharedAccess &A) {
  using Conditions = std::vector<std::pair<SymRef, bool>>;
  thread_local Conditions LastKey;
  thread_local std::shared_ptr<const std::vector<GuardPart>> Last;
  Conditions Key;
  Key.reserve(A.Guards.size());
  for (const Guard &G : A.Guards)
    Key.push_back({G.Cond, G.Negated});
  if (!Last || Key != LastKey) {
    Last = std::make_shared<const std::vector<GuardPart>>(guardPartsOf(A));
    LastKey = std::move(Key);
  }
  return Last;
}

std::optional<bool> atEveryBlockWidth(const SymExpr &Cond, const LaneEnv &Env) {
  if (Env.BlockDim[0])
    return std::nullopt;
  bool Some = false, All = true;
  for (unsigned X = WarpSize; X <= Env.MaxThreads; X += WarpSize) {
    if (X <= Env.Tid[0])
      continue; // no such thread in a block this narrow
    LaneEnv At = Env;
    At.BlockDim[0] = X;
    LaneValue V = evaluateLane(Cond, At);
    if (!V.exact())
      return std::nullopt;
    Some |= V.C != 0;
    All &= V.C != 0;
  }
  if (Some && !All)
    return std::nullopt;
  return Some;
}

namespace {

/// What one guard part does to a lane.
enum class PartOutcome : int8_t { Passes, NotTaken, Fails };

/// Part's effect on the lane Env (NodeValues cleared). Notes the unknowns it
/// assumes or is bound by in C; sets F when it Fails; EqualityKey receives
/// the lane's key for an undecided `f == u` (guardsTaken).
PartOutcome decidePart(Context &C, const GuardPart &Part, const LaneEnv &Env, Failure &F,
                       std::optional<int64_t> &EqualityKey) {
  const SymRef &P = Part.Cond;
  auto Holds = [&](bool Value) {
    return Value == Part.Negated ? PartOutcome::NotTaken : PartOutcome::Passes;
  };
  if (Part.Uniform) {
    // Uniform: every lane of the warp agrees, so the access runs with
    // these lanes or not at all; we report the case where it runs.
    if (P->isConst())
      return Holds(P->Value != 0);
    // Known where the loops are enumerated (a condition on the counters).
    LaneValue V = evaluateLane(*P, Env);
    if (V.known() && V.exact())
      return Holds(V.C != 0);
    addUnique(C.AssumedUniform, Part.Assumed);
    return PartOutcome::Passes;
  }
  // A condition no analysis can compute (loaded data, floats, a counter
  // the engine cannot follow): in the bound pass any set of lanes may pass,
  // and all of them is the worst case.
  auto TakeAsPassed = [&] {
    addUnique(C.DataGuards, Part.Text);
    addUnique(C.BoundBy, Part.Text);
    return PartOutcome::Passes;
  };
  if (Part.Opaque && C.BoundGuards)
    return TakeAsPassed(); // known without evaluating it
  LaneValue V = evaluateLane(*P, Env);
  bool Undecided = (V.known() && !V.exact()) || V.Unknown == UnknownKind::NonLinear;
  if (Undecided && Part.ReadsWidth)
    if (std::optional<bool> AtEvery = atEveryBlockWidth(*P, Env))
      return Holds(*AtEvery); // the same at every block width this thread can be part of
  if (Undecided) {
    // Decided by warp-uniform unknowns (tid < s, x < width): all lanes
    // active is the worst case (removing lanes never adds conflicts).
    std::map<std::string, int64_t> Names = V.Terms;
    if (!V.known()) {
      const SymLeaves &Lv = C.leavesOf(P);
      for (const SymExpr *U : Lv.Uniforms)
        Names[U->Name] = 1;
      for (const SymExpr *U : Lv.Loops)
        if (!U->LaneVarying && !(Env.LoopValues && Env.LoopValues->count(U->LoopId)))
          Names[U->Name] = 1;
      if (Names.empty())
        Names[toString(P)] = 1;
    }
    if (C.BoundGuards) {
      // A threshold (gid < n, row < n && col < n) splits the block at a
      // boundary: the warps inside pass with every lane, and that is what
      // they cost, exactly; a boundary warp runs it with fewer lanes.
      // Through negations: !c, and c ? 0 : 1 (a thread left where c held).
      for (const auto &KV : Names)
        addUnique(Part.Threshold ? C.ThresholdBy : C.BoundBy, KV.first);
      // f == u with u warp-uniform: the lanes that pass share f's value.
      if (P->Kind == ExprKind::Binary && P->Op == Opcode::EQ && !Part.Negated) {
        LaneValue D = evaluateLane(
            *SymExpr::binary(Opcode::Sub, SymExpr::cast(P->Ops[0], IntType::i64()),
                             SymExpr::cast(P->Ops[1], IntType::i64()), IntType::i64()),
            Env);
        if (D.known())
          EqualityKey = D.C;
      }
      return PartOutcome::Passes;
    }
    F = {VerdictStatus::Unknown,
         "which threads run it depends on the value of " + quotedNames(Names) + " ('" +
             toString(P) + "')",
         true};
    return PartOutcome::Fails;
  }
  if (!V.known()) {
    if (C.BoundGuards && V.Unknown != UnknownKind::Undefined)
      return TakeAsPassed();
    F = {statusFor(V.Unknown), V.Why, true};
    return PartOutcome::Fails;
  }
  return Holds(V.C != 0);
}

} // namespace

namespace {

/// A part's outcome with its equality key (decidePart's results).
using Decided = std::pair<int8_t, std::optional<int64_t>>;

/// Where a uniform part that reads no counter keeps its outcome: it has one
/// in the whole pass (with the pass's values of unknowns), decided once.
int8_t *passOutcome(Context &C, size_t I, const LaneEnv &Env) {
  const GuardPart &Part = C.Guards[I];
  return Part.Uniform && !Part.Cond->ReadsCounter && Env.UniformValues == C.UniformValues
             ? &C.PassOutcomes[I]
             : nullptr;
}

/// Where part I's outcome for a lane is kept beyond the lane, and found.
struct OutcomeStores {
  int8_t *InPass = nullptr; ///< passOutcome

  /// A part that reads neither threadIdx.x nor another per-lane value has
  /// one outcome in every lane of the warp with the same threadIdx.y/z and
  /// counters: decided once per warp (its notes are made the first time).
  /// Not when the block width is tried per thread (atEveryBlockWidth).
  /// When the lanes share their counters, such a part that reads no
  /// threadIdx.y/z either, or only where the warp has one value of them,
  /// has one outcome in the warp: kept by its index (InWarp), otherwise by
  /// its key in the warp's memo (Warp).
  Decided *InWarp = nullptr;
  std::optional<UniformMemo::Key> Warp;
  /// A keyed part (GuardPart::LaneNumbers): lanes with the same numbers
  /// share its outcome in the pass, and what it notes was noted by the
  /// first of them.
  std::optional<std::pair<size_t, std::vector<int64_t>>> Keyed;

  OutcomeStores(Context &C, size_t I, const LaneEnv &Env) {
    const GuardPart &Part = C.Guards[I];
    const SymExpr &P = *Part.Cond;
    InPass = passOutcome(C, I, Env);
    bool PerWarp = !InPass && Env.Memo && !P.isConst() && !(Part.ReadsWidth && !Env.BlockDim[0]);
    if (PerWarp && I < Env.Memo->WarpOutcomes.size() &&
        P.readsThreadOnlyOn(Env.WarpUniformAxes & UniformMemo::RowAxes))
      InWarp = &Env.Memo->WarpOutcomes[I];
    if (PerWarp && !InWarp && P.readsThreadOnlyOn(UniformMemo::RowAxes))
      Warp = Env.Memo->keyOf(P, Env);
  }

  std::optional<Decided> find(Context &C, size_t I, const LaneEnv &Env) {
    if (InPass && *InPass >= 0)
      return Decided{*InPass, std::nullopt};
    if (InWarp && InWarp->first >= 0)
      return *InWarp;
    if (Warp)
      if (auto It = Env.Memo->Outcomes.find(*Warp); It != Env.Memo->Outcomes.end())
        return It->second;
    // The lane's key only where the stores above had nothing.
    if (!InPass && !Warp)
      if (std::optional<std::vector<int64_t>> Key = laneKeyOf(C, C.Guards[I], Env))
        Keyed.emplace(I, std::move(*Key));
    if (Keyed)
      if (auto It = C.LaneKeyedOutcomes.find(*Keyed); It != C.LaneKeyedOutcomes.end()) {
        if (InWarp)
          *InWarp = It->second;
        return It->second;
      }
    return std::nullopt;
  }

  void keep(Context &C, const LaneEnv &Env, const Decided &D) {
    if (InPass)
      *InPass = D.first;
    if (InWarp)
      *InWarp = D;
    if (Warp)
      Env.Memo->Outcomes.emplace(std::move(*Warp), D);
    if (Keyed)
      C.LaneKeyedOutcomes.emplace(std::move(*Keyed), D);
  }
};

/// Part I's outcome for lane Env (its node values cleared): kept from
/// another lane, or decided and kept; nothing (F set) when it fails.
std::optional<Decided> outcomeOf(Context &C, size_t I, const LaneEnv &Env, Failure &F) {
  OutcomeStores Stores(C, I, Env);
  if (std::optional<Decided> D = Stores.find(C, I, Env))
    return D;
  std::optional<int64_t> EqualityKey;
  PartOutcome Out = decidePart(C, C.Guards[I], Env, F, EqualityKey);
  if (Out == PartOutcome::Fails)
    return std::nullopt;
  Decided D{int8_t(Out), EqualityKey};
  Stores.keep(C, Env, D);
  return D;
}

} // namespace

/// Is lane Env active under the guards? Sets F (and returns false) when it
/// cannot be decided.
bool guardsTaken(Context &C, const LaneEnv &AddressEnv, bool &Taken, Failure &F,
                 std::vector<int64_t> *EqualityKeys, size_t FirstPart) {
  // Values given to subexpressions of the address (a clamp's bound) are not
  // assumed in the guards, which may share those nodes: there the bound stays
  // an unknown, and every lane passing is the worst case.
  LaneEnv Env = AddressEnv;
  Env.NodeValues = nullptr;
  Taken = true;
  for (size_t I = FirstPart; I < C.Guards.size(); ++I) {
    std::optional<Decided> D = outcomeOf(C, I, Env, F);
    if (!D)
      return false;
    if (PartOutcome(D->first) == PartOutcome::NotTaken) {
      Taken = false;
      return true;
    }
    if (D->second && EqualityKeys)
      EqualityKeys->push_back(*D->second);
  }
  return true;
}

size_t guardsByNumbers(Context &C, const WarpLanes &Lanes, uint32_t &Live) {
  // A part whose value is a plain number in every lane is decided there as
  // decidePart decides it (it holds or not, nothing noted), and a uniform
  // one whose outcome in the pass is known as guardsTaken takes it; the
  // guards' values of nodes are not the address's (guardsTaken). Another
  // uniform part, where the lanes share their counters, has one outcome in
  // every lane: the first lane's (outcomeOf: what it notes, it notes there).
  LaneEnv Common = *Lanes.Common;
  Common.NodeValues = nullptr;
  WarpLanes W = Lanes;
  W.Common = &Common;
  std::array<int64_t, WarpLanes::Size> V;
  for (size_t I = 0; I < C.Guards.size(); ++I) {
    const GuardPart &Part = C.Guards[I];
    if (!Live)
      return C.Guards.size();
    if (Part.Cond->isConst()) {
      if ((Part.Cond->Value != 0) == Part.Negated)
        Live = 0;
      continue;
    }
    // A uniform part's outcome once known in the pass (guardsTaken).
    if (const int8_t *InPass = passOutcome(C, I, Common); InPass && *InPass >= 0) {
      if (PartOutcome(*InPass) == PartOutcome::NotTaken)
        Live = 0;
      continue;
    }
    // Taken as passed without being evaluated (decidePart).
    if (!Part.Uniform && Part.Opaque && C.BoundGuards)
      return I;
    if (!evaluateWarpNumbers(*Part.Cond, W, Live, V)) {
      if (!Part.Uniform || !Lanes.SameLoops)
        return I;
      unsigned First = unsigned(__builtin_ctz(Live));
      LaneEnv Env = Common;
      std::copy(Lanes.Tid[First].begin(), Lanes.Tid[First].end(), Env.Tid);
      Env.LoopValues = Lanes.Loops[First];
      Failure F;
      std::optional<Decided> D = outcomeOf(C, I, Env, F);
      if (!D)
        return I;
      if (PartOutcome(D->first) == PartOutcome::NotTaken)
        Live = 0;
      continue;
    }
    for (unsigned L = 0; L < WarpLanes::Size; ++L)
      if ((Live >> L & 1) && (V[L] != 0) == Part.Negated)
        Live &= ~(1u << L);
  }
  return C.Guards.size();
}

} // namespace cbl::warp
