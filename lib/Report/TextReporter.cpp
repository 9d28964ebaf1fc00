//===- TextReporter.cpp - clang-style diagnostics on a terminal -------------===//
#include "cuda-bank-lint/Report/Reporters.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnostic.h"
#include <fmt/format.h>

#include "llvm/Support/GlobPattern.h"

#include <algorithm>
#include <set>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace cbl {

namespace {

/// Findings printed by clang's own TextDiagnostic, so they look like the
/// compiler's (source line, caret and ~~~ range, fix-it line, colours). The
/// files are loaded into a SourceManager of the printer's own.
class ClangPrinter {
public:
  ClangPrinter(llvm::raw_ostream &OS, bool Color)
      : DiagOpts(new clang::DiagnosticOptions()), FM(clang::FileSystemOptions()),
        Diags(new clang::DiagnosticIDs(), DiagOpts.get(), new clang::IgnoringDiagConsumer()),
        SM(Diags, FM), OS(OS) {
    DiagOpts->ShowColors = Color;
    Printer = std::make_unique<clang::TextDiagnostic>(OS, LangOpts, DiagOpts.get());
  }

  void emit(const SourcePos &P, Severity Level, const std::string &Message,
            const std::vector<SourceSpan> &Ranges, const std::vector<FixIt> &Fixes) {
    clang::FullSourceLoc Loc(location(P), SM);
    if (P.valid() && Loc.isInvalid()) // a file that cannot be read: no snippet
      OS << P.File << ":" << P.Line << ":" << P.Column << ": ";
    std::vector<clang::CharSourceRange> Rs;
    for (const SourceSpan &R : Ranges)
      if (clang::SourceLocation B = location(R.Begin); B.isValid())
        Rs.push_back(clang::CharSourceRange::getCharRange(B, B.getLocWithOffset(R.Length)));
    std::vector<clang::FixItHint> Hints;
    for (const FixIt &F : Fixes)
      if (clang::SourceLocation B = location(F.Range.Begin); B.isValid())
        Hints.push_back(clang::FixItHint::CreateReplacement(
            clang::CharSourceRange::getCharRange(B, B.getLocWithOffset(F.Range.Length)), F.Text));
    Printer->emitDiagnostic(Loc, level(Level), Message, Rs, Hints);
  }

  /// One line, "file:line:col: note: message", without the source line.
  void emitLine(const SourcePos &P, Severity Level, const std::string &Message) {
    if (P.valid()) {
      if (DiagOpts->ShowColors)
        OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
      OS << P.File << ":" << P.Line << ":" << P.Column << ": ";
      if (DiagOpts->ShowColors)
        OS.resetColor();
    }
    Printer->emitDiagnostic(clang::FullSourceLoc(), level(Level), Message, {}, {});
  }

private:
  static clang::DiagnosticsEngine::Level level(Severity S) {
    switch (S) {
    case Severity::Note: return clang::DiagnosticsEngine::Note;
    case Severity::Remark: return clang::DiagnosticsEngine::Remark;
    case Severity::Warning: return clang::DiagnosticsEngine::Warning;
    case Severity::Error: return clang::DiagnosticsEngine::Error;
    }
    return clang::DiagnosticsEngine::Warning;
  }

  clang::SourceLocation location(const SourcePos &P) {
    if (!P.valid())
      return {};
    auto [It, New] = Files.try_emplace(P.File);
    if (New)
      if (auto FE = FM.getOptionalFileRef(P.File))
        It->second = SM.getOrCreateFileID(*FE, clang::SrcMgr::C_User);
    if (It->second.isInvalid())
      return {};
    return SM.translateLineCol(It->second, P.Line, P.Column);
  }

  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts;
  clang::FileManager FM;
  clang::DiagnosticsEngine Diags;
  clang::SourceManager SM;
  clang::LangOptions LangOpts;
  std::unique_ptr<clang::TextDiagnostic> Printer;
  std::map<std::string, clang::FileID> Files;
  llvm::raw_ostream &OS;
};

} // namespace

