//===- ConfigOptions.h - The configuration as the command line changes it -===//
//
// The options category, the configuration of a run (the nearest
// .cuda-bank-lint.yaml, --config or --config-file, with the command line's
// options on top) and the modes that only read it (private to lib/Driver).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_DRIVER_CONFIGOPTIONS_H
#define CUDA_BANK_LINT_LIB_DRIVER_CONFIGOPTIONS_H

#include "cuda-bank-lint/Driver/Config.h"

#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace cbl {

/// The category of every option of the tool (--help shows only these).
llvm::cl::OptionCategory &toolCategory();

/// "cuda-bank-lint: error: Message" on stderr; 2, the exit code of usage errors.
int usageError(const std::string &Message);

/// --config, --config-file or the nearest .cuda-bank-lint.yaml above
/// FirstInput; on failure, the message to print in Error.
std::optional<Config> loadConfig(const std::string &FirstInput, std::string &Error);

/// The command line on top of the configuration: --checks is appended to
/// Checks (clang-tidy), the others override. What is invalid, or "".
std::string applyCommandLine(Config &C);

/// The configuration of a run on FirstInput, in Conf; an exit code when it
/// is invalid, when no check is enabled, or when a mode that only reads it
/// ran (--list-checks, --dump-config, --verify-config).
std::optional<int> configure(const std::string &FirstInput, std::optional<Config> &Conf);

} // namespace cbl

#endif
