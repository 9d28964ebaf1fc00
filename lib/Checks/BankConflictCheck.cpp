//===- BankConflictCheck.cpp - cuda-shared-bank-conflict --------------------===//
#include "BankConflictCheck.h"
#include "FindingText.h"
#include "cuda-bank-lint/Support/ParallelFor.h"
#include "RunTimeCosts.h"
#include "cuda-bank-lint/BankModel/BankGrid.h"
#include "cuda-bank-lint/Checks/InProgress.h"

#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

namespace cbl {

namespace {

const char *verb(AccessOp Op) { return Op == AccessOp::Load ? "read" : "write"; }

/// What the lanes on the worst bank do: "write 4 distinct words of bank 3",
/// or for an atomic "update bank 0, one lane per wavefront even on one word".
std::string onBank(const SharedAccess &A, const AccessVerdict &V) {
  if (A.Op != AccessOp::Atomic)
    return fmt::format("{} {} distinct words of bank {}", verb(A.Op), V.Cost.Degree, V.Cost.WorstBank);
  if (A.Atomic == AtomicRule::PopcInc)
    return fmt::format("increment {} distinct words of bank {} (an add of 1 whose result is unused, "
                       "ATOMS.POPC.INC: lanes on one word are served together)",
                       V.Cost.Degree, V.Cost.WorstBank);
  std::string S = fmt::format("update bank {} (atomics serve one lane of a bank at a time, even "
                              "lanes on one word)",
                              V.Cost.WorstBank);
  if (A.Atomic == AtomicRule::CasLoop || A.Atomic == AtomicRule::GenericCasLoop)
    S += fmt::format("; it compiles to a compare-and-swap loop that runs {}, plus {} wavefront{} "
                     "of loads",
                     V.Cost.Iterations == 1 ? "once" : fmt::format("{} times", V.Cost.Iterations),
                     V.Cost.LoopLoadWavefronts, V.Cost.LoopLoadWavefronts == 1 ? "" : "s");
  return S;
}

/// Lanes of the worst phase that touch Bank, with the words they touch there.
std::vector<std::pair<unsigned, uint64_t>> lanesOnBank(const AccessVerdict &V, unsigned Width,
                                                       BankArch Arch) {
  std::vector<std::pair<unsigned, uint64_t>> Out;
  unsigned Phases = std::max(1u, V.Cost.Phases);
  unsigned PhaseLanes = WarpSize / Phases;
  unsigned First = V.Cost.WorstPhase * PhaseLanes;
  unsigned Word = bankWordBytes(Arch);
  for (unsigned L = First; L < First + PhaseLanes && L < WarpSize; ++L) {
    if (!(V.Mask >> L & 1))
      continue;
    for (uint64_t W = V.Addr[L] / Word; W <= (V.Addr[L] + Width - 1) / Word; ++W)
      if (W % bankCount(Arch) == V.Cost.WorstBank) {
        Out.push_back({L, W});
        break;
      }
  }
  return Out;
}

std::string listOf(const std::vector<std::string> &Items, size_t Max = 6) {
  std::string S;
  for (size_t I = 0; I < Items.size() && I < Max; ++I)
    S += (I ? ", " : "") + Items[I];
  if (Items.size() > Max)
    S += fmt::format(", ... ({} in all)", Items.size());
  return S;
}

/// Severity of a conflict that depends on a parameter's value; the option
/// cuda-shared-bank-conflict.PossibleSeverity is remark (default), warning
/// or none.
/// Where a finding on access A is reported: at the access, or, when the
/// access is inside a system header (a library such as CUB) and those are not
/// shown, at the innermost call made from user code. Frame is the index of
/// that call in A.CallChain, or -1.
/// V's parameters as a user reads them: the program's values (Names) and,
/// apart, the loops whose internal flag is one of them (Flags): no variable
/// of the program, it stands for its loop.
void splitParameters(const AccessVerdict &V, const FunctionModel &Fn, std::vector<std::string> &Names,
                     std::vector<SourcePos> &Flags) {
  for (const std::string &P : V.Parameters)
    if (const LoopInfo *L = loopOfInternalFlag(Fn.Loops, P))
      Flags.push_back(L->Where);
    else
      Names.push_back(P);
}

int userFrame(const SharedAccess &A, bool SystemHeaders) {
  if (SystemHeaders || !A.Where.InSystemHeader)
    return -1;
  for (int I = int(A.CallChain.size()) - 1; I >= 0; --I)
    if (!A.CallChain[size_t(I)].Site.InSystemHeader)
      return I;
  return -1;
}

/// The calls that lead to an access in a helper. In user code: one note at
/// the outermost call. Reported at the user's call into a library: a note for
/// each call inside the library and one at the access itself (like Clang's
/// template instantiation backtrace, innermost last).
void addCallNotes(Finding &F, const SharedAccess &A, const std::string &Kernel,
                  bool SystemHeaders) {
  if (A.CallChain.empty())
    return;
  int U = userFrame(A, SystemHeaders);
  if (U < 0) {
    const CallFrame &Outer = A.CallChain.front();
    F.Notes.push_back({Outer.Site,
                       fmt::format("in '{}' as called from '{}' here, with these arguments",
                                   Outer.Callee, Kernel),
                       {}});
    return;
  }
  for (size_t I = size_t(U) + 1; I < A.CallChain.size(); ++I)
    F.Notes.push_back({A.CallChain[I].Site,
                       fmt::format("'{}' calls '{}' here", A.CallChain[I - 1].Callee,
                                   A.CallChain[I].Callee),
                       {}});
  F.Notes.push_back({A.Where,
                     fmt::format("the access is here, in '{}' (a system header; "
                                 "--system-headers reports it here)",
                                 A.CallChain.back().Callee),
                     {}});
}

std::optional<Severity> possibleSeverityOption(const CheckOptions &O) {
  auto It = O.Values.find(std::string(BankConflictCheck::Name) + ".PossibleSeverity");
  if (It == O.Values.end())
    return Severity::Remark;
  if (It->second == "none")
    return std::nullopt;
  if (It->second == "warning")
    return Severity::Warning;
  if (It->second == "error")
    return Severity::Error;
  return Severity::Remark;
}

Severity possibleSeverity(const CheckOptions &O) {
  return possibleSeverityOption(O).value_or(Severity::Remark);
}

} // namespace

/// Whether E's verdict is the worst over the block widths tried for a shape
/// that is not known (or only bounded by __launch_bounds__).
static bool triedWidths(const EvaluatedAccess &E) {
  const std::vector<VerdictCase> &Cases = E.Verdict.Cases;
  return (!E.Fn->Shape.known() || E.Fn->Shape.boundOnly()) && !Cases.empty() &&
         Cases.front().Label.rfind("blockDim.x", 0) == 0;
}

/// What distinguishes this finding from others at its location (another
/// instantiation, call site or block shape), for mergeFindings.
static void describeInstance(Finding &F, const EvaluatedAccess &E, bool SystemHeaders) {
  const SharedAccess &A = *E.Access;
  const AccessVerdict &V = E.Verdict;
  // The load and the store of a read-modify-write are one finding too.
  F.Kind = "access";
  bool Varies = std::any_of(V.Cases.begin(), V.Cases.end(), [&](const VerdictCase &C) {
    return C.Cost.Degree != V.Cost.Degree;
  });
  F.Summary = fmt::format("{}: {}{}-way ({} wavefronts, ideal {})", doing(A), Varies ? "up to " : "",
                          V.Cost.Degree, V.Cost.Wavefronts, V.Cost.Ideal);
  F.Score = V.Cost.Wavefronts > V.Cost.Ideal ? V.Cost.Wavefronts - V.Cost.Ideal : 0;
  F.Context = "'" + E.Fn->Name + "'";
  // An instantiation is best located by the launch that makes it.
  F.ContextWhere = E.Fn->Shape.From == BlockShape::Source::Launch && E.Fn->Shape.Where.valid()
                       ? E.Fn->Shape.Where
                       : E.Fn->Where;
  if (!A.CallChain.empty()) {
    const SourcePos &Site = A.CallChain.front().Site;
    F.Context += fmt::format(" through the call at line {}", Site.Line);
    F.ContextWhere = Site;
  }
  if (E.Fn->Shape.known() && !triedWidths(E))
    F.Context += fmt::format(" with block {}x{}x{}", E.Fn->Shape.Dim[0], E.Fn->Shape.Dim[1],
                             E.Fn->Shape.Dim[2]);
  for (const CallFrame &C : A.CallChain)
    if (SystemHeaders || !C.Site.InSystemHeader)
      F.AlsoSuppressedAt.push_back(C.Site);
}

namespace {

/// "words 0, 32, 64, ..., 992", "word 4": the words the lanes on the worst
/// bank touch, in lane order.
std::string wordsText(const std::vector<std::pair<unsigned, uint64_t>> &Lanes) {
  std::vector<int64_t> Ws;
  for (const auto &[L, W] : Lanes)
    if (std::find(Ws.begin(), Ws.end(), int64_t(W)) == Ws.end())
      Ws.push_back(int64_t(W));
  if (Ws.size() == 1)
    return fmt::format("word {}", Ws[0]);
  bool Steps = Ws.size() > 4;
  for (size_t I = 2; Steps && I < Ws.size(); ++I)
    Steps = Ws[I] - Ws[I - 1] == Ws[1] - Ws[0];
  if (Steps)
    return fmt::format("words {}, {}, {}, ..., {}", Ws[0], Ws[1], Ws[2], Ws.back());
  std::string S = "words ";
  for (size_t I = 0; I < Ws.size() && I < 4; ++I)
    S += (I ? ", " : "") + std::to_string(Ws[I]);
  if (Ws.size() > 4)
    S += fmt::format(", ... ({} in all)", Ws.size());
  return S;
}

/// The warning line: degree, array, the lanes on the worst bank and the
/// wavefronts against the ideal (a possible conflict: its condition).
std::string conflictMessage(const EvaluatedAccess &E, const SharedArray &Arr, size_t Lanes,
                            bool Varies, bool WidthCases) {
  const SharedAccess &A = *E.Access;
  const AccessVerdict &V = E.Verdict;
  std::string In = E.Fn->Name.find('<') != std::string::npos ? " in '" + shortFunctionName(E.Fn->Name) + "'" : "";
  if (!V.Condition.empty()) {
    std::string M = fmt::format("possible bank conflict {} {}{}: {}", doing(A), arrayAsWritten(A, Arr.Name), In,
                                V.Condition);
    if (!V.WorstCase.empty())
      M += fmt::format(" (worst: {} wavefronts, ideal {}, at {})", V.Cost.Wavefronts, V.Cost.Ideal,
                       V.WorstCase);
    return M;
  }
  std::string Phase = V.Cost.Phases > 1 ? fmt::format(" in phase {} of {}", V.Cost.WorstPhase,
                                                      V.Cost.Phases)
                                        : "";
  std::string When = Varies && !V.WorstCase.empty() ? " at " + V.WorstCase : "";
  std::string M = fmt::format("{}{}-way bank conflict {} {}{}: {} lane{} of warp {} {}{}{} "
                              "({} wavefronts, ideal {})",
                              Varies ? "up to " : "", V.Cost.Degree, doing(A), arrayAsWritten(A, Arr.Name), In, Lanes,
                              Lanes == 1 ? "" : "s", V.Warp, onBank(A, V), Phase, When,
                              V.Cost.Wavefronts, V.Cost.Ideal);
  if (WidthCases && !Varies)
    return M + " at " + V.Cases.front().Label;
  if (Varies || WidthCases || V.Cases.empty())
    return M;
  // One case without a label: a loop not run, the same in every iteration.
  size_t N = V.Cases.size();
  std::string Distinct = V.RepeatedIterations ? "distinct " : "";
  if (N == 1 && V.Cases.front().Label.empty() && !V.RepeatedIterations)
    return M + " in every iteration";
  M += N == 1 ? fmt::format(" in its 1 {}iteration ({})", Distinct, V.Cases.front().Label)
              : fmt::format(" in each of the {} {}iterations", N, Distinct);
  std::string Which = N == 1 ? "it" : "one of them";
  if (V.RepeatedIterations == 1)
    M += fmt::format(" (the other warp iteration repeats {})", Which);
  else if (V.RepeatedIterations)
    M += fmt::format(" (the other {} warp iterations repeat {})", V.RepeatedIterations, Which);
  return M;
}

/// "consecutive lanes are 32 words apart and gcd(32, 32 banks) = 32, so the
/// lanes of a warp use only 1 distinct bank", or empty when the lanes are
/// not evenly spaced.
std::string strideText(const SharedAccess &A, const AccessVerdict &V, BankArch Arch) {
  std::vector<unsigned> Active;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (V.Mask >> L & 1)
      Active.push_back(L);
  if (Active.size() < 2)
    return "";
  int64_t S = int64_t(V.Addr[Active[1]] - V.Addr[Active[0]]) / int64_t(Active[1] - Active[0]);
  for (unsigned L : Active)
    if (int64_t(V.Addr[L]) - int64_t(V.Addr[Active[0]]) != S * int64_t(L - Active[0]))
      return "";
  unsigned Word = bankWordBytes(Arch), Banks = bankCount(Arch);
  if (S % Word != 0 || A.Width > Word)
    return fmt::format("consecutive lanes are {} byte{} apart", S, S == 1 || S == -1 ? "" : "s");
  int64_t Words = S / Word;
  uint64_t G = Words == 0 ? Banks : std::gcd(uint64_t(Words < 0 ? -Words : Words), uint64_t(Banks));
  return fmt::format("consecutive lanes are {} word{} apart and gcd({}, {} banks) = {}, so the "
                     "lanes of a warp use only {} distinct bank{}",
                     Words, Words == 1 || Words == -1 ? "" : "s", Words < 0 ? -Words : Words, Banks,
                     G, Banks / G, Banks / G == 1 ? "" : "s");
}

/// The note that explains the finding in one line: the byte offset, and the
/// lanes on the worst bank with the words they touch there.
FindingNote keyNote(const EvaluatedAccess &E, const SharedArray &Arr, const std::string &Offset,
                    const std::vector<std::pair<unsigned, uint64_t>> &Lanes, const SourcePos &At) {
  const AccessVerdict &V = E.Verdict;
  std::string M = fmt::format("byte offset in '{}' = {}", Arr.Name, Offset);
  if (V.Cost.Wavefronts > 0 && !Lanes.empty()) {
    uint32_t Mask = 0;
    for (const auto &[L, W] : Lanes)
      Mask |= 1u << L;
    M += fmt::format(": {} {} bank {} at {}", lanesText(Mask), Lanes.size() == 1 ? "hits" : "hit",
                     V.Cost.WorstBank, wordsText(Lanes));
  }
  if (V.Status == VerdictStatus::Bound && V.Condition.empty())
    M += V.PerExecution ? "; exact per execution, how many run is not known (--explain says why)"
                        : "; an upper bound (--explain says why)";
  return {At, M, {}, NoteRole::Key};
}

} // namespace

void BankConflictCheck::detailNotes(Finding &F, CheckContext &Ctx, const Evaluated &E,
                                    bool WidthCases) {
  const SharedAccess &A = *E.Access;
  const AccessVerdict &V = E.Verdict;
  if (std::string Short = shortFunctionName(E.Fn->Name); Short != E.Fn->Name)
    F.Notes.push_back({A.Where, fmt::format("'{}' is '{}'", Short, E.Fn->Name), {}});
  if (V.Cost.Wavefronts > 0)
    if (std::string Stride = strideText(A, V, Ctx.Options.Arch); !Stride.empty())
      F.Notes.push_back({A.Where, Stride, {}});
  if (!A.MergedWith.empty()) {
    // The copies of one access in an unrolled loop are named once.
    std::vector<std::string> Others;
    for (size_t I = 0; I < A.MergedWith.size();) {
      const auto &[Where, Text] = A.MergedWith[I];
      size_t Copies = 1;
      auto Same = [&](const std::pair<SourcePos, std::string> &O) {
        return O.second == Text && O.first.File == Where.File && O.first.Line == Where.Line &&
               O.first.Column == Where.Column;
      };
      while (I + Copies < A.MergedWith.size() && Same(A.MergedWith[I + Copies]))
        ++Copies;
      Others.push_back(Copies == 1 ? fmt::format("'{}' (line {})", Text, Where.Line)
                                   : fmt::format("{} more copies of '{}' (line {}, an unrolled loop)",
                                                 Copies, Text, Where.Line));
      I += Copies;
    }
    const char *What = A.Op == AccessOp::Load ? "load" : "store";
    F.Notes.push_back({A.Where,
                       fmt::format("the compiler merges this {} with {} into one {}-bit {}, whose "
                                   "cost this is",
                                   What, listOf(Others), A.Width * 8, What),
                       {}});
  }
  addCallNotes(F, A, E.Fn->Name, Ctx.Options.SystemHeaders);
  if (V.Cost.Wavefronts > 0) {
    std::vector<std::string> Collide;
    for (auto &[L, W] : lanesOnBank(V, A.Width, Ctx.Options.Arch))
      Collide.push_back(fmt::format("lane {} (word {})", L, W));
    F.Notes.push_back({A.Where, fmt::format("bank {} is hit by {}", V.Cost.WorstBank,
                                            listOf(Collide, 32)),
                       {}});
  }
  bool Varies = std::any_of(V.Cases.begin(), V.Cases.end(), [&](const VerdictCase &C) {
    return C.Cost.Degree != V.Cost.Degree;
  });
  if (Varies && V.Condition.empty()) {
    std::vector<std::string> Parts;
    for (const VerdictCase &C : V.Cases) {
      std::string P = C.Cost.Wavefronts > C.Cost.Ideal
                          ? fmt::format("{}-way at {}", C.Cost.Degree, C.Label)
                          : fmt::format("conflict-free at {}", C.Label);
      if (C.ActiveLanes < WarpSize)
        P += fmt::format(" ({} lane{} active)", C.ActiveLanes, C.ActiveLanes == 1 ? "" : "s");
      Parts.push_back(P);
    }
    F.Notes.push_back({A.Where, "per case: " + listOf(Parts, 16), {}});
  }
  std::string Shape = describeBlockShape(E.Fn->Shape);
  if (WidthCases)
    Shape = "a block of unknown shape: the address uses threadIdx.y or threadIdx.z, so the result "
            "depends on blockDim.x; the widths such code is launched with were evaluated (a "
            "multiple of 32 up to the extent of the dimension threadIdx.x indexes, or that "
            "extent); pin it with --block-dim=X,Y,Z";
  std::vector<std::string> Names;
  std::vector<SourcePos> Flags;
  splitParameters(V, *E.Fn, Names, Flags);
  if (!Names.empty()) {
    std::vector<std::string> Quoted;
    for (const auto &P : Names)
      Quoted.push_back("'" + P + "'");
    Shape += "; the result holds for every value of " + listOf(Quoted, 8);
  }
  for (const SourcePos &L : Flags)
    Shape += fmt::format("{} every iteration of the loop at line {}", Names.empty() ? "; the result holds in" : " and in", L.Line);
  F.Notes.push_back({E.Fn->Shape.Where.valid() ? E.Fn->Shape.Where : SourcePos(),
                     "assuming " + Shape, {}});
  for (const LaunchArgument &LA : E.Fn->LaunchArguments)
    F.Notes.push_back({LA.Where, describeLaunchArgument(LA), {}});
  if (V.Status == VerdictStatus::Bound && V.Reason != V.Condition)
    F.Notes.push_back({A.Where, V.Reason, {}});
  if (!V.Boundary.empty())
    F.Notes.push_back({A.Where, V.Boundary, {}});
}

const SharedAccess *BankConflictCheck::storeOfSameLvalue(const FunctionModel &Fn,
                                                        const SharedAccess &A) const {
  if (A.Op != AccessOp::Load || A.Spelling.empty())
    return nullptr;
  auto SameCalls = [&](const SharedAccess &S) {
    return std::equal(S.CallChain.begin(), S.CallChain.end(), A.CallChain.begin(), A.CallChain.end(),
                      [](const CallFrame &X, const CallFrame &Y) {
                        return X.Site.File == Y.Site.File && X.Site.Offset == Y.Site.Offset;
                      });
  };
  auto It = Stores.find({&Fn, A.ArrayId, A.Where.File, A.Where.Line, A.Spelling});
  if (It == Stores.end())
    return nullptr;
  for (const SharedAccess *S : It->second)
    if (S->ByteOffset->Hash == A.ByteOffset->Hash && SameCalls(*S) &&
        toString(S->ByteOffset) == toString(A.ByteOffset))
      return S;
  return nullptr;
}

Finding BankConflictCheck::diagnose(CheckContext &Ctx, FixSearch &Fixes, const Evaluated &E) {
  const SharedAccess &A = *E.Access;
  const AccessVerdict &V = E.Verdict;
  const SharedArray &Arr = Ctx.Model.Arrays[A.ArrayId];
  auto Lanes = lanesOnBank(V, A.Width, Ctx.Options.Arch);
  // When loop iterations were enumerated and the degree varies, say so.
  bool Varies = std::any_of(V.Cases.begin(), V.Cases.end(), [&](const VerdictCase &C) {
    return C.Cost.Degree != V.Cost.Degree;
  });
  // Cases over the block widths considered for a block of unknown shape.
  bool WidthCases = triedWidths(E);
  Finding F;
  F.Check = Name;
  F.Level = V.Condition.empty() ? Severity::Warning : possibleSeverity(Ctx.Options);
  int U = userFrame(A, Ctx.Options.SystemHeaders);
  F.Where = U < 0 ? A.Where : A.CallChain[size_t(U)].Site;
  const SharedAccess *Store = storeOfSameLvalue(*E.Fn, A);
  if (Store)
    F.Where = Store->Where; // one finding with the store's (mergeFindings)
  if (U < 0 && A.Length)
    F.Ranges.push_back({F.Where, Store ? Store->Length : A.Length});
  F.Message = conflictMessage(E, Arr, Lanes.size(), Varies, WidthCases);
  describeInstance(F, E, Ctx.Options.SystemHeaders);
  if (!V.Condition.empty())
    // One finding with the definite instances of this access (the worse
    // level wins), the condition in its note.
    F.Summary = doing(A) + ": a possible conflict (" + V.Condition + ")";
  F.Notes.push_back(keyNote(E, Arr,
                            renderOffset(A.ByteOffset, Ctx.Model.Arrays,
                                         WidthCases ? BlockShape() : E.Fn->Shape),
                            Lanes, F.Where));
  std::string Shape =
      WidthCases ? "block shape not known: every width it may have was evaluated" +
                       (E.Fn->Shape.MaxThreads < 1024
                            ? fmt::format(", up to {} threads (__launch_bounds__)", E.Fn->Shape.MaxThreads)
                            : std::string()) +
                       "; --block-dim pins it"
                 : inferredShape(E.Fn->Shape);
  // In a helper (a header's function): which kernel, through which call.
  if (U < 0 && !A.CallChain.empty())
    Shape = fmt::format("in '{}' through the call at {}:{}{}{}", shortFunctionName(E.Fn->Name),
                        A.CallChain.front().Site.File, A.CallChain.front().Site.Line,
                        Shape.empty() ? "" : "; ", Shape);
  addToKeyNote(F, Shape);
  detailNotes(F, Ctx, E, WidthCases);
  fixNotes(F, Ctx, Fixes, E);
  return F;
}

/// The verdict of every access of the model, in order (on the file's
/// workers: ParallelFor.h).
static std::vector<EvaluatedAccess> verdictsOf(CheckContext &Ctx) {
  std::vector<EvaluatedAccess> All;
  for (const FunctionModel &F : Ctx.Model.Functions) {
    FunctionInProgress Marked(F);
    for (const SharedAccess &A : F.Accesses)
      All.push_back({&F, &A, AccessVerdict()});
  }
  std::vector<char> Late(All.size(), 0);
  parallelFor(Ctx.Threads, All.size(), [&](size_t I) {
    if (Ctx.outOfTime()) {
      Late[I] = 1;
      return;
    }
    EvaluatedAccess &E = All[I];
    FunctionInProgress Marked(*E.Fn);
    E.Verdict = analyseAccessAnyShape(*E.Access, E.Fn->Loops, Ctx.Model.Arrays, E.Fn->Shape,
                                      Ctx.Options.Arch, {}, Ctx.Memo);
  }, [] { FunctionInProgress::reset(); });
  for (size_t I = 0; I < All.size(); ++I)
    if (Late[I]) {
      All[I].Verdict.Reason = Ctx.Budget->reason();
      ++Ctx.Budget->Unanalysed;
    }
  return All;
}

/// Which verdicts are warned about: conflicted, above the configured
/// degree, one finding per location and calling instance, the worst chunk
/// of a split aggregate first.
static std::vector<bool> warnedAccesses(const CheckContext &Ctx, const std::vector<EvaluatedAccess> &All) {
  std::vector<size_t> Order(All.size());
  for (size_t I = 0; I < All.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
    return All[X].Verdict.Cost.Degree > All[Y].Verdict.Cost.Degree;
  });
  std::set<std::tuple<std::string, unsigned, unsigned, AccessOp, std::string>> Reported;
  std::vector<bool> Warn(All.size(), false);
  for (size_t I : Order) {
    const EvaluatedAccess &E = All[I];
    const AccessVerdict &V = E.Verdict;
    if (!V.Condition.empty() && !possibleSeverityOption(Ctx.Options))
      continue; // possible conflicts silenced by the configuration
    bool Possible = !V.Condition.empty() && V.Status == VerdictStatus::Bound;
    if ((V.Status != VerdictStatus::Exact && V.Status != VerdictStatus::Bound) ||
        (V.Cost.Wavefronts <= V.Cost.Ideal && !Possible) ||
        (V.Cost.Degree < Ctx.Options.MinConflictDegree && !(Possible && V.Cost.Degree == 0)))
      continue;
    const SourcePos &P = E.Access->Where;
    std::string Instance =
        E.Fn->Name + "@" +
        std::to_string(E.Access->CallChain.empty() ? 0 : E.Access->CallChain.front().Site.Offset);
    if (Reported.insert({P.File, P.Line, P.Column, E.Access->Op, Instance}).second)
      Warn[I] = true;
  }
  return Warn;
}

