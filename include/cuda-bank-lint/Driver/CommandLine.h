//===- CommandLine.h - The cuda-bank-lint command -------------------------===//
//
// Parses the command line (llvm::cl, clang-tidy conventions; flags after "--"
// are compiler flags), runs the analysis and prints the report. Exit codes:
// 0 no findings or warnings only, 1 a finding promoted to an error, 2 usage,
// input or parse errors.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_COMMANDLINE_H
#define CUDA_BANK_LINT_DRIVER_COMMANDLINE_H

namespace cbl {

int runTool(int Argc, const char **Argv);

} // namespace cbl

#endif
