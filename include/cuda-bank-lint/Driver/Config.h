//===- Config.h - .cuda-bank-lint.yaml, --config and --config-file --------===//
//
// The configuration file, clang-tidy style: the nearest `.cuda-bank-lint.yaml`
// in the parent directories of the first input (merged with its parents'
// when it says `InheritParentConfig: true`), or `--config` (inline YAML) /
// `--config-file`. Command-line options override it (--checks is appended to
// Checks, as in clang-tidy). Parsed with llvm::yaml's node API so that every
// error names the file, line, column and key; every value is validated here,
// and the command line's values go through the same validators.
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
  /// Comma-separated globs; inherited configs and --checks are appended
  /// (the last matching glob wins). See effectiveChecks.
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  std::optional<std::string> HeaderFilterRegex;
  /// Findings in headers matching it are not shown (clang-tidy 19).
  std::optional<std::string> ExcludeHeaderFilterRegex;
  std::optional<std::string> Arch;
  std::optional<unsigned> MinConflictDegree;
  std::optional<bool> LaunchArguments; ///< infer kernel parameters from the launches
  /// Report findings inside system headers where they are (clang-tidy's
  /// SystemHeaders); by default at the user's call into the library.
  std::optional<bool> SystemHeaders;
  /// Shared memory the tool could not model is an error (exit 1), for teams
  /// that enforce coverage (--strict).
  std::optional<bool> Strict;
  /// Remarks (possible conflicts, early exits) in text, GitHub and SARIF
  /// output (--remarks); unset: off there, on in the editor. JSON has them.
  std::optional<bool> Remarks;
  std::vector<BlockDimRule> BlockDim; ///< first match wins
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  std::map<std::string, std::string> CheckOptions; ///< "check.Option" -> value
  bool InheritParentConfig = false;
  std::vector<std::string> Sources; ///< files it was read from, nearest first
  /// clang-tidy's --verify-config warnings ("file:line:col: warning: unknown
  /// check 'x'; did you mean 'y' [-verify-config]"): a Checks glob that
  /// matches no check is not an error otherwise.
  std::vector<std::string> Unverified;
};

/// The defaults of the optional settings (one home: the analysis, the
/// dump and the docs use these).
constexpr const char *DefaultChecks = "cuda-*";
constexpr const char *DefaultArch = "sm_90";
constexpr unsigned DefaultMinConflictDegree = 2;
constexpr unsigned MaxConflictDegree = 32; ///< a warp has 32 lanes

/// Validators shared by the config reader and the command line. Each returns
/// an empty string when the value is valid, else what is wrong with it.
std::string checkGlobsError(const std::string &Globs);   ///< llvm::GlobPattern syntax
std::string regexError(const std::string &Regex);        ///< llvm::Regex syntax
std::string archError(const std::string &Arch);          ///< see archValues()
std::string minConflictDegreeError(const std::string &Text, unsigned &Degree);

/// What --arch and Arch accept, for messages and --help.
const char *archValues();

/// --verify-config: one message per glob of Globs that matches no check name
/// ("unknown check 'x'; did you mean 'y'" or "check glob 'x*' doesn't match
/// any known check"), as clang-tidy words them.
std::vector<std::string> unknownCheckGlobs(const std::string &Globs);

/// Globs with More appended, comma-separated (clang-tidy's list merging).
std::string appendGlobs(const std::optional<std::string> &Globs, const std::string &More);

/// The globs a run uses: DefaultChecks, then Checks (the configuration's,
/// then --checks), as clang-tidy appends to its defaults ('-*,...' chooses).
std::string effectiveChecks(const Config &C);

/// Parses one YAML document; Name is used in messages. On error returns
/// nullopt and sets Error to clang-style "file:line:col: error: ..." text.
std::optional<Config> parseConfig(const std::string &Text, const std::string &Name,
                                  std::string &Error);

/// Child settings override Parent's; lists are concatenated (child rules
/// first for BlockDim, parent arguments first for ExtraArgs, parent globs
/// first for Checks).
Config mergeConfig(const Config &Parent, const Config &Child);

/// The nearest .cuda-bank-lint.yaml above Path (a file or directory), with
/// its InheritParentConfig chain resolved. An empty Config if there is none.
std::optional<Config> discoverConfig(const std::string &Path, std::string &Error);

/// Like discoverConfig, but starting from the parent of Dir (for
/// InheritParentConfig in --config/--config-file).
std::optional<Config> discoverParentConfig(const std::string &Dir, std::string &Error);

/// The effective configuration (defaults filled in) as YAML written by
/// llvm::yaml::Output, after "# from <file>" comment lines; parseConfig reads
/// it back.
std::string dumpConfig(const Config &C);

} // namespace cbl

#endif
