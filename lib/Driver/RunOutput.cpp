//===- RunOutput.cpp - Version, summary, source root, rules, fixes ---------===//
#include "RunOutput.h"
#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Driver/FixApplier.h"
#include "cuda-bank-lint/Driver/Inputs.h"
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/BuildConfig.h"
#include "cuda-bank-lint/Symbolic/IslContext.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace llvm;

namespace cbl {

void printVersion(raw_ostream &OS) {
  OS << "cuda-bank-lint " << CBL_VERSION << "\n";
  OS << "  LLVM/Clang " << CBL_LLVM_VERSION << "\n";
  IslContext Isl;
  long N = Isl.selfTest();
  OS << "  isl " << islRuntimeVersion() << " (built against isl " << CBL_ISL_BUILD_VERSION
     << (N == 32 ? ", self-test passed" : ", self-test FAILED") << ")\n";
  OS << "  bank model: sm_70+ (32 banks x 4 bytes), reproduces 2150 H100 measurements\n";
}

std::string defaultSourceRoot() {
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  for (StringRef D = Cwd; !D.empty(); D = sys::path::parent_path(D)) {
    SmallString<256> Git(D);
    sys::path::append(Git, ".git");
    if (sys::fs::exists(Git))
      return D.str();
  }
  return std::string(Cwd);
}

std::string unmodelledText(const AnalysisOutcome &Result, bool Strict) {
  std::string Text;
  for (const auto &[File, Kernels] : Result.Unmodelled)
    Text += describeUnmodelled(File, Kernels, Strict);
  return Text;
}

void printSummary(const AnalysisOutcome &Result, size_t Files, size_t NotSource,
                  size_t HiddenRemarks, bool Strict, double Seconds) {
  const RunReport &Report = Result.Report;
  size_t Warnings = 0, ErrorFindings = 0, SkippedKernels = 0, Unmodelled = 0;
  for (const Finding &F : Report.Findings) {
    ErrorFindings += F.Level == Severity::Error;
    Warnings += F.Level == Severity::Warning;
  }
  std::set<std::pair<std::string, std::string>> NotAnalysed; // (file, kernel): an error already
  for (const UnitStatus &U : Report.Units)
    for (const SkippedFunction &S : U.Skipped)
      if (S.What == SkippedFunction::Kind::Kernel) {
        ++SkippedKernels;
        NotAnalysed.insert({U.File, S.Name});
      }
  // A kernel not modelled for several reasons is one error, and none more
  // when it is not analysed at all (that is its error).
  if (Strict)
    for (const auto &[File, Kernels] : Result.Unmodelled) {
      std::set<std::string> Names;
      for (const UnmodelledKernel &K : Kernels)
        if (!NotAnalysed.count({File, K.Kernel}))
          Names.insert(K.Kernel);
      Unmodelled += Names.size();
    }
  size_t Errors = Report.Errors + SkippedKernels + ErrorFindings + Unmodelled;
  std::string Partly;
  if (Report.PartlyAnalysed || Report.Errors)
    Partly = formatv(" ({0} partly, {1} not at all)", Report.PartlyAnalysed, Report.Errors).str();
  if (Report.SkippedHeaders)
    Partly += formatv(" ({0} header{1} skipped)", Report.SkippedHeaders,
                      Report.SkippedHeaders == 1 ? "" : "s").str();
  // Not seen at all, so no error even with --strict: what the compiler does
  // not compile for this configuration is not there to analyse.
  if (Report.PreprocessorSkipped)
    Partly += formatv(" ({0} kernel{1} in code the preprocessor skipped)", Report.PreprocessorSkipped,
                      Report.PreprocessorSkipped == 1 ? "" : "s").str();
  if (NotSource)
    Partly += formatv(" ({0} non-source file{1} skipped)", NotSource, NotSource == 1 ? "" : "s").str();
  std::string Remarks;
  if (HiddenRemarks)
    Remarks = formatv(" ({0} remark{1} not shown: --remarks)", HiddenRemarks,
                      HiddenRemarks == 1 ? "" : "s").str();
  errs() << formatv("{0} file{1} analysed{2}, {3}, {4} warning{5}, {6} error{7}{8} in {9:f2} s\n",
                    Files, Files == 1 ? "" : "s", Partly, accessSummary(Report), Warnings,
                    Warnings == 1 ? "" : "s", Errors, Errors == 1 ? "" : "s", Remarks, Seconds);
  errs() << unmodelledText(Result, Strict);
}

std::vector<std::string> enabledNames(const std::string &Globs) {
  std::vector<std::string> Names = allCheckNames();
  llvm::erase_if(Names, [&](const std::string &N) { return !checkEnabled(N, Globs); });
  return Names;
}

/// clang-tidy's --list-checks: every name a finding can carry that the globs
/// enable.
int listChecks(const std::string &Globs) {
  std::vector<std::string> Names = enabledNames(Globs);
  if (Names.empty()) {
    errs() << "No checks enabled.\n";
    return 1;
  }
  outs() << "Enabled checks:";
  for (const std::string &N : Names)
    outs() << "\n    " << N;
  outs() << "\n\n";
  return 0;
}

std::vector<RuleInfo> checkRules() {
  std::vector<RuleInfo> Rules;
  for (const CheckInfo &C : registeredChecks())
    Rules.push_back({C.Name, C.Summary, C.Help, C.Help, C.DefaultSeverity,
                     CBL_DOCS_URL "/checks/" + C.Name.substr(C.Name.find('-') + 1) + ".md"});
  return Rules;
}

bool writeFixes(const RunReport &Report, const std::vector<std::string> &Files,
                const StdinInput *Stdin, StringRef ExportFixes, bool Fix) {
  bool Ok = true;
  if (!ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_Text);
    if (EC) {
      errs() << "cuda-bank-lint: error: cannot write '" << ExportFixes << "': " << EC.message()
             << "\n";
      Ok = false;
    } else {
      SmallString<256> Cwd;
      sys::fs::current_path(Cwd);
      std::string Yaml;
      raw_string_ostream Y(Yaml);
      exportFixes(Report, Files.size() == 1 ? Files.front() : "", std::string(Cwd), Y);
      OS << (Stdin ? Stdin->mapBack(Y.str()) : Y.str());
    }
  }
  if (Fix) {
    FixOutcome FO = applyFixes(Report);
    errs() << FO.Messages;
    if (FO.Failed)
      Ok = false;
    else if (FO.Applied)
      errs() << formatv("cuda-bank-lint: applied {0} fix-it{1} to {2} file{3}\n", FO.Applied,
                        FO.Applied == 1 ? "" : "s", FO.Files, FO.Files == 1 ? "" : "s");
  }
  return Ok;
}

} // namespace cbl
