//===- ServerSetup.h - What `cuda-bank-lint --lsp` hands the server -------===//
//
// The command line parses the options once (lib/Driver/CommandLine.cpp);
// with --lsp it hands the language server (lib/Server, which depends on the
// driver, not the other way round) what it needs to analyse any file as
// `cuda-bank-lint [options] FILE` would: the analysis options of the file's
// configuration with the command line applied, and where the flags come from.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_SERVERSETUP_H
#define CUDA_BANK_LINT_DRIVER_SERVERSETUP_H

#include "cuda-bank-lint/Driver/Analyzer.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// The options of a run on one file.
struct FileSettings {
  AnalyzerOptions Analysis;
  std::string WarningsAsErrors;         ///< globs: these findings are errors
  /// Remarks shown: on unless the configuration or --remarks=false says not.
  bool Remarks = true;
  std::vector<std::string> ConfigFiles; ///< the configuration files read, nearest first
  /// The configuration (or an option) is invalid: what is wrong, as the
  /// command line prints it; nothing else is set.
  std::string Error;
};

struct ServerSetup {
  /// The settings for File: its .cuda-bank-lint.yaml (or --config,
  /// --config-file) with the command line's options applied.
  std::function<FileSettings(const std::string &File)> SettingsFor;
  std::string BuildPath;                          ///< -p, or empty: searched
  std::optional<std::vector<std::string>> FixedFlags; ///< compiler flags after "--"
};

/// The language server's main (lib/Server), which the tool hands to runTool.
using LanguageServerMain = int (*)(const ServerSetup &Setup);

} // namespace cbl

#endif
