//===- CommandLine.cpp - Options, exit codes and output of the tool ---------===//
#include "cuda-bank-lint/Driver/CommandLine.h"
#include "cuda-bank-lint/Driver/Analyzer.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Driver/Config.h"
#include "cuda-bank-lint/Driver/FixApplier.h"
#include "cuda-bank-lint/Driver/Progress.h"
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/BuildConfig.h"
#include "cuda-bank-lint/Symbolic/IslContext.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

namespace cbl {

namespace {

cl::OptionCategory Category("cuda-bank-lint options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file or directory>..."),
                             cl::cat(Category));
cl::opt<std::string> BlockDimOpt("block-dim", cl::desc("Block shape X[,Y[,Z]] for every kernel"),
                                 cl::value_desc("x,y,z"), cl::cat(Category));
enum class OutputFormat { Text, Json, Sarif, Github };
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text", "compiler-style diagnostics (default)"),
               clEnumValN(OutputFormat::Json, "json", "access records and findings (docs/json-schema.md)"),
               clEnumValN(OutputFormat::Sarif, "sarif", "SARIF 2.1.0 (GitHub code scanning)"),
               clEnumValN(OutputFormat::Github, "github", "GitHub workflow annotations")),
    cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory with compile_commands.json (default: "
                                             "searched above the first input, also in build/, "
                                             "out/, cmake-build-*/, _build/)"),
                               cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<std::string> ConfigText("config", cl::desc("Configuration as inline YAML, e.g. "
                                                   "\"{Checks: 'cuda-*', MinConflictDegree: 4}\""),
                                cl::cat(Category));
cl::opt<std::string> ConfigFile("config-file",
                                cl::desc("Configuration file (default: the nearest "
                                         ".cuda-bank-lint.yaml above the first input)"),
                                cl::cat(Category));
cl::opt<bool> DumpConfig("dump-config", cl::desc("Print the effective configuration and exit"),
                         cl::cat(Category));
cl::opt<std::string> HeaderFilter("header-filter",
                                  cl::desc("Regex: findings in files other than the analysed one "
                                           "are shown only if their path matches (default: all)"),
                                  cl::cat(Category));
cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                      cl::desc("Globs of checks whose findings are errors (exit 1)"),
                                      cl::cat(Category));
cl::opt<std::string> FailOn("fail-on",
                            cl::desc("Exit 1 when a finding is at least this severe: warning or "
                                     "error (for pre-commit and CI)"),
                            cl::cat(Category));
