//===- BarrierWitness.cpp - Thread-by-thread evaluation of barrier guards -===//
#include "cuda-bank-lint/Symbolic/BarrierWitness.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"

#include <algorithm>

namespace cbl {

namespace {

using Class = BarrierClass;
using Situation = BarrierSituation;
using Outcome = BarrierOutcome;

using Dim3 = std::array<unsigned, 3>;

/// Whether the lanes of each warp are threadIdx.x % 32 at block shape D.
bool laneRows(const Dim3 &D) { return D[0] % WarpSize == 0 || D[1] * D[2] == 1; }

/// Whether threads may disagree on G at block shape D: its condition reads
/// per-thread values and the front end did not find every thread of the
/// block takes it alike (at that shape).
bool guardVaries(const Guard &G, const Dim3 &D) {
  return (!G.BlockUniform || (G.IfLaneRows && !laneRows(D))) && isThreadVarying(G.Cond);
}

/// Every thread of situation S through the guards.
Outcome evaluate(const std::vector<Guard> &Guards, const Situation &S,
                 const std::vector<SharedArray> &Arrays) {
  Outcome O;
  O.S = S;
  std::vector<bool> Varies;
  for (const Guard &G : Guards)
    Varies.push_back(guardVaries(G, S.Dim));
  unsigned Threads = S.threads(), Warps = (Threads + WarpSize - 1) / WarpSize;
  O.Reach.assign(Warps, 0);
  O.Skip.assign(Warps, 0);
  O.ExitSkip.assign(Warps, 0);
  O.Decider.assign(Threads, -1);
  bool UnknownCond = false, UnknownExit = false;
  UniformMemo Memo; // the guards' uniform parts, once per situation
  for (unsigned T = 0; T < Threads; ++T) {
    LaneEnv Env;
    Env.Arrays = &Arrays;
    Env.UniformValues = &S.Values;
    Env.Memo = &Memo;
    setThread(Env, T, S.Dim);
    // Conditions first, returns last: a thread stopped by both counts as
    // stopped by the condition (divergence rather than an early exit).
    int Stop = -1;
    bool StopByExit = false, Unknown = false, UnknownByExit = false;
    for (int Pass = 0; Pass < 2 && Stop < 0; ++Pass)
      for (size_t I = 0; I < Guards.size() && Stop < 0; ++I) {
        if (isReturnGuard(Guards[I]) != (Pass == 1))
          continue;
        // The situation's values of the uniform unknowns bind here.
        LaneValue V = evaluateLane(*Guards[I].Cond, Env);
        if (!V.exact()) {
          if (!Varies[I])
            continue; // uniform and not witnessed: every thread agrees
          if (!Unknown && O.UnknownGuard < 0)
            O.UnknownGuard = int(I);
          Unknown = true;
          UnknownByExit = Pass == 1;
          continue;
        }
        if ((V.C != 0) == Guards[I].Negated) {
          Stop = int(I);
          StopByExit = Pass == 1;
        }
      }
    unsigned W = T / WarpSize, L = T % WarpSize;
    O.Decider[T] = Stop;
    if (Stop >= 0)
      (StopByExit ? O.ExitSkip : O.Skip)[W] |= 1u << L;
    else if (Unknown)
      (UnknownByExit ? UnknownExit : UnknownCond) = true;
    else
      O.Reach[W] |= 1u << L;
  }
  bool AnyReach = false, AnySkip = false, AnyExit = false, Within = false, ExitWithin = false;
  for (unsigned W = 0; W < Warps; ++W) {
    AnyReach |= O.Reach[W] != 0;
    AnySkip |= O.Skip[W] != 0;
    AnyExit |= O.ExitSkip[W] != 0;
    Within |= O.Reach[W] && (O.Skip[W] || O.ExitSkip[W]);
    ExitWithin |= O.Reach[W] && O.ExitSkip[W];
  }
  O.ExitSkipWithinWarp = ExitWithin;
  Class Definite = Class::None;
  if (AnyReach && AnySkip)
    Definite = Within ? Class::WithinWarp : Class::AcrossWarps;
  else if (AnyReach && AnyExit)
    Definite = Class::EarlyExit;
  Class Open = UnknownCond ? Class::DataDependent
               : UnknownExit ? Class::EarlyExitUnknown
                             : Class::None;
  O.C = rank(Definite) >= rank(Open) ? Definite : Open;
  return O;
}

/// Block shapes to try when some extents are known (the others 0): the
/// known ones with the usual sizes for the others (blockDim.y and .z only
/// where the guards read them), at most Max threads.
std::vector<std::array<unsigned, 3>> partlyKnown(const std::array<unsigned, 3> &Known, bool Y, bool Z,
                                                 unsigned Max) {
  auto Sizes = [&](unsigned Axis, bool Read) -> std::vector<unsigned> {
    if (Known[Axis])
      return {Known[Axis]};
    if (Axis == 0)
      return {32, 64, 96, 128, 256, 512, 1024, 16, 8};
    if (!Read)
      return {1};
    return {1, 2, 4, 8, 16, 32};
  };
  std::vector<std::array<unsigned, 3>> Out;
  for (unsigned X : Sizes(0, true))
    for (unsigned YS : Sizes(1, Y || Z))
      for (unsigned ZS : Sizes(2, Z))
        if (X * YS * ZS <= Max)
          Out.push_back({{X, YS, ZS}});
  if (Out.empty()) // a bound below every usual size
    Out.push_back({{Known[0] ? Known[0] : Max, Known[1] ? Known[1] : 1, Known[2] ? Known[2] : 1}});
  return Out;
}

/// Block shapes of at most N threads to try (__launch_bounds__(N)): those of
/// Usual within the bound, and N threads as one row and, where the guards
/// read threadIdx.y or .z, as rows of 32 and of 16 threads.
std::vector<Dim3> withinBound(const std::vector<Dim3> &Usual, unsigned N, bool Y, bool Z) {
  std::vector<Dim3> Out;
  auto Add = [&](const Dim3 &D) {
    if (D[0] * D[1] * D[2] <= N && std::find(Out.begin(), Out.end(), D) == Out.end())
      Out.push_back(D);
  };
  for (const Dim3 &D : Usual)
    Add(D);
  Add({{N, 1, 1}});
  if (Y || Z)
    for (unsigned Row : {32u, 16u})
      if (N > Row && N % Row == 0)
        Add({{Row, N / Row, 1}});
  if (Z && N >= 128 && N % 64 == 0)
    Add({{32, N / 64, 2}});
  return Out;
}

/// Block shapes to try: the known one, else 1-D sizes (and 2-D/3-D ones when
/// the guards read threadIdx.y/z), smallest first; within the thread count
/// __launch_bounds__ allows, when that is all that is known.
std::vector<std::array<unsigned, 3>> shapesFor(const BlockShape &Shape, const std::vector<Guard> &Gs) {
  if (Shape.known() && !Shape.boundOnly())
    return {Shape.Dim};
  std::vector<std::array<unsigned, 3>> Out;
  for (unsigned N : {32u, 64u, 96u, 128u, 256u, 512u, 1024u})
    Out.push_back({{N, 1, 1}});
  bool Y = false, Z = false;
  for (const Guard &G : Gs) {
    SymLeaves L = collectLeaves(G.Cond);
    Y |= L.UsesThreadIdx[1] || L.UsesBlockDim[1];
    Z |= L.UsesThreadIdx[2] || L.UsesBlockDim[2];
  }
  if (Y || Z)
    for (std::array<unsigned, 3> D : {std::array<unsigned, 3>{{16, 16, 1}}, {{32, 8, 1}}, {{8, 8, 1}},
                                       {{32, 32, 1}}})
      Out.push_back(D);
  if (Z)
    for (std::array<unsigned, 3> D : {std::array<unsigned, 3>{{8, 8, 4}}, {{32, 2, 2}}, {{4, 4, 4}}})
      Out.push_back(D);
  if (Shape.boundOnly())
    return withinBound(Out, Shape.threads(), Y, Z);
  if (Shape.Dim[0] || Shape.Dim[1] || Shape.Dim[2])
    return partlyKnown(Shape.Dim, Y, Z, Shape.MaxThreads);
  return Out;
}

/// Values of the uniform unknowns to try: all equal, then one at a time with
/// the others at 0 and at 1024 (bounded). Non-negative only: most are sizes,
/// indices or blockIdx, and a negative witness would read as nonsense.
std::vector<std::map<std::string, int64_t>> assignmentsFor(const std::vector<std::string> &Names) {
  static const int64_t Candidates[] = {0,  1,  2,   3,   4,   7,   8,   15,  16,   17,   31,  32, 33, 48,
                                       63, 64, 65, 96, 127, 128, 255, 256, 511, 512, 1023, 1024};
  std::vector<std::map<std::string, int64_t>> Out;
  if (Names.empty())
    return {{}};
  for (int64_t V : Candidates) {
    std::map<std::string, int64_t> M;
    for (const auto &N : Names)
      M[N] = V;
    Out.push_back(M);
  }
  if (Names.size() > 1 && Names.size() <= 4)
    for (int64_t Others : {int64_t(0), int64_t(1024)})
      for (const auto &N : Names)
        for (int64_t V : Candidates) {
          std::map<std::string, int64_t> M;
          for (const auto &K : Names)
            M[K] = Others;
          M[N] = V;
          Out.push_back(M);
        }
  return Out;
}


/// The simplest condition that holds at exactly the shapes of All for which
/// Yes holds.
ShapeCondition separating(const std::vector<Dim3> &All, const std::vector<bool> &Yes) {
  using K = ShapeCondition::Kind;
  auto Separates = [&](auto Pred) {
    for (size_t I = 0; I < All.size(); ++I)
      if (Pred(All[I]) != Yes[I])
        return false;
    return true;
  };
  auto Threads = [](const Dim3 &D) { return D[0] * D[1] * D[2]; };
  if (std::all_of(Yes.begin(), Yes.end(), [](bool B) { return B; }))
    return {K::Always, 0};
  if (Separates([](const Dim3 &D) { return D[1] * D[2] > 1; }))
    return {K::SeveralRows, 0};
  if (Separates([](const Dim3 &D) { return D[2] > 1; }))
    return {K::SeveralLayers, 0};
  if (Separates([](const Dim3 &D) { return D[0] % WarpSize != 0; }))
    return {K::RowNotWarpMultiple, 0};
  unsigned Most = 0;
  for (size_t I = 0; I < All.size(); ++I)
    if (!Yes[I])
      Most = std::max(Most, Threads(All[I]));
  if (Separates([&](const Dim3 &D) { return Threads(D) > Most; }))
    return {K::MoreThreads, Most};
  return {K::SomeShapes, 0};
}

/// The conditions of O's class over the shapes tried (Per: one outcome each).
void describeShapes(Outcome &O, const std::vector<Dim3> &Shapes, const std::vector<Outcome> &Per) {
  O.ShapeUnknown = true;
  std::vector<Dim3> Split;
  std::vector<bool> Diverges, Within;
  for (size_t I = 0; I < Per.size(); ++I) {
    bool Splits = Per[I].C == Class::WithinWarp || Per[I].C == Class::AcrossWarps;
    Diverges.push_back(Splits);
    if (Splits) {
      Split.push_back(Shapes[I]);
      Within.push_back(Per[I].C == Class::WithinWarp);
    }
  }
  O.Diverges = separating(Shapes, Diverges);
  O.WithinWarp = separating(Split, Within);
}

/// Values within a known grid (--grid-dim): gridDim.d is its extent, and a
/// blockIdx.d beyond it is the last block. Components not known stay.
std::map<std::string, int64_t> withinGrid(std::map<std::string, int64_t> Values, const Dim3 &Grid) {
  for (unsigned D = 0; D < 3; ++D) {
    if (!Grid[D])
      continue;
    const std::string Axis(1, char('x' + D));
    auto Block = Values.find("blockIdx." + Axis);
    if (Block != Values.end())
      Block->second = std::min<int64_t>(Block->second, Grid[D] - 1);
    auto Size = Values.find("gridDim." + Axis);
    if (Size != Values.end())
      Size->second = Grid[D];
  }
  return Values;
}

} // namespace

bool isReturnGuard(const Guard &G) { return G.Kind == GuardKind::EarlyReturn; }

BarrierOutcome classifyBarrier(const std::vector<Guard> &Guards, const BlockShape &Shape,
                 const std::vector<SharedArray> &Arrays) {
  Outcome Best;
  bool Varying = false;
  std::vector<std::string> Names;
  const std::vector<Dim3> Shapes = shapesFor(Shape, Guards);
  for (const Guard &G : Guards) {
    if (std::none_of(Shapes.begin(), Shapes.end(), [&](const Dim3 &D) { return guardVaries(G, D); }))
      continue;
    Varying = true;
    SymLeaves L = collectLeaves(G.Cond);
    std::vector<const SymExpr *> Unknowns = L.Uniforms;
    for (const SymExpr *Loop : L.Loops)
      if (!Loop->LaneVarying)
        Unknowns.push_back(Loop); // one iteration, so the same in every thread
    for (const SymExpr *U : Unknowns)
      if (std::find(Names.begin(), Names.end(), U->Name) == Names.end())
        Names.push_back(U->Name);
  }
  if (!Varying)
    return Best; // every guard is the same for all threads of the block
  uint64_t Budget = 4'000'000; // thread evaluations, so that no input hangs the tool
  for (const auto &Values : assignmentsFor(Names)) {
    // Every shape with these values: the worst, and where it happens.
    std::vector<Outcome> Per;
    for (const Dim3 &Dim : Shapes) {
      Situation S;
      S.Dim = Dim;
      S.Values = withinGrid(Values, Shape.Grid);
      if (Budget < S.threads())
        return Best;
      Budget -= S.threads();
      Per.push_back(evaluate(Guards, S, Arrays));
    }
    size_t Worst = 0;
    for (size_t I = 1; I < Per.size(); ++I)
      if (rank(Per[I].C) > rank(Per[Worst].C))
        Worst = I;
    if (rank(Per[Worst].C) <= rank(Best.C))
      continue;
    Best = Per[Worst];
    if (!Shape.known() || Shape.boundOnly())
      describeShapes(Best, Shapes, Per);
    if (Best.C == Class::WithinWarp)
      return Best;
  }
  return Best;
}

std::optional<GridWitness>
gridBarrierWitness(const std::vector<Guard> &Guards, const BlockShape &Shape,
                   const std::vector<SharedArray> &Arrays) {
  std::vector<std::string> Names, Grid;
  for (const Guard &G : Guards)
    for (const SymExpr *U : collectLeaves(G.Cond).Uniforms) {
      std::vector<std::string> *Into = U->Name.rfind("blockIdx.", 0) == 0  ? &Names
                                       : U->Name.rfind("gridDim.", 0) == 0 ? &Grid
                                                                           : nullptr;
      if (Into && std::find(Into->begin(), Into->end(), U->Name) == Into->end())
        Into->push_back(U->Name);
    }
  if (Names.empty())
    return std::nullopt;
  // Grids of a few sizes when the guards read gridDim (blockIdx < gridDim.x / 2),
  // or the one --grid-dim gives.
  std::vector<unsigned> Sizes = Shape.Grid[0] ? std::vector<unsigned>{Shape.Grid[0]}
                                : Grid.empty() ? std::vector<unsigned>{8}
                                               : std::vector<unsigned>{8, 2, 64};
  for (unsigned Size : Sizes) {
    auto Reached = [&](int64_t V) {
      Situation S;
      S.Dim = shapesFor(Shape, Guards).front();
      for (const auto &N : Names)
        S.Values[N] = V;
      for (const auto &N : Grid)
        S.Values[N] = Size;
      Outcome O = evaluate(Guards, S, Arrays);
      return std::any_of(O.Reach.begin(), O.Reach.end(), [](uint32_t M) { return M != 0; });
    };
    bool First = Reached(0);
    std::vector<int64_t> Blocks; // the first few, and the last of a known grid
    for (int64_t V = 1; V < std::min<int64_t>(8, Size); ++V)
      Blocks.push_back(V);
    if (Shape.Grid[0] && Size > 8)
      Blocks.push_back(Size - 1);
    for (int64_t V : Blocks)
      if (Reached(V) != First)
        return GridWitness{Names.front(), V, Grid.empty() && !Shape.Grid[0] ? 0 : Size};
  }
  return std::nullopt;
}

} // namespace cbl