void printExplain(llvm::raw_ostream &OS, const AccessRecord &R) {
  OS << R.Where.File << ":" << R.Where.Line << ":" << R.Where.Column << ": remark: "
     << (R.Op == AccessOp::Load ? "load" : R.Op == AccessOp::Store ? "store" : "atomic");
  if (!R.Instruction.empty())
    OS << " '" << R.Instruction << "'";
  if (R.Width)
    OS << " of " << R.Width << " bytes";
  OS << " from '"
     << R.Array << "' in '" << R.Function << "' (" << R.Spelling << "): ";
  bool Bound = R.Status == VerdictStatus::Bound;
  if (R.Status != VerdictStatus::Exact && !Bound) {
    OS << verdictStatusName(R.Status) << ": " << R.Reason << "\n";
    return;
  }
  if (R.NeverExecuted) {
    OS << "no thread of the block executes it\n";
    return;
  }
  if (Bound && R.Wavefronts == 0) { // a condition without a computed cost
    OS << "bound: " << R.Reason << "\n";
    return;
  }
  std::vector<std::string> Over = R.Parameters;
  for (const std::string &B : R.BoundBy)
    if (std::find(Over.begin(), Over.end(), B) == Over.end())
      Over.push_back(B);
  if (R.Wavefronts > R.Ideal)
    OS << (Bound ? "at most " : "") << R.Degree << "-way bank conflict";
  else
    OS << "conflict-free";
  OS << ", " << R.Wavefronts << (R.Wavefronts == 1 ? " wavefront" : " wavefronts") << " (ideal "
     << R.Ideal << ") in warp " << R.WorstWarp;
  if (Bound && R.Wavefronts > R.Ideal) {
    OS << "; " << R.Reason; // an upper bound, and what it depends on
  } else if (!Over.empty()) {
    OS << "; holds for all values of ";
    for (size_t I = 0; I < Over.size(); ++I)
      OS << (I ? ", " : "") << Over[I];
  }
  OS << "\n  byte offset = " << R.Index << "\n";
  for (const std::string &U : R.AssumedUniform)
    OS << "  assuming the warp-uniform condition '" << U << "' holds\n";
  if (R.Lanes.empty())
    return;
  OS << "  lane  threadIdx        byte offset  bank      word\n";
  for (const LaneRow &L : R.Lanes) {
    if (!L.Active) {
      OS << fmt::format("  {:>4}  ({},{},{}){:>{}}inactive\n", L.Lane, L.Tid[0], L.Tid[1], L.Tid[2],
                        "", 6);
      continue;
    }
    std::string Tid = fmt::format("({},{},{})", L.Tid[0], L.Tid[1], L.Tid[2]);
    OS << fmt::format("  {:>4}  {:<15} {:>11}  {:>4}  {:>8}\n", L.Lane, Tid, L.Address, L.Bank, L.Word);
  }
}