/// Every lane of the verdict's warp (--explain).
static std::vector<LaneRow> laneRows(const AccessVerdict &V, BankArch Arch) {
  std::vector<LaneRow> Rows;
  for (unsigned L = 0; L < WarpSize; ++L) {
    LaneRow Row;
    Row.Lane = L;
    Row.Tid = V.Tid[L];
    Row.Active = V.Mask >> L & 1;
    Row.Address = V.Addr[L];
    Row.Word = V.Addr[L] / bankWordBytes(Arch);
    Row.Bank = bankOf(V.Addr[L], Arch);
    Rows.push_back(Row);
  }
  return Rows;
}

/// The access record of one verdict, as every reporter prints it.
static AccessRecord accessRecord(const CheckContext &Ctx, const EvaluatedAccess &E) {
  const SharedAccess &A = *E.Access;
  const AccessVerdict &V = E.Verdict;
  const auto &Arrays = Ctx.Model.Arrays;
  AccessRecord R;
  R.ArrayId = A.ArrayId;
  R.Where = A.Where;
  R.Function = E.Fn->Name;
  R.InKernel = E.Fn->IsKernel;
  R.Array = Arrays[A.ArrayId].Name;
  R.Spelling = A.Spelling;
  R.Op = A.Op;
  R.Width = A.Width;
  R.Instruction = A.Instruction;
  R.Atomic = A.Atomic;
  R.Iterations = V.Cost.Iterations;
  R.LoopLoadWavefronts = V.Cost.LoopLoadWavefronts;
  R.LoopLoadIdeal = V.Cost.LoopLoadIdeal;
  R.Status = V.Status;
  R.Reason = V.Reason;
  R.Wavefronts = V.Cost.Wavefronts;
  R.Ideal = V.Cost.Ideal;
  R.Degree = V.Cost.Degree;
  R.WorstWarp = V.Warp;
  R.ActiveMask = V.Mask;
  R.BlockWavefronts = V.Block.Wavefronts;
  R.BlockIdeal = V.Block.Ideal;
  R.BlockLoopLoadWavefronts = V.Block.LoopLoadWavefronts;
  R.BlockLoopLoadIdeal = V.Block.LoopLoadIdeal;
  R.BlockIterations = V.BlockIterations;
  R.RepeatedIterations = V.RepeatedIterations;
  for (const VerdictCase &C : V.Cases)
    R.Cases.push_back({C.Label, C.Cost.Degree, C.Cost.Wavefronts, C.Cost.Ideal, C.ActiveLanes});
  R.Shape = E.Fn->Shape;
  for (const LaunchArgument &LA : E.Fn->LaunchArguments)
    R.LaunchArguments.push_back(describeLaunchArgument(LA));
  R.CallChain = A.CallChain;
  R.MergedWith = A.MergedWith;
  R.Index = renderOffset(A.ByteOffset, Arrays);
  splitParameters(V, *E.Fn, R.Parameters, R.LoopFlags);
  R.AssumedUniform = V.AssumedUniform;
  R.BoundBy = V.BoundBy;
  R.BoundaryBy = V.BoundaryBy;
  R.Boundary = V.Boundary;
  R.NeverExecuted = V.NeverExecuted;
  if (V.Random)
    R.Random = randomDataRecord(*V.Random);
  if (V.Edge)
    R.Edge = edgeRecord(*V.Edge);
  R.PerExecution = V.PerExecution;
  if (Ctx.Options.Explain && V.Status != VerdictStatus::Unknown && V.Status != VerdictStatus::DataDependent &&
      !V.NeverExecuted)
    R.Lanes = laneRows(V, Ctx.Options.Arch);
  if (!R.Lanes.empty())
    if (auto Worst = worstWarpAccess(A, V); costOf(Worst, Ctx.Options.Arch).Wavefronts == V.Cost.Wavefronts)
      R.Grid = bankGrid(Worst, Ctx.Options.Arch);
  asWritten(R, *E.Fn);
  return R;
}

