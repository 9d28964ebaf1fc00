//===- TextReporter.cpp - clang-style diagnostics on a terminal -------------===//
#include "cuda-bank-lint/Report/Reporters.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnostic.h"
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
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

} // namespace

void printText(const RunReport &R, llvm::raw_ostream &OS, const TextOptions &Opts) {
  ClangPrinter Printer(OS, Opts.Color);
  for (const Finding &F : R.Findings) {
    // A fix-it elsewhere (the array's declaration) is shown by the note
    // there; under the finding's caret it would pull in every line between.
    std::vector<FixIt> Here;
    for (const FixIt &X : F.Fixes)
      if (X.Range.Begin.File == F.Where.File && X.Range.Begin.Line == F.Where.Line)
        Here.push_back(X);
    Printer.emit(F.Where, F.Level, F.Message + " [" + F.Check + "]", F.Ranges, Here);
    for (const FindingNote &N : F.Notes)
      Printer.emit(N.Where, Severity::Note, N.Message, {}, N.Fixes);
  }
  if (Opts.Explain)
    for (const AccessRecord &A : R.Accesses)
      printExplain(OS, A);
}

} // namespace cbl