cl::opt<std::string> ExportFixes("export-fixes",
                                 cl::desc("Write fix-its as YAML for clang-apply-replacements"),
                                 cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the fix-its in place"), cl::cat(Category));
cl::opt<std::string> SourceRoot("source-root",
                                cl::desc("Root for the relative paths of --format=sarif and "
                                         "github (default: the git work tree, else the current "
                                         "directory)"),
                                cl::cat(Category));
cl::alias SarifRoot("sarif-root", cl::desc("Alias for --source-root"), cl::aliasopt(SourceRoot),
                    cl::cat(Category));
cl::opt<unsigned> ProgressDelayMs("progress-delay-ms", cl::init(1000), cl::Hidden,
                                  cl::desc("Show progress on a terminal after this long"),
                                  cl::cat(Category));
cl::opt<bool> Explain("explain",
                      cl::desc("Print, for every access, its verdict and the lane -> (address, "
                               "bank, word) table of the worst warp"),
                      cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path", cl::desc("CUDA toolkit root (default /usr/local/cuda)"),
                              cl::cat(Category));
cl::opt<std::string> CudaModeOpt(
    "cuda-mode",
    cl::desc("auto (default): the toolkit's headers if installed, else the built-in prelude; "
             "headers; prelude"),
    cl::init("auto"), cl::cat(Category));
cl::opt<std::string> Arch("arch",
                          cl::desc("Bank rules: sm_70 and newer (default, measured on H100), "
                                   "sm_3x-8byte or sm_1x (from the CUDA literature, unmeasured)"),
                          cl::init("sm_90"), cl::cat(Category));
cl::opt<std::string> Checks("checks", cl::desc("Comma-separated globs of checks to run"),
                            cl::init("cuda-*"), cl::cat(Category));
cl::opt<unsigned> MinDegree("min-conflict-degree",
                            cl::desc("Report only conflicts of at least this degree (default 2)"),
                            cl::init(2), cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Files analysed in parallel (default: all cores)"),
                       cl::init(0), cl::cat(Category));
cl::list<std::string> ExtraArg("extra-arg", cl::desc("Compiler flag to append"),
                               cl::cat(Category));
cl::list<std::string> ExtraArgBefore("extra-arg-before", cl::desc("Compiler flag to prepend"),
                                     cl::cat(Category));
cl::opt<bool> ListChecks("list-checks", cl::desc("List the checks and exit"), cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Report findings inside system headers (libraries such as "
                                     "CUB) where they are, instead of at the call from your code"),
                            cl::cat(Category));
cl::opt<bool> Verbose("verbose", cl::desc("Explain what was skipped and why"), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("No summary on stderr"), cl::cat(Category));

void printVersion(raw_ostream &OS) {
  OS << "cuda-bank-lint " << CBL_VERSION << "\n";
  OS << "  LLVM/Clang " << CBL_LLVM_VERSION << "\n";
  IslContext Isl;
  long N = Isl.selfTest();
  OS << "  isl " << islRuntimeVersion() << " (built against isl " << CBL_ISL_BUILD_VERSION
     << (N == 32 ? ", self-test passed" : ", self-test FAILED") << ")\n";
  OS << "  bank model: sm_70+ (32 banks x 4 bytes), reproduces 2150 H100 measurements\n";
}

int usageError(const std::string &Message) {
  errs() << "cuda-bank-lint: error: " << Message << "\n";
  return 2;
}

/// The git work tree containing the current directory, else the directory.
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

std::vector<RuleInfo> rules() {
  std::vector<RuleInfo> Rules;
  for (const CheckInfo &C : registeredChecks())
    Rules.push_back({C.Name, C.Summary, C.Help, C.Help, C.DefaultSeverity,
                     CBL_DOCS_URL "/checks/" + C.Name.substr(C.Name.find('-') + 1) + ".md"});
  return Rules;
}

} // namespace

