//===- ConfigOptions.cpp - The configuration and the options that change it -===//
//
// The options that set what .cuda-bank-lint.yaml sets (checks, filters,
// Arch, ...), how the command line applies on top of the configuration, and
// the modes that only read it (--list-checks, --dump-config,
// --verify-config). CommandLine.cpp has the options of a run and its output.
//
//===----------------------------------------------------------------------===//
#include "ConfigOptions.h"
#include "RunOutput.h"
#include "cuda-bank-lint/Driver/Config.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cbl {

cl::OptionCategory &toolCategory() {
  static cl::OptionCategory Category("cuda-bank-lint options");
  return Category;
}

namespace {

cl::opt<std::string> ConfigText("config", cl::desc("Configuration as inline YAML, e.g. "
                                                   "\"{Checks: 'cuda-*', MinConflictDegree: 4}\""),
                                cl::cat(toolCategory()));
cl::opt<std::string> ConfigFile("config-file",
                                cl::desc("Configuration file (default: the nearest "
                                         ".cuda-bank-lint.yaml above the first input)"),
                                cl::cat(toolCategory()));
cl::opt<bool> DumpConfig("dump-config", cl::desc("Print the effective configuration and exit"),
                         cl::cat(toolCategory()));
cl::opt<bool> VerifyConfig("verify-config",
                           cl::desc("Check the configuration and the check globs without "
                                    "analysing anything (exit 1 on errors)"),
                           cl::cat(toolCategory()));
cl::opt<std::string> HeaderFilter("header-filter",
                                  cl::desc("Regex: findings in files other than the analysed one "
                                           "are shown only if their path matches (default: all)"),
                                  cl::cat(toolCategory()));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc("Regex: findings in files other than the analysed one are not shown if their path "
             "matches (applied with --header-filter)"),
    cl::cat(toolCategory()));
cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                      cl::desc("Globs of checks whose findings are errors (exit 1)"),
                                      cl::cat(toolCategory()));
cl::opt<std::string> Arch("arch",
                          cl::desc("Bank rules: sm_XX (default sm_90; sm_50 and newer measured "
                                   "on H100), sm_3x-8byte or sm_1x (from the CUDA literature, "
                                   "unmeasured)"),
                          cl::init(DefaultArch), cl::cat(toolCategory()));
cl::opt<std::string> Checks("checks",
                            cl::desc("Comma-separated globs of checks, appended to cuda-* "
                                     "and the configuration's Checks ('-*,...' to choose)"),
                            cl::cat(toolCategory()));
cl::opt<unsigned> MinDegree("min-conflict-degree",
                            cl::desc("Report only conflicts of at least this degree (2 to 32, "
                                     "default 2)"),
                            cl::init(DefaultMinConflictDegree), cl::cat(toolCategory()));
cl::list<std::string> ExtraArg("extra-arg", cl::desc("Compiler flag to append"),
                               cl::cat(toolCategory()));
cl::list<std::string> ExtraArgBefore("extra-arg-before", cl::desc("Compiler flag to prepend"),
                                     cl::cat(toolCategory()));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the enabled check names and exit (with --checks='cuda-*': "
                                  "every name a finding can carry)"),
                         cl::cat(toolCategory()));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Report findings inside system headers (libraries such as "
                                     "CUB) where they are, instead of at the call from your code"),
                            cl::cat(toolCategory()));
cl::opt<bool> Strict("strict",
                     cl::desc("Shared memory the tool could not model is an error (exit 1): "
                              "every kernel that has some is named"),
                     cl::cat(toolCategory()));

cl::opt<bool> Remarks("remarks",
                      cl::desc("Show remarks (possible conflicts, early exits) in text, GitHub "
                               "and SARIF output: --remarks or --remarks=false (default: off; "
                               "JSON always has them, the language server shows them)"),
                      cl::cat(toolCategory()));

} // namespace

/// --config, --config-file or the nearest .cuda-bank-lint.yaml.
std::optional<Config> loadConfig(const std::string &FirstInput, std::string &Error) {
  if (!ConfigText.empty() && !ConfigFile.empty()) {
    Error = "cuda-bank-lint: error: --config and --config-file cannot be combined\n";
    return std::nullopt;
  }
  std::string Start = FirstInput.empty() ? "." : FirstInput;
  if (ConfigText.empty() && ConfigFile.empty())
    return discoverConfig(Start, Error);
  std::string Text = ConfigText, Name = "<--config>";
  if (!ConfigFile.empty()) {
    auto Buf = MemoryBuffer::getFile(ConfigFile, /*IsText=*/true);
    if (!Buf) {
      Error = "cuda-bank-lint: error: cannot read config file '" + ConfigFile +
              "': " + Buf.getError().message() + "\n";
      return std::nullopt;
    }
    Text = (*Buf)->getBuffer().str();
    Name = ConfigFile;
  }
  auto C = parseConfig(Text, Name, Error);
  if (!C || !C->InheritParentConfig)
    return C;
  std::optional<Config> Parent;
  if (!ConfigFile.empty()) {
    SmallString<256> Dir(ConfigFile);
    sys::fs::make_absolute(Dir);
    sys::path::remove_filename(Dir);
    Parent = discoverParentConfig(std::string(Dir) + "/.", Error);
  } else {
    Parent = discoverConfig(Start, Error);
  }
  if (!Parent)
    return std::nullopt;
  return mergeConfig(*Parent, *C);
}

