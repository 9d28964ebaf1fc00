//===- RunOutput.h - What the command line prints besides the report -------===//
//
// The version text, the summary line on stderr, the default root of the CI
// formats' relative paths, SARIF's rules and the fix-its written or applied
// (private to lib/Driver).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_DRIVER_RUNOUTPUT_H
#define CUDA_BANK_LINT_LIB_DRIVER_RUNOUTPUT_H

#include "cuda-bank-lint/Driver/Analyzer.h"
#include "cuda-bank-lint/Report/Finding.h"
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cbl {

/// --version: the tool, LLVM/Clang and the isl actually linked (self-tested).
void printVersion(llvm::raw_ostream &OS);

/// "3 files analysed, ..., 2 warnings, 0 errors in 1.20 s" on stderr, then
/// per file the kernels whose shared memory was not modelled (unmodelledText).
/// NotSource: files met in directories that are not source, skipped;
/// HiddenRemarks: remarks not shown (--remarks shows them); Strict: the
/// kernels not modelled are errors, counted as such.
void printSummary(const AnalysisOutcome &Result, size_t Files, size_t NotSource,
                  size_t HiddenRemarks, bool Strict, double Seconds);

/// Per file, the kernels whose shared memory was not modelled, grouped by
/// reason (describeUnmodelled); errors with Strict.
std::string unmodelledText(const AnalysisOutcome &Result, bool Strict);

/// The git work tree containing the current directory, else the directory.
std::string defaultSourceRoot();

/// Every name a finding can carry (allCheckNames) that the globs enable.
std::vector<std::string> enabledNames(const std::string &Globs);

/// clang-tidy's --list-checks: every name a finding can carry that the globs
/// enable, on stdout; 1 (and "No checks enabled.") when there is none.
int listChecks(const std::string &Globs);

/// SARIF's rules: every registered check, its summary, help and page.
std::vector<RuleInfo> checkRules();

class StdinInput;
/// --export-fixes (to ExportFixes, when not empty) and --fix (Fix): false
/// when one failed. Stdin: the file read from standard input, whose
/// temporary path the exported fixes name as the user's.
bool writeFixes(const RunReport &Report, const std::vector<std::string> &Files,
                const StdinInput *Stdin, llvm::StringRef ExportFixes, bool Fix);

} // namespace cbl

#endif