namespace {

/// Paths as TextOptions::PathRoot asks: without a root, as spelled.
class ShownPaths {
public:
  ShownPaths(const RunReport &R, const std::string &Root) {
    if (!Root.empty())
      Paths.emplace(R, Root);
  }
  SourcePos at(SourcePos P) const {
    if (Paths && P.valid())
      P.File = Paths->path(P.File);
    return P;
  }
  std::string text(const std::string &Message) const { return Paths ? Paths->text(Message) : Message; }
  std::vector<FixIt> fixes(std::vector<FixIt> Fixes) const {
    for (FixIt &F : Fixes)
      F.Range.Begin = at(F.Range.Begin);
    return Fixes;
  }
  std::vector<SourceSpan> spans(std::vector<SourceSpan> Spans) const {
    for (SourceSpan &S : Spans)
      S.Begin = at(S.Begin);
    return Spans;
  }

private:
  std::optional<RootPaths> Paths;
};

/// What --explain says first: the accesses by status, the worst conflicts
/// and the reasons for what is not exact, before any lane table.
void printExplainSummary(llvm::raw_ostream &OS, const RunReport &R, const ExplainFilter &Only,
                         const ShownPaths &Paths) {
  std::vector<const AccessRecord *> Picked, Conflicts;
  std::set<std::string> Functions;
  std::map<std::string, unsigned> Reasons;
  for (const AccessRecord &A : R.Accesses) {
    if (!Only.matches(A))
      continue;
    Picked.push_back(&A);
    Functions.insert(A.Function);
    bool Costed = A.Status == VerdictStatus::Exact || A.Status == VerdictStatus::Bound;
    if (Costed && A.Wavefronts > A.Ideal)
      Conflicts.push_back(&A);
    if (A.Status != VerdictStatus::Exact)
      ++Reasons[std::string(verdictStatusName(A.Status)) + ": " + A.Reason];
  }
  RunReport Sub;
  for (const AccessRecord *A : Picked)
    Sub.Accesses.push_back(*A);
  OS << "explain: " << accessSummary(Sub) << " in " << Functions.size() << " function"
     << (Functions.size() == 1 ? "" : "s") << "\n";
  std::stable_sort(Conflicts.begin(), Conflicts.end(), [](const AccessRecord *A, const AccessRecord *B) {
    return A->Wavefronts - A->Ideal > B->Wavefronts - B->Ideal;
  });
  constexpr size_t Shown = 10;
  if (!Conflicts.empty())
    OS << "explain: " << Conflicts.size() << " with a bank conflict, the worst first:\n";
  for (size_t I = 0; I < Conflicts.size() && I < Shown; ++I) {
    const AccessRecord &A = *Conflicts[I];
    const char *Op = A.Op == AccessOp::Load ? "load" : A.Op == AccessOp::Store ? "store" : "atomic";
    OS << fmt::format("  {}:{}:{}: {} '{}' in '{}': {}{}-way ({} wavefronts, ideal {})\n",
                      Paths.at(A.Where).File,
                      A.Where.Line, A.Where.Column, Op, A.Spelling, A.Function,
                      A.Status == VerdictStatus::Bound ? "at most " : "", A.Degree, A.Wavefronts,
                      A.Ideal);
  }
  if (Conflicts.size() > Shown)
    OS << "  ... and " << Conflicts.size() - Shown << " more\n";
  std::vector<std::pair<unsigned, std::string>> ByCount;
  for (const auto &[Reason, N] : Reasons)
    ByCount.push_back({N, Reason});
  std::stable_sort(ByCount.begin(), ByCount.end(),
                   [](const auto &A, const auto &B) { return A.first > B.first; });
  if (!ByCount.empty())
    OS << "explain: not exact, by reason:\n";
  for (size_t I = 0; I < ByCount.size() && I < Shown; ++I)
    OS << fmt::format("  {:>5}  {}\n", ByCount[I].first, ByCount[I].second);
  if (ByCount.size() > Shown)
    OS << "  ... and " << ByCount.size() - Shown << " other reasons\n";
}

} // namespace

bool ExplainFilter::parseLocation(const std::string &Text) {
  // file:line or file:line:col; the file may itself contain ':'.
  llvm::StringRef Rest = Text;
  unsigned Numbers[2] = {0, 0};
  int Count = 0;
  for (; Count < 2; ++Count) {
    auto [Head, Tail] = Rest.rsplit(':');
    unsigned N = 0;
    if (Head == Rest || Tail.getAsInteger(10, N) || N == 0)
      break;
    Numbers[Count] = N;
    Rest = Head;
  }
  if (Count == 0 || Rest.empty())
    return false;
  File = Rest.str();
  Line = Count == 2 ? Numbers[1] : Numbers[0];
  Column = Count == 2 ? Numbers[0] : 0;
  return true;
}