void BankConflictCheck::run(CheckContext &Ctx) {
  std::vector<Evaluated> All = verdictsOf(Ctx);
  FixSearch Fixes(Ctx, All);
  Stores.clear();
  for (const Evaluated &E : All)
    if (E.Access->Op == AccessOp::Store && !E.Access->Spelling.empty())
      Stores[{E.Fn, E.Access->ArrayId, E.Access->Where.File, E.Access->Where.Line, E.Access->Spelling}]
          .push_back(E.Access);
  std::vector<bool> Warn = warnedAccesses(Ctx, All);
  for (size_t I = 0; I < All.size(); ++I) {
    const Evaluated &E = All[I];
    Ctx.Out.Accesses.push_back(accessRecord(Ctx, E));
    const std::string &ArrayName = Ctx.Model.Arrays[E.Access->ArrayId].Name;
    std::optional<Finding> F;
    if (Warn[I]) {
      FunctionInProgress Marked(*E.Fn);
      F = diagnose(Ctx, Fixes, E);
    } else if (!(F = randomDataRemark(E, ArrayName, Name))) {
      F = edgeRemark(E, ArrayName, Name);
    }
    if (F) {
      asWritten(*F, *E.Fn);
      Ctx.Out.Findings.push_back(std::move(*F));
    }
  }
}

} // namespace cbl
