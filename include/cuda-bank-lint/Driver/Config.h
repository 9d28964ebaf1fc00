//===- Config.h - .cuda-bank-lint.yaml, --config and --config-file --------===//
//
// The configuration file, clang-tidy style: the nearest `.cuda-bank-lint.yaml`
// in the parent directories of the first input (merged with its parents'
// when it says `InheritParentConfig: true`), or `--config` (inline YAML) /
// `--config-file`. Command-line options override it. Parsed with llvm::yaml's
// node API so that every error names the file, line, column and key.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_CONFIG_H
#define CUDA_BANK_LINT_DRIVER_CONFIG_H

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// `BlockDim: { 'transpose*': [32, 8] }`: kernels whose name matches Glob.
struct BlockDimRule {
  std::string Glob;
  std::array<unsigned, 3> Dim{{1, 1, 1}};
  std::string Origin; ///< "file:line", for the diagnostic note
};

struct Config {
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  std::optional<std::string> HeaderFilterRegex;
  std::optional<std::string> Arch;
  std::optional<unsigned> MinConflictDegree;
  std::optional<bool> LaunchArguments; ///< infer kernel parameters from the launches
  /// Report findings inside system headers where they are (clang-tidy's
  /// SystemHeaders); by default at the user's call into the library.
  std::optional<bool> SystemHeaders;
  std::vector<BlockDimRule> BlockDim; ///< first match wins
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  std::map<std::string, std::string> CheckOptions; ///< "check.Option" -> value
  bool InheritParentConfig = false;
  std::vector<std::string> Sources; ///< files it was read from, nearest first
};

/// Parses one YAML document; Name is used in messages. On error returns
/// nullopt and sets Error to clang-style "file:line:col: error: ..." text.
std::optional<Config> parseConfig(const std::string &Text, const std::string &Name,
                                  std::string &Error);

/// Child settings override Parent's; lists are concatenated (child rules
/// first for BlockDim, parent arguments first for ExtraArgs).
Config mergeConfig(const Config &Parent, const Config &Child);

/// The nearest .cuda-bank-lint.yaml above Path (a file or directory), with
/// its InheritParentConfig chain resolved. An empty Config if there is none.
std::optional<Config> discoverConfig(const std::string &Path, std::string &Error);

/// Like discoverConfig, but starting from the parent of Dir (for
/// InheritParentConfig in --config/--config-file).
std::optional<Config> discoverParentConfig(const std::string &Dir, std::string &Error);

/// The effective configuration as YAML that parseConfig reads back.
std::string dumpConfig(const Config &C);

} // namespace cbl

#endif
