//===- RunOutput.h - What the command line prints besides the report -------===//
//
// The version text, the summary line on stderr and the default root of the
// CI formats' relative paths (private to lib/Driver).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_DRIVER_RUNOUTPUT_H
#define CUDA_BANK_LINT_LIB_DRIVER_RUNOUTPUT_H

#include "cuda-bank-lint/Report/Finding.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cbl {

/// --version: the tool, LLVM/Clang and the isl actually linked (self-tested).
void printVersion(llvm::raw_ostream &OS);

/// "3 files analysed, ..., 2 warnings, 0 errors in 1.20 s" on stderr.
void printSummary(const RunReport &Report, size_t Files, double Seconds);

/// The git work tree containing the current directory, else the directory.
std::string defaultSourceRoot();

/// Every name a finding can carry (allCheckNames) that the globs enable.
std::vector<std::string> enabledNames(const std::string &Globs);

/// clang-tidy's --list-checks: every name a finding can carry that the globs
/// enable, on stdout; 1 (and "No checks enabled.") when there is none.
int listChecks(const std::string &Globs);

} // namespace cbl

#endif