int runTool(int Argc, const char **Argv) {
  sys::PrintStackTraceOnErrorSignal(Argv[0]);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(Category);
  // Everything after "--" is compiler flags, as for clang-tidy.
  std::string DbError;
  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, DbError);
  if (!cl::ParseCommandLineOptions(Argc, Argv,
                                   "cuda-bank-lint: exact shared-memory bank conflicts and "
                                   "barrier divergence in CUDA source\n",
                                   &errs()))
    return 2;

  // The configuration; command-line options override it.
  std::string FirstInput = Inputs.empty() ? std::string() : Inputs.front();
  std::string ConfigError;
  std::optional<Config> Conf = loadConfig(FirstInput, ConfigError);
  if (!Conf) {
    errs() << ConfigError;
    return 2;
  }
  if (Checks.getNumOccurrences())
    Conf->Checks = Checks;
  if (WarningsAsErrors.getNumOccurrences())
    Conf->WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences())
    Conf->HeaderFilterRegex = HeaderFilter;
  if (SystemHeaders.getNumOccurrences())
    Conf->SystemHeaders = SystemHeaders;
  if (Arch.getNumOccurrences())
    Conf->Arch = Arch;
  if (MinDegree.getNumOccurrences())
    Conf->MinConflictDegree = MinDegree;
  Conf->ExtraArgs.insert(Conf->ExtraArgs.end(), ExtraArg.begin(), ExtraArg.end());
  Conf->ExtraArgsBefore.insert(Conf->ExtraArgsBefore.end(), ExtraArgBefore.begin(),
                               ExtraArgBefore.end());
  std::string CheckGlobs = Conf->Checks.value_or("cuda-*");
  if (DumpConfig) {
    outs() << dumpConfig(*Conf);
    return 0;
  }
  if (ListChecks) {
    outs() << "Enabled checks:\n";
    for (const CheckInfo &C : registeredChecks())
      if (checkEnabled(C.Name, CheckGlobs))
        outs() << "    " << C.Name << "  " << C.Summary << "\n";
    return 0;
  }
  if (Inputs.empty())
    return usageError("no input files (see --help)");

  AnalyzerOptions Opts;
  CudaMode Mode = CudaMode::Auto;
  if (CudaModeOpt == "headers")
    Mode = CudaMode::Headers;
  else if (CudaModeOpt == "prelude")
    Mode = CudaMode::Prelude;
  else if (CudaModeOpt != "auto")
    return usageError("--cuda-mode must be auto, headers or prelude, not '" + CudaModeOpt + "'");
  std::string CudaError;
  Opts.Cuda = resolveCudaSetup(Mode, CudaPath, CudaError);
  if (!CudaError.empty())
    return usageError(CudaError);
  std::string ArchName = Conf->Arch.value_or("sm_90");
  auto BankArchSel = bankArchFromName(ArchName);
  if (!BankArchSel)
    return usageError("unknown --arch '" + ArchName + "' (expected sm_XX or sm_3x-8byte)");
  Opts.Checks.Arch = *BankArchSel;
  if (Conf->Arch)
    Opts.Cuda.GpuArch = clampGpuArch(ArchName);
  Opts.Checks.MinConflictDegree = Conf->MinConflictDegree.value_or(2);
  Opts.Checks.Explain = Explain;
  Opts.Checks.Values = Conf->CheckOptions;
  Opts.CheckGlobs = CheckGlobs;
  Opts.BlockDimRules = Conf->BlockDim;
  Opts.Model.LaunchArguments = Conf->LaunchArguments.value_or(true);
  Opts.Checks.SystemHeaders = Conf->SystemHeaders.value_or(false);
  if (Conf->HeaderFilterRegex) {
    std::string Why;
    if (!Conf->HeaderFilterRegex->empty() && !Regex(*Conf->HeaderFilterRegex).isValid(Why))
      return usageError("invalid --header-filter '" + *Conf->HeaderFilterRegex + "': " + Why);
    Opts.HeaderFilter = Conf->HeaderFilterRegex;
  }
  if (!BlockDimOpt.empty()) {
    Opts.BlockDim = parseBlockDim(BlockDimOpt);
    if (!Opts.BlockDim)
      return usageError("--block-dim expects X[,Y[,Z]] with at most 1024 threads, got '" +
                        BlockDimOpt + "'");
  }
  std::optional<Severity> FailLevel;
  if (!FailOn.empty()) {
    if (FailOn == "warning")
      FailLevel = Severity::Warning;
    else if (FailOn == "error")
      FailLevel = Severity::Error;
    else if (FailOn != "never")
      return usageError("--fail-on expects warning, error or never, not '" + FailOn + "'");
  }
  Opts.ExtraArgs = Conf->ExtraArgs;
  Opts.ExtraArgsBefore = Conf->ExtraArgsBefore;
  Opts.Jobs = Jobs;
  Opts.Verbose = Verbose;

  auto Start = std::chrono::steady_clock::now();
  std::string InputErrors;
  std::vector<std::string> Files = expandInputs(
      std::vector<std::string>(Inputs.begin(), Inputs.end()), InputErrors);
  if (!InputErrors.empty()) {
    errs() << InputErrors;
    return 2;
  }
  std::string LoadError;
  std::unique_ptr<CompileCommands> Database =
      CompileCommands::load(BuildPath, FirstInput, std::move(Fixed), LoadError);
  if (!Database)
    return usageError(LoadError);
  if (Verbose && !Database->databasePath().empty())
    errs() << "cuda-bank-lint: note: using compilation database '" << Database->databasePath()
           << "'\n";
  if (Verbose)
    for (const std::string &Src : Conf->Sources)
      errs() << "cuda-bank-lint: note: using configuration '" << Src << "'\n";

  Progress Bar(Files.size(), !Quiet && Progress::interactive(),
               std::chrono::milliseconds(ProgressDelayMs));
  Opts.ProgressBar = &Bar;
  AnalysisOutcome Out = analyseFiles(Files, Database.get(), Opts);
  // WarningsAsErrors promotes findings of the matching checks.
  unsigned Promoted = 0;
  if (Conf->WarningsAsErrors && !Conf->WarningsAsErrors->empty())
    for (Finding &F : Out.Report.Findings)
      if (F.Level == Severity::Warning && checkEnabled(F.Check, *Conf->WarningsAsErrors)) {
        F.Level = Severity::Error;
        ++Promoted;
      }
  sortReport(Out.Report);
  errs() << Out.Messages;
  std::string Root = SourceRoot.empty() ? defaultSourceRoot() : std::string(SourceRoot);
  if (Format == OutputFormat::Json) {
    printJson(Out.Report, outs());
  } else if (Format == OutputFormat::Sarif) {
    printSarif(Out.Report, rules(), Root, outs());
  } else if (Format == OutputFormat::Github) {
    printGithub(Out.Report, Root, outs());
  } else {
    TextOptions T;
    T.Explain = Explain;
    T.Color = outs().has_colors();
    printText(Out.Report, outs(), T);
  }
  outs().flush();
  bool Failed = Out.HadErrors;
  if (!ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_Text);
    if (EC) {
      errs() << "cuda-bank-lint: error: cannot write '" << ExportFixes << "': " << EC.message()
             << "\n";
      Failed = true;
    } else {
      SmallString<256> Cwd;
      sys::fs::current_path(Cwd);
      exportFixes(Out.Report, Files.size() == 1 ? Files.front() : "", std::string(Cwd), OS);
    }
  }
  if (Fix) {
    FixOutcome FO = applyFixes(Out.Report);
    errs() << FO.Messages;
    if (FO.Failed)
      Failed = true;
    else if (FO.Applied)
      errs() << formatv("cuda-bank-lint: applied {0} fix-it{1} to {2} file{3}\n", FO.Applied,
                        FO.Applied == 1 ? "" : "s", FO.Files, FO.Files == 1 ? "" : "s");
  }
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  size_t Warnings = 0, ErrorFindings = 0;
  for (const Finding &F : Out.Report.Findings) {
    if (F.Level == Severity::Error)
      ++ErrorFindings;
    else if (F.Level == Severity::Warning)
      ++Warnings;
  }
  size_t SkippedKernels = 0;
  for (const UnitStatus &U : Out.Report.Units)
    for (const SkippedFunction &S : U.Skipped)
      SkippedKernels += S.What == SkippedFunction::Kind::Kernel;
  size_t Errors = Out.Report.Errors + SkippedKernels + ErrorFindings;
  if (!Quiet && (Format == OutputFormat::Text || Format == OutputFormat::Github)) {
    std::string Partly;
    if (Out.Report.PartlyAnalysed || Out.Report.Errors)
      Partly = formatv(" ({0} partly, {1} not at all)", Out.Report.PartlyAnalysed,
                       Out.Report.Errors).str();
    errs() << formatv("{0} file{1} analysed{2}, {3}, {4} warning{5}, {6} error{7} in {8:f2} s\n",
                      Files.size(), Files.size() == 1 ? "" : "s", Partly,
                      accessSummary(Out.Report), Warnings, Warnings == 1 ? "" : "s", Errors,
                      Errors == 1 ? "" : "s", Seconds);
  }
  if (Failed)
    return 2;
  bool FailByLevel =
      FailLevel && std::any_of(Out.Report.Findings.begin(), Out.Report.Findings.end(),
                               [&](const Finding &F) { return F.Level >= *FailLevel; });
  return Promoted || FailByLevel ? 1 : 0;
}

} // namespace cbl
