//===- Reporters.h - Output formats of a run -------------------------------===//
//
// Every reporter renders the same RunReport. Text is clang style on stdout
// (file:line:col: warning: message [check]) with source lines, carets, notes
// and fix-its; JSON is the stable schema of docs/json-schema.md; SARIF and
// GitHub annotations are for CI (docs/integration.md); export-fixes writes
// what clang-apply-replacements reads.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_REPORT_REPORTERS_H
#define CUDA_BANK_LINT_REPORT_REPORTERS_H

#include "cuda-bank-lint/Report/Finding.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cbl {

/// Which accesses --explain details (all when every field is empty): a
/// source location (file suffix, line, optional column), kernels or
/// functions by glob, arrays by name.
struct ExplainFilter {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string FunctionGlob;
  std::string Array;
  bool matches(const AccessRecord &R) const;
  /// Parses "file:line[:col]"; false when it is not one.
  bool parseLocation(const std::string &Text);
};

struct TextOptions {
  /// Every note of a finding, the fix-its under their source lines; else
  /// (clang-tidy's brevity) the warning with its source line, its key note
  /// and its fix-it in one line each.
  bool AllNotes = false;
  bool Explain = false;   ///< a summary, then per-access lane tables
  ExplainFilter Only;     ///< the accesses --explain details
  bool Color = false;
  /// The working directory, or empty: then paths inside it are printed
  /// relative to it, and every path without ./ and dir/../ segments
  /// (RootPaths), in locations and in the messages that quote them.
  std::string PathRoot;
};

void printText(const RunReport &R, llvm::raw_ostream &OS, const TextOptions &Opts);
/// One access as --explain details it: "file:line:col: remark: " and its
/// verdict, then the lane -> (address, bank, word) table of its worst warp
/// when the record has one (the language server's hover shows the same).
void printExplain(llvm::raw_ostream &OS, const AccessRecord &R);
void printJson(const RunReport &R, llvm::raw_ostream &OS);

/// One record per __shared__ variable of a translation unit, with its
/// access records counted by status (Records of that unit: ArrayId indexes Arrays).
std::vector<SharedVariableRecord> summariseVariables(const std::vector<SharedArray> &Arrays,
                                                     const std::vector<AccessRecord> &Records);

/// "12 shared accesses (9 exact, 2 bound, 1 unsupported)": the records by status.
std::string accessSummary(const RunReport &R);

/// Sorts findings and records by file, line, column (deterministic output).
void sortReport(RunReport &R);

/// A check as SARIF describes it (the driver fills these from the registry,
/// so reporters stay independent of the checks).
struct RuleInfo {
  std::string Id, ShortDescription, FullDescription, Help;
  Severity DefaultLevel = Severity::Warning;
  std::string HelpUri;      ///< the check's page under docs/checks/, absolute
};

/// File relative to Root with '/' separators, or empty if File is outside it.
std::string pathInRoot(const std::string &File, const std::string &Root);

/// The paths of one report as CI shows them (CiPaths.cpp): relative to the
/// source root where inside it, else as Clang spelled them. Messages quote
/// paths as Clang spelled them ("from the launch at ../k.cu:40:3"); text()
/// rewrites every path of a file the report locates something in.
class RootPaths {
public:
  RootPaths(const RunReport &R, const std::string &Root);
  std::string relative(const std::string &File) const; ///< empty outside the root
  std::string path(const std::string &File) const;     ///< relative, else as spelled less dots
  std::string position(const SourcePos &P) const; ///< "src/k.cu:7:22"
  std::string text(llvm::StringRef Message) const;

private:
  std::string Root;
  std::map<std::string, std::string> Relative; ///< spelling -> path in Root
  std::vector<std::pair<std::string, std::string>> Renames; ///< longest first
};

/// A file not analysed, or a function in it not analysed because Clang
/// rejects its code: SARIF's tool notifications, GitHub's ::error lines.
/// Failed files and kernels are errors, device functions notes.
struct UnitProblem {
  Severity Level = Severity::Error;
  std::string File;   ///< the input file
  SourcePos Where;    ///< where to show it; may be invalid (then File)
  std::string Message;
};
std::vector<UnitProblem> unitProblems(const RunReport &R, const RootPaths &Paths);

/// What every output says of a function not analysed, without its position:
/// "kernel 'k' not analysed: Clang rejects its code: <Clang's message>
/// (k.cu:7:3)", or the reason the front end gave. Text rewrites the paths a
/// message quotes; Position prints where the cause is.
std::string skippedMessage(const SkippedFunction &S,
                           llvm::function_ref<std::string(const std::string &)> Text,
                           llvm::function_ref<std::string(const SourcePos &)> Position);

/// SARIF 2.1.0 for GitHub code scanning: URIs relative to Root under
/// uriBaseId %SRCROOT%, no partialFingerprints; fix-its as fixes, files and
/// kernels not analysed as the invocation's notifications (SarifReporter.cpp).
void printSarif(const RunReport &R, const std::vector<RuleInfo> &Rules, const std::string &Root,
                llvm::raw_ostream &OS);

/// GitHub Actions workflow commands (::warning file=...::message), one
/// ::error per file or kernel not analysed; paths relative to Root
/// (GithubReporter.cpp).
void printGithub(const RunReport &R, const std::string &Root, llvm::raw_ostream &OS);

/// The findings in clang-tidy's --export-fixes YAML, which
/// clang-apply-replacements reads; each replacement once (FixesExporter.cpp).
void exportFixes(const RunReport &R, const std::string &MainSourceFile,
                 const std::string &BuildDirectory, llvm::raw_ostream &OS);

} // namespace cbl

#endif
