//===- BarrierDivergenceCheck.cpp - cuda-barrier-divergence ----------------===//
//
// For each barrier: rewrite its guards (device-function parameters become
// uniform unknowns, or the caller's arguments), then search for a witness,
// an assignment of the uniform unknowns and a block shape under which the
// threads of the block disagree about reaching it, and explain that witness.
//
//===----------------------------------------------------------------------===//
#include "BarrierDivergenceCheck.h"
#include "FindingText.h"
#include "cuda-bank-lint/Checks/InProgress.h"
#include "cuda-bank-lint/Symbolic/BarrierWitness.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace cbl {

namespace {

/// The reason the front end gives a device function's parameter leaf (IRValues.cpp).
bool isParameterLeaf(const SymExpr &E) {
  return E.Kind == ExprKind::Varying && E.Reason.rfind("parameter '", 0) == 0;
}

bool isExitGuard(const Guard &G) {
  return G.Kind == GuardKind::EarlyReturn || G.Kind == GuardKind::Break || G.Kind == GuardKind::Continue || G.Kind == GuardKind::Reached;
}

/// How leaves are replaced when guards are rewritten.
struct Rewrite {
  const std::map<std::string, SymRef> *Args = nullptr;    ///< parameter -> argument
  bool ParamsUniform = false;
};

SymRef rewrite(const SymRef &E, const Rewrite &R) {
  return replaceLeaves(E, [&](const SymRef &L) -> SymRef {
    if (!isParameterLeaf(*L))
      return nullptr;
    if (R.Args)
      if (auto It = R.Args->find(L->Name); It != R.Args->end())
        return SymExpr::cast(It->second, L->Type);
    if (R.ParamsUniform)
      return SymExpr::uniform(L->Name, L->Reason + ", assumed the same in every thread", L->Type);
    return nullptr;
  });
}

std::vector<Guard> rewriteGuards(const std::vector<Guard> &Gs, const Rewrite &R) {
  std::vector<Guard> Out = Gs;
  for (Guard &G : Out)
    G.Cond = rewrite(G.Cond, R);
  return Out;
}

using Class = BarrierClass;
using Outcome = BarrierOutcome;

// --- wording ---

std::string warpsText(const std::vector<unsigned> &Ws) {
  return (Ws.size() == 1 ? "warp " : "warps ") + listNumbers(Ws);
}

/// "lanes 16-31 of warp 0 and warps 1-3": the threads in Masks.
std::string threadsText(const std::vector<uint32_t> &Masks, const std::vector<uint32_t> &Full) {
  std::vector<std::string> Parts;
  std::vector<unsigned> Whole;
  for (unsigned W = 0; W < Masks.size(); ++W) {
    if (!Masks[W])
      continue;
    if (Masks[W] == Full[W])
      Whole.push_back(W);
    else if (Parts.size() < 2)
      Parts.push_back(fmt::format("{} of warp {}", lanesText(Masks[W]), W));
  }
  if (!Whole.empty())
    Parts.push_back(warpsText(Whole));
  std::string S;
  for (size_t I = 0; I < Parts.size(); ++I)
    S += (I ? (I + 1 == Parts.size() ? " and " : ", ") : "") + Parts[I];
  return S;
}

std::string quotedList(const std::vector<std::string> &Items) {
  std::string S;
  for (size_t I = 0; I < Items.size(); ++I)
    S += (I ? ", '" : "'") + Items[I] + "'";
  return S;
}

std::string valuesText(const std::map<std::string, int64_t> &Values) {
  std::string S;
  for (const auto &[N, V] : Values)
    S += (S.empty() ? "" : ", ") + fmt::format("{} = {}", N, V);
  return S;
}

std::string kindText(const Guard &G) {
  if (G.Kind == GuardKind::If || G.Kind == GuardKind::Else)
    return "the if condition";
  if (G.Kind == GuardKind::Loop)
    return "the loop condition";
  if (G.Kind == GuardKind::Switch)
    return "the case condition of the switch";
  if (G.Kind == GuardKind::Conditional)
    return "the condition of '?:'";
  if (G.Kind == GuardKind::And || G.Kind == GuardKind::Or)
    return std::string("the left operand of '") + guardKindSpelling(G.Kind) + "'";
  return "the condition";
}

/// Why a thread-varying leaf (an unknown or a loop counter) varies.
std::string leafReason(const SymExpr &V) {
  return V.Kind == ExprKind::LoopVar ? V.Reason + ", with a different value in each thread" : V.Reason;
}

std::string varyingLeaves(const SymRef &Cond) {
  std::vector<std::string> Items;
  SymLeaves L = collectLeaves(Cond);
  for (const SymExpr *V : L.Varyings)
    if (Items.size() < 3)
      Items.push_back(fmt::format("'{}' ({})", V->Name, leafReason(*V)));
  for (const SymExpr *V : L.Loops)
    if (V->LaneVarying && Items.size() < 3)
      Items.push_back(fmt::format("'{}' ({})", V->Name, leafReason(*V)));
  if (Items.empty() && L.usesLane())
    Items.push_back("threadIdx");
  std::string S;
  for (size_t I = 0; I < Items.size(); ++I)
    S += (I ? ", " : "") + Items[I];
  return S;
}

/// "when the block has more than one row": where a shape condition holds.
std::string conditionText(const ShapeCondition &C) {
  using K = ShapeCondition::Kind;
  switch (C.K) {
  case K::Always:
    return "at every block shape tried";
  case K::SeveralRows:
    return "when the block has more than one row (blockDim.y or blockDim.z > 1)";
  case K::SeveralLayers:
    return "when blockDim.z > 1";
  case K::RowNotWarpMultiple:
    return "when blockDim.x is not a multiple of 32";
  case K::MoreThreads:
    return fmt::format("when the block has more than {} threads", C.Threads);
  case K::SomeShapes:
    break;
  }
  return "at some block shapes";
}

/// The message of a split at a block shape that is one of several tried:
/// the conditions, then the witness at its shape.
std::string shapeDependentMessage(const std::string &What, const Outcome &O, const std::string &Witness,
                                  const BlockShape &Shape) {
  std::string How = O.C != Class::WithinWarp ? "across warps"
                    : O.WithinWarp.K == ShapeCondition::Kind::Always
                        ? "within a warp"
                        : "within a warp " + conditionText(O.WithinWarp) + ", across warps otherwise";
  std::string Known;
  for (unsigned I = 0; I < 3; ++I)
    if (Shape.Dim[I])
      Known += fmt::format("{}blockDim.{} = {}", Known.empty() ? "" : ", ", char('x' + I), Shape.Dim[I]);
  std::string Unknown = Known.empty() ? "the block shape is not known"
                                      : "the block shape is known only in part: " + Known;
  if (Shape.boundOnly())
    Unknown = fmt::format("the block shape is not known; __launch_bounds__ allows at most {} threads",
                          Shape.threads());
  return fmt::format("{} is divergent {}, {} ({}; at {}x{}x{}: {})", What, conditionText(O.Diverges), How,
                     Unknown, O.S.Dim[0], O.S.Dim[1], O.S.Dim[2], Witness);
}

/// One barrier (or call) to judge, with the guards to evaluate.
struct Subject {
  const FunctionModel *Fn = nullptr;
  const BlockShape *Shape = nullptr; ///< Fn's, or one of its other launches' shapes
  const BarrierSite *Site = nullptr;
  std::vector<Guard> Guards;
  const BarrierSite *Inner = nullptr; ///< callee barrier joined with this call's arguments
  std::vector<std::string> PassedVarying; ///< parameters that receive varying values
};

class Reporter {
public:
  Reporter(CheckContext &Ctx) : Ctx(Ctx) {
    auto It = Ctx.Options.Values.find(BarrierDivergenceCheck::EarlyExitSeverityKey);
    std::string V = It == Ctx.Options.Values.end() ? "remark" : It->second;
    EarlyExitOff = V == "off" || V == "none";
    EarlyExitLevel = V == "warning" ? Severity::Warning : Severity::Remark;
  }
  void report(const Subject &Sub, const Outcome &O);

private:
  /// The message and its first notes, for each class of outcome. What:
  /// the barrier as the message names it; With: the uniform values chosen.
  void withinWarp(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What,
                  const std::string &With);
  void acrossWarps(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What,
                   const std::string &With);
  void earlyExit(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What,
                 const std::string &With);
  void unknownCondition(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What);
  /// The notes every class shares: the barrier in a callee, the shape,
  /// the other branch, the uniform values, early returns.
  void closingNotes(Finding &F, const Subject &Sub, const Outcome &O, bool Definite, bool Exit);
  void witnessNote(Finding &F, const Subject &Sub, const Outcome &O, unsigned Warp, bool ExitOnly);
  void shapeNote(Finding &F, const Subject &Sub);
  void otherBranchNote(Finding &F, const Subject &Sub);
  CheckContext &Ctx;
  bool EarlyExitOff = false;
  Severity EarlyExitLevel = Severity::Remark;
};

void Reporter::witnessNote(Finding &F, const Subject &Sub, const Outcome &O, unsigned Warp,
                           bool ExitOnly) {
  // Which guard stopped the first skipping lanes of Warp, and which lanes.
  std::map<int, uint32_t> ByGuard;
  for (unsigned L = 0; L < WarpSize; ++L) {
    unsigned T = Warp * WarpSize + L;
    if (T < O.Decider.size() && O.Decider[T] >= 0 &&
        (!ExitOnly || isReturnGuard(Sub.Guards[size_t(O.Decider[T])])))
      ByGuard[O.Decider[T]] |= 1u << L;
  }
  for (const auto &[Index, Mask] : ByGuard) {
    const Guard &G = Sub.Guards[size_t(Index)];
    SourcePos At = G.Where.valid() ? G.Where : Sub.Site->Where;
    std::string Who = fmt::format("{} of warp {}", lanesText(Mask), Warp);
    const char *S = __builtin_popcount(Mask) == 1 ? "s" : "";
    if (G.Kind == GuardKind::EarlyReturn)
      F.Notes.push_back({At, fmt::format("{} return{} here", Who, S), {}});
    else if (G.Kind == GuardKind::Break)
      F.Notes.push_back({At, fmt::format("{} leave{} the loop here", Who, S), {}});
    else if (G.Kind == GuardKind::Continue)
      F.Notes.push_back({At, fmt::format("{} skip{} the rest of the iteration here", Who, S), {}});
    else if (G.Kind == GuardKind::Reached)
      F.Notes.push_back({At, Who + " left earlier through a return, break or continue taken under "
                                   "a thread-varying condition (the first one is here)", {}});
    else
      F.Notes.push_back({At, fmt::format("{} '{}' is {} for {}{}", kindText(G), toString(G.Cond),
                                         G.Negated ? "true" : "false", Who,
                                         G.Kind == GuardKind::Else ? " (the barrier is in the else branch)"
                                         : G.Kind == GuardKind::Loop ? ": the trip count differs between threads"
                                                            : ""),
                         {}});
  }
}

void Reporter::shapeNote(Finding &F, const Subject &Sub) {
  const BlockShape &Shape = *Sub.Shape;
  for (const LaunchArgument &LA : Sub.Fn->LaunchArguments)
    F.Notes.push_back({LA.Where, describeLaunchArgument(LA), {}});
  if (Shape.boundOnly()) {
    F.Notes.push_back({Shape.Where,
                       fmt::format("block shape not known: __launch_bounds__ allows at most {} threads; the "
                                   "check tried blocks of up to {} threads, 2-D and 3-D ones where the "
                                   "conditions read threadIdx.y or threadIdx.z (--block-dim=X,Y,Z pins it)",
                                   Shape.threads(), Shape.threads()),
                       {}});
    return;
  }
  if (Shape.known()) {
    F.Notes.push_back({Shape.Where, "assuming " + describeBlockShape(Shape), {}});
    addToKeyNote(F, inferredShape(Shape));
    return;
  }
  // The warning itself says the shape is not known and which one splits it.
  if ((Shape.Dim[0] || Shape.Dim[1] || Shape.Dim[2]) && Sub.Fn->LaunchShape) {
    F.Notes.push_back({Shape.Where, "block shape known only in part: " + Sub.Fn->LaunchShape->Description +
                                        "; the check tried the usual sizes for the others" +
                                        threadBoundText(Shape) +
                                        " (--block-dim=X,Y,Z pins them)",
                       {}});
    return;
  }
  F.Notes.push_back({SourcePos(),
                     "block shape not known: the check tried 1-D blocks of 32 to 1024 threads and, where the "
                     "conditions read threadIdx.y or threadIdx.z, 2-D and 3-D shapes (--block-dim=X,Y,Z "
                     "pins it)",
                     {}});
}

bool isIfSide(const Guard &G) { return G.Kind == GuardKind::If || G.Kind == GuardKind::Else; }
/// Taken when the condition is false: the else branch (or the false edge).
bool elseSide(const Guard &G) { return G.Kind == GuardKind::Else || G.Negated; }

void Reporter::otherBranchNote(Finding &F, const Subject &Sub) {
  // if (c) barrier A; else barrier B: threads split between two barriers.
  for (const BarrierSite &Other : Sub.Fn->Barriers) {
    if (&Other == Sub.Site)
      continue;
    for (const Guard &G : Sub.Site->Guards)
      for (const Guard &H : Other.Guards)
        if (isIfSide(G) && isIfSide(H) && elseSide(G) != elseSide(H) &&
            (G.Cond == H.Cond || toString(G.Cond) == toString(H.Cond))) {
          F.Notes.push_back({Other.Where,
                             "the other branch has its own barrier here; threads waiting at "
                             "different barriers do not synchronise with each other",
                             {}});
          return;
        }
  }
}

void Reporter::withinWarp(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What,
                          const std::string &With) {
  unsigned W = 0;
  while (W < O.Reach.size() && !(O.Reach[W] && (O.Skip[W] | O.ExitSkip[W])))
    ++W;
  uint32_t Out = O.Skip[W] | O.ExitSkip[W];
  std::string Witness = fmt::format("{}{} of warp {} {} it, {} {} not", With, lanesText(O.Reach[W]), W,
                                    __builtin_popcount(O.Reach[W]) == 1 ? "reaches" : "reach",
                                    lanesText(Out), __builtin_popcount(Out) == 1 ? "does" : "do");
  F.Message = O.ShapeUnknown ? shapeDependentMessage(What, O, Witness, *Sub.Shape)
                             : fmt::format("{} is divergent within a warp: {}", What, Witness);
  witnessNote(F, Sub, O, W, false);
}

void Reporter::acrossWarps(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What,
                           const std::string &With) {
  std::vector<unsigned> R, S;
  for (unsigned W = 0; W < O.Reach.size(); ++W)
    (O.Reach[W] ? R : S).push_back(W);
  std::string Witness = fmt::format("{}{} {} it, {} {} not", With, warpsText(R),
                                    R.size() == 1 ? "reaches" : "reach", warpsText(S),
                                    S.size() == 1 ? "does" : "do");
  F.Message = O.ShapeUnknown
                  ? shapeDependentMessage(What, O, Witness, *Sub.Shape)
                  : fmt::format("{} is divergent across warps: {} (all lanes of a warp agree)", What, Witness);
  witnessNote(F, Sub, O, S.front(), false);
}

void Reporter::earlyExit(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What,
                         const std::string &With) {
  // Each warp's threads in the block (the last warp may be partial).
  std::vector<uint32_t> Full(O.Reach.size());
  for (size_t W = 0; W < Full.size(); ++W) {
    unsigned N = std::min<unsigned>(WarpSize, O.S.threads() - unsigned(W) * WarpSize);
    Full[W] = N >= 32 ? 0xffffffffu : ((1u << N) - 1);
  }
  std::string Gone = threadsText(O.ExitSkip, Full);
  bool One = (Gone.rfind("lane ", 0) == 0 || Gone.rfind("warp ", 0) == 0) && Gone.find(" and ") == std::string::npos;
  F.Message = fmt::format("{} is not reached by threads that returned earlier: {}{} return{} before it{}", What,
                          With, Gone, One ? "s" : "", O.ExitSkipWithinWarp ? "" : " (whole warps)");
  unsigned W = 0;
  while (W < O.ExitSkip.size() && !O.ExitSkip[W])
    ++W;
  witnessNote(F, Sub, O, W, true);
}

void Reporter::unknownCondition(Finding &F, const Subject &Sub, const Outcome &O, const std::string &What) {
  const Guard &G = Sub.Guards[size_t(std::max(O.UnknownGuard, 0))];
  std::string Leaves = varyingLeaves(G.Cond);
  SourcePos At = G.Where.valid() ? G.Where : Sub.Site->Where;
  if (O.C == Class::EarlyExitUnknown) {
    F.Message = fmt::format("{} may not be reached by threads that returned earlier: which threads "
                            "return depends on {}",
                            What, Leaves);
    F.Notes.push_back({At, "threads return here under a thread-varying condition", {}});
  } else if (isExitGuard(G)) {
    F.Message = fmt::format("{} may be divergent: whether a thread reaches it depends on {}, which can "
                            "differ between threads",
                            What, Leaves);
    F.Notes.push_back({At, "threads leave here under a thread-varying condition", {}});
  } else if (G.Kind == GuardKind::Loop) {
    // A condition that is one unknown (whether the lane goes round again,
    // for a loop with several exits) is not repeated.
    bool OneLeaf = G.Cond->Ops.empty() && isThreadVarying(G.Cond);
    std::string Why = OneLeaf ? leafReason(*G.Cond)
                              : fmt::format("the condition '{}' depends on {}", toString(G.Cond), Leaves);
    F.Message = fmt::format("{} may be divergent: it is in a loop whose number of iterations can differ "
                            "between threads ({})",
                            What, Why);
    F.Notes.push_back({At, "the loop is here", {}});
  } else {
    F.Message = fmt::format("{} may be divergent: whether a thread reaches it depends on {}, which can "
                            "differ between threads",
                            What, Leaves);
    F.Notes.push_back({At, fmt::format("{} '{}' is thread-varying and cannot be evaluated per thread",
                                       kindText(G), toString(G.Cond)),
                       {}});
  }
}

void Reporter::closingNotes(Finding &F, const Subject &Sub, const Outcome &O, bool Definite, bool Exit) {
  const BarrierSite &B = *Sub.Site;
  if (Sub.Inner)
    F.Notes.push_back({Sub.Inner->Where,
                       fmt::format("the barrier inside '{}' is here; whether it is reached depends on {} {}, "
                                   "which this call gives a thread-varying value",
                                   B.ViaCall, Sub.PassedVarying.size() == 1 ? "parameter" : "parameters",
                                   quotedList(Sub.PassedVarying)),
                       {}});
  else if (!B.ViaCall.empty())
    F.Notes.push_back({B.CalleeBarrier, fmt::format("'{}' executes a block barrier here", B.ViaCall), {}});
  if (Definite)
    shapeNote(F, Sub);
  if (O.C == Class::WithinWarp || O.C == Class::AcrossWarps)
    otherBranchNote(F, Sub);
  if (Definite && !O.S.Values.empty())
    F.Notes.push_back({SourcePos(),
                       fmt::format("the condition depends on warp-uniform values; {} is one choice for "
                                   "which the threads disagree",
                                   valuesText(O.S.Values)),
                       {}});
  if (Exit)
    F.Notes.push_back({SourcePos(),
                       "threads that have returned never arrive at later barriers: shared data they "
                       "would have produced before it is missing, and a barrier that not every thread "
                       "of the block reaches is undefined behaviour in CUDA; prefer guarding the work "
                       "('if (i < n) { ... }') to returning",
                       {}});
}

void Reporter::report(const Subject &Sub, const Outcome &O) {
  if (O.C == Class::None)
    return;
  bool Exit = O.C == Class::EarlyExit || O.C == Class::EarlyExitUnknown;
  if (Exit && EarlyExitOff)
    return;
  const BarrierSite &B = *Sub.Site;
  Finding F;
  F.Where = B.Where;
  F.Level = Exit ? EarlyExitLevel : Severity::Warning;
  F.Check = Exit ? BarrierDivergenceCheck::EarlyExitName
            : O.C == Class::AcrossWarps ? BarrierDivergenceCheck::AcrossWarpsName
                                        : BarrierDivergenceCheck::Name;
  std::string What = B.ViaCall.empty() ? fmt::format("barrier '{}'", B.Spelling)
                                       : fmt::format("call to '{}', which executes a block barrier,", B.ViaCall);
  bool Definite = O.C == Class::WithinWarp || O.C == Class::AcrossWarps || O.C == Class::EarlyExit;
  // Instances of one barrier in several instantiations are one finding.
  F.Kind = std::to_string(int(O.C));
  F.Score = rank(O.C);
  F.Context = "'" + Sub.Fn->Name + "'";
  F.ContextWhere = Sub.Fn->Where;
  F.Summary = Definite ? "divergent" : "possibly divergent";
  std::string With = O.S.Values.empty() || !Definite ? "" : "with " + valuesText(O.S.Values) + ", ";
  if (O.C == Class::WithinWarp)
    withinWarp(F, Sub, O, What, With);
  else if (O.C == Class::AcrossWarps)
    acrossWarps(F, Sub, O, What, With);
  else if (O.C == Class::EarlyExit)
    earlyExit(F, Sub, O, What, With);
  else
    unknownCondition(F, Sub, O, What);
  // The witness (or the condition that cannot be evaluated) explains it.
  if (!F.Notes.empty())
    F.Notes.front().Role = NoteRole::Key;
  closingNotes(F, Sub, O, Definite, Exit);
  asWritten(F, *Sub.Fn);
  Ctx.Out.Findings.push_back(std::move(F));
}

/// The shapes a function's barriers are judged at: its own and, when that
/// is its first launch's, the other shapes it is launched with here.
std::vector<BlockShape> judgedShapes(const FunctionModel &F) {
  std::vector<BlockShape> Out{F.Shape};
  if (F.Shape.From == BlockShape::Source::Launch && F.LaunchShape && F.Shape.Dim == F.LaunchShape->Dim)
    for (BlockShape S : F.OtherLaunchShapes) {
      S.Grid = F.Shape.Grid;
      Out.push_back(std::move(S));
    }
  return Out;
}

/// Barrier B of F at one block shape: its own guards, or those of a
/// helper's barrier that depends on a parameter this call gives a
/// thread-varying value, whichever is worse.
std::pair<Subject, Outcome> judge(const FunctionModel &F, const BarrierSite &B, const BlockShape &Shape,
                                  const std::map<std::string, const FunctionModel *> &ByName,
                                  const std::vector<SharedArray> &Arrays) {
  Rewrite Uniform;
  Uniform.ParamsUniform = true;
  Subject Sub;
  Sub.Fn = &F;
  Sub.Site = &B;
  Sub.Shape = &Shape;
  Sub.Guards = rewriteGuards(B.Guards, Uniform);
  Outcome O = classifyBarrier(Sub.Guards, Shape, Arrays);
  auto Callee = B.ViaCall.empty() ? ByName.end() : ByName.find(B.ViaCall);
  if (Callee == ByName.end() || Callee->second->IsKernel)
    return {std::move(Sub), std::move(O)};
  std::map<std::string, SymRef> Args;
  std::set<std::string> Varying;
  for (const auto &[P, V] : B.Args) {
    Args[P] = rewrite(V, Uniform);
    if (isThreadVarying(Args[P]))
      Varying.insert(P);
  }
  Rewrite Join;
  Join.Args = &Args;
  Join.ParamsUniform = true;
  for (const BarrierSite &Inner : Callee->second->Barriers) {
    std::vector<std::string> Used;
    for (const Guard &G : Inner.Guards)
      for (const SymExpr *V : collectLeaves(G.Cond).Varyings)
        if (isParameterLeaf(*V) && Varying.count(V->Name) &&
            std::find(Used.begin(), Used.end(), V->Name) == Used.end())
          Used.push_back(V->Name);
    if (Used.empty())
      continue;
    Subject Joined = Sub;
    for (const Guard &G : rewriteGuards(Inner.Guards, Join))
      Joined.Guards.push_back(G);
    Outcome J = classifyBarrier(Joined.Guards, Shape, Arrays);
    if (rank(J.C) > rank(O.C)) {
      O = std::move(J);
      Joined.Inner = &Inner;
      Joined.PassedVarying = Used;
      Sub = std::move(Joined);
    }
  }
  return {std::move(Sub), std::move(O)};
}

} // namespace

