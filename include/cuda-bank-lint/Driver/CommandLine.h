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

#include "cuda-bank-lint/Driver/ServerSetup.h"

namespace cbl {

/// With --lsp, Server (the language server's main, lib/Server) runs instead
/// of an analysis of inputs; without one, --lsp is a usage error.
int runTool(int Argc, const char **Argv, LanguageServerMain Server = nullptr);

} // namespace cbl

#endif
