//===- FixesExporter.cpp - Findings as clang-tidy's --export-fixes YAML ----===//
//
// Written with clang::tooling's own types and YAML traits (clang/Tooling/
// DiagnosticsYaml.h), so the file is what clang-tidy writes and
// clang-apply-replacements reads: MainSourceFile, then every finding as a
// Diagnostic with its notes and its fix-its as Replacements. A replacement
// offered by several findings (one padding fix for each access to an array)
// is written with the first only: clang-apply-replacements would otherwise
// have to recognise the duplicates.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"

#include <set>
#include <tuple>

namespace cbl {

namespace {

namespace tooling = clang::tooling;

tooling::Diagnostic::Level level(Severity S) {
  switch (S) {
  case Severity::Error: return tooling::Diagnostic::Error;
  case Severity::Warning: return tooling::Diagnostic::Warning;
  default: return tooling::Diagnostic::Remark;
  }
}

/// Builds the messages, writing each distinct replacement once.
class Exporter {
public:
  tooling::DiagnosticMessage message(const std::string &Text, const SourcePos &Where,
                                     const std::vector<FixIt> &Fixes) {
    tooling::DiagnosticMessage M(Text);
    if (Where.valid()) {
      M.FilePath = absolutePath(Where.File);
      M.FileOffset = Where.Offset;
    }
    for (const FixIt &X : Fixes) {
      tooling::Replacement R(absolutePath(X.Range.Begin.File), X.Range.Begin.Offset, X.Range.Length,
                             X.Text);
      auto Key = std::make_tuple(R.getFilePath().str(), R.getOffset(), R.getLength(),
                                 R.getReplacementText().str());
      if (!Written.insert(Key).second)
        continue;
      // A fix-it overlapping another of the same finding cannot be part of
      // one fix; none of the checks makes one.
      llvm::consumeError(M.Fix[R.getFilePath()].add(R));
    }
    return M;
  }

private:
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Written;
};

} // namespace

void exportFixes(const RunReport &R, const std::string &MainSourceFile,
                 const std::string &BuildDirectory, llvm::raw_ostream &OS) {
  tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = absolutePath(MainSourceFile);
  Exporter E;
  for (const Finding &F : R.Findings) {
    llvm::SmallVector<tooling::DiagnosticMessage, 1> Notes;
    tooling::DiagnosticMessage Message = E.message(F.Message, F.Where, F.Fixes);
    for (const FindingNote &N : F.Notes)
      Notes.push_back(E.message(N.Message, N.Where, N.Fixes));
    TU.Diagnostics.emplace_back(F.Check, Message, Notes, level(F.Level), BuildDirectory);
  }
  llvm::yaml::Output YAML(OS);
  YAML << TU;
}

} // namespace cbl