void BarrierDivergenceCheck::run(CheckContext &Ctx) {
  const auto &Arrays = Ctx.Model.Arrays;
  Reporter R(Ctx);
  std::map<std::string, const FunctionModel *> ByName;
  for (const FunctionModel &F : Ctx.Model.Functions)
    ByName.emplace(F.Name, &F);
  for (const FunctionModel &F : Ctx.Model.Functions)
    for (const BarrierSite &B : F.Barriers) {
      if (F.CalledByKernel)
        break; // judged inside the kernels that run it, with their arguments
      if (Ctx.outOfTime()) {
        ++Ctx.Budget->Unanalysed;
        continue;
      }
      FunctionInProgress Marked(F);
      // The worst at any launched shape (a launcher called with several).
      std::vector<BlockShape> Shapes = judgedShapes(F);
      Subject Sub;
      Outcome O;
      for (const BlockShape &Shape : Shapes) {
        auto [S, J] = judge(F, B, Shape, ByName, Arrays);
        if (!Sub.Fn || rank(J.C) > rank(O.C)) {
          Sub = std::move(S);
          O = std::move(J);
        }
      }
      R.report(Sub, O);
      // grid.sync() waits for every thread of the grid: blocks must agree too
      // (also where a helper called here executes it).
      if (O.C == Class::None && B.GridWide)
        if (auto W = gridBarrierWitness(Sub.Guards, *Sub.Shape, Arrays)) {
          Finding G;
          G.Check = Name;
          G.Level = Severity::Warning;
          G.Where = B.Where;
          std::string What = B.ViaCall.empty()
                                 ? fmt::format("grid barrier '{}'", B.Spelling)
                                 : fmt::format("call to '{}', which executes a grid barrier,", B.ViaCall);
          std::string Grid = W->GridSize ? fmt::format("in a grid of {} blocks, ", W->GridSize) : "";
          G.Message = fmt::format("{} is divergent across blocks: whether a block reaches it depends on "
                                  "'{}' ({}blocks with {} = 0 and {} = {} disagree), and it waits for every "
                                  "thread of the grid",
                                  What, W->Name, Grid, W->Name, W->Name, W->Value);
          if (!B.ViaCall.empty())
            G.Notes.push_back({B.CalleeBarrier, fmt::format("'{}' executes a grid barrier here", B.ViaCall), {}});
          asWritten(G, F);
          Ctx.Out.Findings.push_back(std::move(G));
        }
    }
}

} // namespace cbl