/// The command line on top of the configuration: --checks is appended to
/// Checks (clang-tidy), the others override. What is invalid, or "".
std::string applyCommandLine(Config &C) {
  auto globs = [](cl::opt<std::string> &Opt, std::optional<std::string> &Slot, bool Append) {
    if (!Opt.getNumOccurrences())
      return std::string();
    if (std::string Why = checkGlobsError(Opt); !Why.empty())
      return "invalid --" + Opt.ArgStr.str() + ": " + Why;
    Slot = Append ? appendGlobs(Slot, Opt) : std::string(Opt);
    return std::string();
  };
  auto regex = [](cl::opt<std::string> &Opt, std::optional<std::string> &Slot) {
    if (!Opt.getNumOccurrences())
      return std::string();
    if (std::string Why = regexError(Opt); !Why.empty())
      return "invalid --" + Opt.ArgStr.str() + ": " + Why;
    Slot = Opt;
    return std::string();
  };
  for (std::string Why : {globs(Checks, C.Checks, true), globs(WarningsAsErrors, C.WarningsAsErrors, false),
                          regex(HeaderFilter, C.HeaderFilterRegex),
                          regex(ExcludeHeaderFilter, C.ExcludeHeaderFilterRegex)})
    if (!Why.empty())
      return Why;
  if (SystemHeaders.getNumOccurrences())
    C.SystemHeaders = SystemHeaders;
  if (Strict.getNumOccurrences())
    C.Strict = Strict;
  if (Remarks.getNumOccurrences())
    C.Remarks = Remarks;
  if (Arch.getNumOccurrences()) {
    if (std::string Why = archError(Arch); !Why.empty())
      return "invalid --arch: " + Why;
    C.Arch = Arch;
  }
  if (MinDegree.getNumOccurrences()) {
    unsigned N = 0;
    if (std::string Why = minConflictDegreeError(std::to_string(MinDegree), N); !Why.empty())
      return "invalid --min-conflict-degree: " + Why;
    C.MinConflictDegree = N;
  }
  C.ExtraArgs.insert(C.ExtraArgs.end(), ExtraArg.begin(), ExtraArg.end());
  C.ExtraArgsBefore.insert(C.ExtraArgsBefore.end(), ExtraArgBefore.begin(), ExtraArgBefore.end());
  return "";
}

namespace {

/// clang-tidy's --verify-config, once the configuration has parsed: the check
/// globs (of the files and of --checks) that name no check.
int verifyConfig(const Config &C) {
  bool Any = !C.Unverified.empty();
  for (const std::string &W : C.Unverified)
    errs() << W;
  if (Checks.getNumOccurrences())
    for (const std::string &W : unknownCheckGlobs(Checks)) {
      errs() << "command-line option '--checks': warning: " << W << " [-verify-config]\n";
      Any = true;
    }
  if (Any)
    return 1;
  outs() << "No config errors detected.\n";
  return 0;
}
} // namespace

int usageError(const std::string &Message) {
  errs() << "cuda-bank-lint: error: " << Message << "\n";
  return 2;
}

std::optional<int> configure(const std::string &FirstInput, std::optional<Config> &Conf) {
  // --verify-config reports with exit code 1, as clang-tidy; otherwise bad
  // options or configs are usage errors (2).
  std::string ConfigError;
  Conf = loadConfig(FirstInput, ConfigError);
  if (!Conf) {
    errs() << ConfigError;
    return VerifyConfig ? 1 : 2;
  }
  if (std::string Why = applyCommandLine(*Conf); !Why.empty())
    return VerifyConfig ? (usageError(Why), 1) : usageError(Why);
  std::string CheckGlobs = effectiveChecks(*Conf);
  if (ListChecks)
    return listChecks(CheckGlobs);
  if (DumpConfig) {
    outs() << dumpConfig(*Conf);
    return 0;
  }
  if (VerifyConfig)
    return verifyConfig(*Conf);
  if (enabledNames(CheckGlobs).empty()) {
    errs() << "Error: no checks enabled.\n";
    cl::PrintHelpMessage(/*Hidden=*/false, /*Categorized=*/true);
    return 1;
  }
  return std::nullopt;
}

} // namespace cbl