bool ExplainFilter::matches(const AccessRecord &R) const {
  if (!File.empty()) {
    llvm::StringRef Path = R.Where.File;
    bool SameFile = Path == File || Path.ends_with("/" + File);
    if (!SameFile || R.Where.Line != Line || (Column && R.Where.Column != Column))
      return false;
  }
  if (!Array.empty() && R.Array != Array)
    return false;
  if (!FunctionGlob.empty()) {
    auto Pattern = llvm::GlobPattern::create(FunctionGlob);
    if (!Pattern || !Pattern->match(R.Function))
      return false;
  }
  return true;
}

namespace {

/// The fix-its on the line of At: one elsewhere (the array's declaration,
/// another access's index) is shown by the note there, or only said; under
/// this caret it would pull in every line between.
std::vector<FixIt> onLine(const std::vector<FixIt> &Fixes, const SourcePos &At) {
  std::vector<FixIt> Here;
  for (const FixIt &X : Fixes)
    if (X.Range.Begin.File == At.File && X.Range.Begin.Line == At.Line)
      Here.push_back(X);
  return Here;
}

} // namespace

void printText(const RunReport &R, llvm::raw_ostream &OS, const TextOptions &Opts) {
  ClangPrinter Printer(OS, Opts.Color);
  ShownPaths Paths(R, Opts.PathRoot);
  FixesOnce Once;
  // Where the previous finding showed its source and caret, when nothing
  // showed another since: as Clang's printer does, a finding at that same
  // location does not show it again; one elsewhere on the line (the three
  // accesses of 's[b] = s[b] + s[a]') shows the line with its own caret.
  std::optional<SourcePos> Shown;
  auto SamePlace = [](const SourcePos &A, const SourcePos &B) {
    return A.valid() && A.File == B.File && A.Line == B.Line && A.Column == B.Column;
  };
  for (const Finding &F : R.Findings) {
    // By default the fix-it is its note's one line.
    std::string Message = Paths.text(F.Message) + " [" + F.Check + "]";
    const bool LineShown = !Opts.AllNotes && Shown && SamePlace(*Shown, F.Where);
    if (LineShown) {
      Printer.emitLine(Paths.at(F.Where), F.Level, Message);
    } else {
      Printer.emit(Paths.at(F.Where), F.Level, Message, Paths.spans(F.Ranges),
                   Opts.AllNotes ? Paths.fixes(onLine(F.Fixes, F.Where)) : std::vector<FixIt>());
      Shown = F.Where;
    }
    for (const FindingNote &N : F.Notes) {
      if (Once.statedBefore(N))
        continue;
      if (const Finding *E = N.Fixes.empty() ? nullptr : Once.offeredBefore(N.Fixes, F)) {
        Printer.emitLine(Paths.at(N.Where), Severity::Note,
                         Paths.text(FixesOnce::sameAs(*E, N.Where)));
        continue;
      }
      if (N.Role == NoteRole::Key && LineShown && SamePlace(N.Where, F.Where)) {
        Printer.emitLine(Paths.at(N.Where), Severity::Note, Paths.text(N.Message));
      } else if (Opts.AllNotes || N.Role == NoteRole::Key) {
        Printer.emit(Paths.at(N.Where), Severity::Note, Paths.text(N.Message), {},
                     Opts.AllNotes ? Paths.fixes(onLine(N.Fixes, N.Where)) : std::vector<FixIt>());
        if (!SamePlace(N.Where, F.Where)) // its source shown: another place
          Shown.reset();
      } else if (N.Role == NoteRole::Fix) {
        Printer.emitLine(Paths.at(N.Where), Severity::Note, Paths.text(N.Message));
      }
    }
  }
  if (!Opts.Explain)
    return;
  printExplainSummary(OS, R, Opts.Only, Paths);
  for (const AccessRecord &A : R.Accesses) {
    if (!Opts.Only.matches(A))
      continue;
    AccessRecord Shown = A;
    Shown.Where = Paths.at(A.Where);
    printExplain(OS, Shown);
  }
}

} // namespace cbl
