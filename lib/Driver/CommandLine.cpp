//===- CommandLine.cpp - Run options, modes, exit codes and output ----------===//
//
// The options of a run (inputs, output format, --explain, --fix, ...), the
// language server's entry and the analysis with its output; the options that
// the configuration also sets are in ConfigOptions.cpp.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Driver/CommandLine.h"
#include "ConfigOptions.h"
#include "HtmlOutput.h"
#include "RunOutput.h"
#include "cuda-bank-lint/Checks/InProgress.h"
#include "cuda-bank-lint/Symbolic/VerdictMemo.h"
#include "cuda-bank-lint/Driver/Analyzer.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Driver/Config.h"
#include "cuda-bank-lint/Driver/FindingFilters.h"
#include "cuda-bank-lint/Driver/Inputs.h"
#include "cuda-bank-lint/Driver/Progress.h"
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/BuildConfig.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace llvm;

namespace cbl {

namespace {

cl::list<std::string> Inputs(cl::Positional,
                             cl::desc("<file or directory>... ('-' reads stdin; none with -p: "
                                      "every CUDA entry of the database)"),
                             cl::cat(toolCategory()));
cl::opt<std::string> BlockDimOpt("block-dim", cl::desc("Block shape X[,Y[,Z]] for every kernel"),
                                 cl::value_desc("x,y,z"), cl::cat(toolCategory()));
cl::opt<std::string> GridDimOpt("grid-dim",
                                cl::desc("Grid shape X[,Y[,Z]] in blocks for every kernel: the barrier "
                                         "checks take blockIdx below it and gridDim as it"),
                                cl::value_desc("x,y,z"), cl::cat(toolCategory()));
enum class OutputFormat { Text, Json, Sarif, Github };
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text", "compiler-style diagnostics (default)"),
               clEnumValN(OutputFormat::Json, "json", "access records and findings (docs/json-schema.md)"),
               clEnumValN(OutputFormat::Sarif, "sarif", "SARIF 2.1.0 (GitHub code scanning)"),
               clEnumValN(OutputFormat::Github, "github", "GitHub workflow annotations")),
    cl::cat(toolCategory()));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory with compile_commands.json (default: "
                                             "searched above the first input, also in build/, "
                                             "out/, cmake-build-*/, _build/)"),
                               cl::value_desc("build-dir"), cl::cat(toolCategory()));
cl::opt<std::string> LineFilterOpt(
    "line-filter",
    cl::desc("JSON list of files and inclusive line ranges to show findings from, as "
             "clang-tidy's: '[{\"name\":\"k.cu\",\"lines\":[[1,3],[5,7]]},{\"name\":\"t.cuh\"}]'"),
    cl::cat(toolCategory()));
cl::list<std::string> Exclude("exclude",
                              cl::desc("Skip files and directories matching this glob "
                                       "(repeatable; inputs and database entries)"),
                              cl::value_desc("glob"), cl::cat(toolCategory()));
cl::opt<std::string> AssumeFilename("assume-filename",
                                    cl::desc("With '-': analyse stdin as this file (its "
                                             "directory, configuration and database entry)"),
                                    cl::value_desc("file"), cl::cat(toolCategory()));
cl::opt<std::string> FailOn("fail-on",
                            cl::desc("Exit 1 when a finding is at least this severe: warning or "
                                     "error (for pre-commit and CI)"),
                            cl::cat(toolCategory()));
cl::opt<std::string> ExportFixes("export-fixes",
                                 cl::desc("Write fix-its as YAML for clang-apply-replacements"),
                                 cl::value_desc("file"), cl::cat(toolCategory()));
cl::opt<bool> Fix("fix", cl::desc("Apply the fix-its in place"), cl::cat(toolCategory()));
cl::opt<std::string> Html("html",
                          cl::desc("Write a self-contained HTML report into this directory: "
                                   "index.html and a page per source file, with the lane -> bank "
                                   "grid of every access"),
                          cl::value_desc("dir"), cl::cat(toolCategory()));
cl::opt<std::string> SourceRoot("source-root",
                                cl::desc("Root for the relative paths of --format=sarif and "
                                         "github (default: the git work tree, else the current "
                                         "directory)"),
                                cl::cat(toolCategory()));
cl::alias SarifRoot("sarif-root", cl::desc("Alias for --source-root"), cl::aliasopt(SourceRoot),
                    cl::cat(toolCategory()));
cl::opt<unsigned> ProgressDelayMs("progress-delay-ms", cl::init(1000), cl::Hidden,
                                  cl::desc("Show progress on a terminal after this long"),
                                  cl::cat(toolCategory()));
cl::opt<bool> Explain("explain",
                      cl::desc("Print every note of each finding (by default: the one that "
                               "explains it and its fix-it), a summary of the accesses, then for "
                               "every access its verdict and the lane -> (address, bank, word) "
                               "table of the worst warp"),
                      cl::cat(toolCategory()));
cl::opt<std::string> ExplainAt("explain-at",
                               cl::desc("--explain only the accesses at FILE:LINE[:COL] (FILE "
                                        "may be a path suffix)"),
                               cl::value_desc("file:line[:col]"), cl::cat(toolCategory()));
cl::opt<std::string> ExplainFunction("explain-function",
                                     cl::desc("--explain only the accesses of the kernels or "
                                              "functions matching this glob ('reduce<*')"),
                                     cl::value_desc("glob"), cl::cat(toolCategory()));
cl::opt<std::string> ExplainArray("explain-array",
                                  cl::desc("--explain only the accesses to this __shared__ "
                                           "variable"),
                                  cl::value_desc("name"), cl::cat(toolCategory()));
cl::opt<double> Timeout("timeout",
                          cl::desc("Per file: after this many seconds, the accesses and barriers "
                                   "not yet analysed are reported with the status unknown "
                                   "(default 0: no limit)"),
                          cl::value_desc("seconds"), cl::init(0.0), cl::cat(toolCategory()));
cl::opt<bool> Unordered("unordered",
                        cl::desc("Text and GitHub output: print each file's findings as soon as "
                                 "it is done (default: as soon as it and every file before it "
                                 "are done, in input order)"),
                        cl::cat(toolCategory()));
cl::opt<std::string> DebugFailIn("debug-fail-in", cl::Hidden,
                                 cl::desc("Debugging: fail internally while analysing the "
                                          "function of this name (tests the recovery)"),
                                 cl::cat(toolCategory()));
cl::opt<std::string> DumpDeviceIR("debug-dump-device-ir", cl::Hidden,
                                  cl::desc("Debugging: append the optimised device IR of each "
                                           "file to this file"),
                                  cl::value_desc("file"), cl::cat(toolCategory()));
cl::opt<unsigned> DevicePartInstructions(
    "debug-device-part-instructions", cl::Hidden, cl::init(ModelOptions().DevicePartInstructions),
    cl::desc("Debugging: the least instructions a group of kernels whose device code is optimised "
             "on its own holds"),
    cl::cat(toolCategory()));
cl::opt<unsigned> DeviceMaxParts("debug-device-max-parts", cl::Hidden, cl::init(ModelOptions().DeviceMaxParts),
                                 cl::desc("Debugging: the most groups of kernels whose device code is "
                                          "optimised on its own"),
                                 cl::cat(toolCategory()));
cl::opt<bool> DebugNoMemo("debug-no-verdict-memo", cl::Hidden,
                          cl::desc("Benchmarks: analyse every access anew (no verdict memo)"),
                          cl::cat(toolCategory()));
cl::opt<bool> DebugModelMemo("debug-device-model-memo", cl::Hidden,
                             cl::desc("Testing: analyse each unit's device code twice, the second time "
                                      "keeping every other kernel's model from the first (as the "
                                      "language server keeps them; the output must not change)"),
                             cl::cat(toolCategory()));
/// The hidden debugging and benchmark options, for the command line and the
/// server alike.
void applyDebugOptions() {
  if (DebugModelMemo)
    DeviceModelMemo::analyseTwiceForTesting();
  if (!DebugFailIn.empty())
    FunctionInProgress::failOnPurposeIn(DebugFailIn);
  if (DebugNoMemo)
    VerdictMemo::disableForMeasurement();
}
cl::opt<std::string> CudaPath("cuda-path", cl::desc("CUDA toolkit root (default /usr/local/cuda)"),
                              cl::cat(toolCategory()));
cl::opt<std::string> CudaModeOpt(
    "cuda-mode",
    cl::desc("auto (default): the toolkit's headers if installed, else the built-in prelude; "
             "headers; prelude"),
    cl::init("auto"), cl::cat(toolCategory()));
cl::opt<unsigned> Jobs("j", cl::desc("Threads (default: all cores): files in parallel, and a file's "
                                     "accesses on the threads the files leave (one file: all)"),
                       cl::init(0), cl::cat(toolCategory()));
cl::opt<bool> Verbose("verbose", cl::desc("Explain what was skipped and why"), cl::cat(toolCategory()));
cl::opt<bool> Quiet("quiet", cl::desc("No summary on stderr"), cl::cat(toolCategory()));
cl::opt<bool> Lsp("lsp",
                  cl::desc("Run as a language server: LSP 3.17 on stdin and stdout, for editors "
                           "(docs/editors.md); the other options apply to every file it analyses"),
                  cl::cat(toolCategory()));
cl::opt<bool> UseColor("use-color",
                       cl::desc("Colours in text output: --use-color or --use-color=false "
                                "(default: when stdout is a terminal)"),
                       cl::cat(toolCategory()));

/// The analysis options of the configuration and the command line, or what
/// is invalid.
std::string analyzerOptions(const Config &Conf, AnalyzerOptions &Opts) {
  CudaMode Mode = CudaMode::Auto;
  if (CudaModeOpt == "headers")
    Mode = CudaMode::Headers;
  else if (CudaModeOpt == "prelude")
    Mode = CudaMode::Prelude;
  else if (CudaModeOpt != "auto")
    return "--cuda-mode must be auto, headers or prelude, not '" + CudaModeOpt + "'";
  std::string CudaError;
  Opts.Cuda = resolveCudaSetup(Mode, CudaPath, CudaError);
  if (!CudaError.empty())
    return CudaError;
  std::string ArchName = Conf.Arch.value_or(DefaultArch);
  Opts.Checks.Arch = bankArchFromName(ArchName).value_or(BankArch::Sm70Plus); // validated
  if (Conf.Arch)
    Opts.Cuda.GpuArch = clampGpuArch(ArchName);
  Opts.Checks.MinConflictDegree = Conf.MinConflictDegree.value_or(DefaultMinConflictDegree);
  Opts.Checks.Explain = Explain || !Html.empty(); // the lane grids
  Opts.Checks.Values = Conf.CheckOptions;
  Opts.Checks.SystemHeaders = Conf.SystemHeaders.value_or(false);
  Opts.CheckGlobs = globsToRun(effectiveChecks(Conf));
  Opts.BlockDimRules = Conf.BlockDim;
  Opts.Model.LaunchArguments = Conf.LaunchArguments.value_or(true);
  Opts.Model.DumpDeviceIR = DumpDeviceIR;
  Opts.Model.DevicePartInstructions = DevicePartInstructions;
  Opts.Model.DeviceMaxParts = std::max(1u, unsigned(DeviceMaxParts));
  Opts.HeaderFilter = Conf.HeaderFilterRegex;
  if (!GridDimOpt.empty()) {
    Opts.GridDim = parseGridDim(GridDimOpt);
    if (!Opts.GridDim)
      return "--grid-dim expects X[,Y[,Z]] blocks (x below 2^31, y and z below 65536), got '" +
             GridDimOpt + "'";
  }
  if (!BlockDimOpt.empty()) {
    Opts.BlockDim = parseBlockDim(BlockDimOpt);
    if (!Opts.BlockDim)
      return "--block-dim expects X[,Y[,Z]] with at most 1024 threads, got '" + BlockDimOpt + "'";
  }
  Opts.ExtraArgs = Conf.ExtraArgs;
  Opts.ExtraArgsBefore = Conf.ExtraArgsBefore;
  Opts.Jobs = Jobs;
  if (Timeout < 0)
    return "--timeout expects a number of seconds, not " + std::to_string(Timeout);
  Opts.TimeoutSeconds = Timeout;
  Opts.Verbose = Verbose;
  return "";
}

/// What the command line asks for after the analysis.
struct OutputOptions {
  std::optional<Severity> FailLevel;
  std::optional<LineFilter> Lines;
  std::optional<ExcludeFilter> Excluded;
};

std::string outputOptions(OutputOptions &O) {
  if (FailOn == "warning")
    O.FailLevel = Severity::Warning;
  else if (FailOn == "error")
    O.FailLevel = Severity::Error;
  else if (!FailOn.empty() && FailOn != "never")
    return "--fail-on expects warning, error or never, not '" + FailOn + "'";
  std::string Error;
  if (!LineFilterOpt.empty() && !(O.Lines = LineFilter::parse(LineFilterOpt, Error)))
    return "invalid --line-filter: " + Error;
  O.Excluded = ExcludeFilter::create(std::vector<std::string>(Exclude.begin(), Exclude.end()),
                                     Error);
  return O.Excluded ? "" : Error;
}

/// The files to analyse (stdin in a temporary file, directories expanded,
/// --exclude applied; with -p and no input, the database's CUDA entries) and
/// the database; an exit code when something is wrong.
int collectInputs(const ExcludeFilter &Excluded,
                  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed,
                  std::unique_ptr<StdinInput> &Stdin, std::vector<std::string> &Files,
                  std::unique_ptr<CompileCommands> &Database, size_t &NotSource) {
  std::vector<std::string> Given(Inputs.begin(), Inputs.end());
  size_t Dashes = llvm::count(Given, "-");
  if (Dashes > 1)
    return usageError("'-' (stdin) can be given only once");
  if (!AssumeFilename.empty() && !Dashes)
    return usageError("--assume-filename needs '-' (stdin) among the inputs");
  if (Dashes) {
    if (Fix)
      return usageError("--fix cannot rewrite stdin");
    std::string Error;
    if (!(Stdin = StdinInput::read(AssumeFilename, Error)))
      return usageError(Error);
    std::replace(Given.begin(), Given.end(), std::string("-"), Stdin->path());
  }
  if (Given.empty() && BuildPath.empty())
    return usageError("no input files (see --help)");
  ExpandedInputs Expanded = expandInputs(Given, Excluded);
  if (!Expanded.Errors.empty()) {
    errs() << Expanded.Errors;
    return 2;
  }
  errs() << Expanded.Notes;
  Files = std::move(Expanded.Files);
  NotSource = Expanded.NotSource.size();
  std::string LoadError;
  Database = CompileCommands::load(BuildPath, Given.empty() ? "" : Given.front(), std::move(Fixed),
                                   LoadError);
  if (!Database)
    return usageError(LoadError);
  if (!Given.empty())
    return 0;
  // Project mode, as run-clang-tidy: every CUDA entry of the database.
  if (Database->sources().empty())
    return usageError("no CUDA entries (.cu files, -x cu) in '" + Database->databasePath() + "'");
  for (const std::string &F : Database->sources())
    if (!Excluded.excluded(F))
      Files.push_back(displayPath(F));
  return 0;
}

/// --explain and the filters that narrow it.
std::string textOptions(TextOptions &T) {
  T.Explain = Explain || !ExplainAt.empty() || !ExplainFunction.empty() || !ExplainArray.empty();
  T.AllNotes = T.Explain;
  if (!ExplainAt.empty() && !T.Only.parseLocation(ExplainAt))
    return "--explain-at expects FILE:LINE[:COL], not '" + ExplainAt + "'";
  if (!ExplainFunction.empty())
    if (auto Glob = GlobPattern::create(ExplainFunction); !Glob)
      return "invalid --explain-function '" + ExplainFunction + "': " + toString(Glob.takeError());
  T.Only.FunctionGlob = ExplainFunction;
  T.Only.Array = ExplainArray;
  T.Color = UseColor.getNumOccurrences() ? bool(UseColor) : outs().has_colors();
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd))
    T.PathRoot = std::string(Cwd);
  return "";
}

/// The report in the chosen format (text: with --explain's part or not).
std::string render(const RunReport &Report, bool WithExplain) {
  std::string Text;
  raw_string_ostream OS(Text);
  std::string Root = SourceRoot.empty() ? defaultSourceRoot() : std::string(SourceRoot);
  if (Format == OutputFormat::Json) {
    printJson(Report, OS);
  } else if (Format == OutputFormat::Sarif) {
    printSarif(Report, checkRules(), Root, OS);
  } else if (Format == OutputFormat::Github) {
    printGithub(Report, Root, OS);
  } else {
    TextOptions T;
    textOptions(T); // checked before the analysis
    T.Explain = T.Explain && WithExplain;
    OS.enable_colors(T.Color);
    printText(Report, OS, T);
  }
  return OS.str();
}

/// What is done to every report before it is shown: the filters, remarks
/// hidden (they are for the editor and JSON; CI output shows them on
/// request), warnings of the WarningsAsErrors checks promoted.
struct ShownFindings {
  FindingFilters Filters;
  bool ShowRemarks = false;
  std::string WarningsAsErrors;
  struct Counts {
    size_t HiddenRemarks = 0;
    unsigned Promoted = 0;
  };
  Counts apply(RunReport &R) const {
    Counts C;
    applyFindingFilters(R, Filters);
    size_t Before = R.Findings.size();
    if (!ShowRemarks)
      llvm::erase_if(R.Findings, [](const Finding &F) { return F.Level == Severity::Remark; });
    C.HiddenRemarks = Before - R.Findings.size();
    for (Finding &F : R.Findings)
      if (F.Level == Severity::Warning && checkEnabled(F.Check, WarningsAsErrors)) {
        F.Level = Severity::Error;
        ++C.Promoted;
      }
    return C;
  }
};

/// Everything after the options: inputs, analysis, filters, output; the
/// exit code.
int analyse(const Config &Conf, std::unique_ptr<clang::tooling::CompilationDatabase> Fixed) {
  AnalyzerOptions Opts;
  OutputOptions Out;
  if (std::string Why = analyzerOptions(Conf, Opts); !Why.empty())
    return usageError(Why);
  if (std::string Why = outputOptions(Out); !Why.empty())
    return usageError(Why);
  TextOptions Text;
  if (std::string Why = textOptions(Text); !Why.empty())
    return usageError(Why);
  auto Start = std::chrono::steady_clock::now();
  std::unique_ptr<StdinInput> Stdin;
  std::vector<std::string> Files;
  std::unique_ptr<CompileCommands> Database;
  size_t NotSource = 0;
  if (int RC = collectInputs(*Out.Excluded, std::move(Fixed), Stdin, Files, Database, NotSource))
    return RC;
  if (Verbose && !Database->databasePath().empty())
    errs() << "cuda-bank-lint: note: using compilation database '" << Database->databasePath()
           << "'\n";
  if (Verbose)
    for (const std::string &Src : Conf.Sources)
      errs() << "cuda-bank-lint: note: using configuration '" << Src << "'\n";

  // Headers found by recursing into a directory may be skipped with a note.
  for (const std::string &F : Files)
    if (!llvm::is_contained(Inputs, F))
      Opts.FromDirectories.insert(F);
  applyDebugOptions();
  auto Shown = [&](std::string S) { return Stdin ? Stdin->mapBack(std::move(S)) : S; };
  const ShownFindings Policy{
      {Out.Lines, Conf.ExcludeHeaderFilterRegex.value_or(""), Files, effectiveChecks(Conf), Shown},
      Format == OutputFormat::Json || Conf.Remarks.value_or(false),
      Conf.WarningsAsErrors.value_or("")};
  // Text and GitHub annotations stream: each file's messages and findings as
  // soon as it (and, unless --unordered, every file before it) is done.
  bool Streaming = Format == OutputFormat::Text || Format == OutputFormat::Github;
  if (Streaming) {
    Opts.CompletionOrder = Unordered;
    Opts.OnFile = [&](const UnitStatus &Unit, const std::string &Messages,
                      const std::vector<Finding> &Findings) {
      RunReport Part;
      Part.Findings = Findings;
      Part.Units.push_back(Unit);
      Policy.apply(Part);
      errs() << Shown(Messages);
      errs().flush();
      outs() << Shown(render(Part, /*WithExplain=*/false));
      outs().flush();
    };
  }
  Progress Bar(Files.size(), !Quiet && Progress::interactive(),
               std::chrono::milliseconds(ProgressDelayMs));
  Opts.ProgressBar = &Bar;
  AnalysisOutcome Result = analyseFiles(Files, Database.get(), Opts);
  auto [HiddenRemarks, Promoted] = Policy.apply(Result.Report);
  sortReport(Result.Report);
  if (Streaming) {
    // What is left: --explain's summary and tables, after every file.
    RunReport Rest = Result.Report;
    Rest.Findings.clear();
    Rest.Units.clear();
    outs() << Shown(render(Rest, /*WithExplain=*/true));
  } else {
    errs() << Shown(Result.Messages);
    outs() << Shown(render(Result.Report, true));
  }
  outs().flush();
  bool Failed = !writeFixes(Result.Report, Files, Stdin.get(), ExportFixes, Fix) || Result.HadErrors;
  Failed |= !Html.empty() && !writeHtml(Result, Html, Text.PathRoot);
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  bool Strictly = Conf.Strict.value_or(false);
  if (!Quiet && (Format == OutputFormat::Text || Format == OutputFormat::Github))
    printSummary(Result, Files.size(), NotSource, HiddenRemarks, Strictly, Seconds);
  else if (Strictly)
    errs() << Shown(unmodelledText(Result, true));
  if (Failed)
    return 2;
  bool FailByLevel = Out.FailLevel && llvm::any_of(Result.Report.Findings, [&](const Finding &F) {
                       return F.Level >= *Out.FailLevel;
                     });
  return Promoted || FailByLevel || (Strictly && !Result.Unmodelled.empty()) ? 1 : 0;
}

// --lsp: the language server (lib/Server) analyses each file it is given with
// the settings a run on that file would use.
FileSettings settingsFor(const std::string &File) {
  FileSettings S;
  std::optional<Config> Conf = loadConfig(File, S.Error);
  if (!Conf)
    return S;
  if (std::string Why = applyCommandLine(*Conf); !Why.empty())
    S.Error = "cuda-bank-lint: error: " + Why + "\n";
  else if (std::string Why = analyzerOptions(*Conf, S.Analysis); !Why.empty())
    S.Error = "cuda-bank-lint: error: " + Why + "\n";
  S.WarningsAsErrors = Conf->WarningsAsErrors.value_or("");
  S.Remarks = Conf->Remarks.value_or(true);
  S.ConfigFiles = Conf->Sources;
  return S;
}

int runServer(LanguageServerMain Server, int Argc, const char **Argv) {
  if (!Server)
    return usageError("--lsp: this build has no language server");
  ServerSetup Setup;
  Setup.SettingsFor = settingsFor;
  Setup.BuildPath = BuildPath;
  const char **Dashes = std::find_if(Argv, Argv + Argc, [](const char *A) {
    return StringRef(A) == "--";
  });
  if (Dashes != Argv + Argc)
    Setup.FixedFlags = std::vector<std::string>(Dashes + 1, Argv + Argc);
  applyDebugOptions();
  return Server(Setup);
}

} // namespace

int runTool(int Argc, const char **Argv, LanguageServerMain Server) {
  const int AllArgs = Argc; // before "--" and the flags after it are split off
  sys::PrintStackTraceOnErrorSignal(Argv[0]);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(toolCategory());
  // Everything after "--" is compiler flags, as for clang-tidy.
  std::string DbError;
  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, DbError);
  if (!cl::ParseCommandLineOptions(Argc, Argv,
                                   "cuda-bank-lint: exact shared-memory bank conflicts and "
                                   "barrier divergence in CUDA source\n",
                                   &errs()))
    return 2;
  if (Lsp)
    return runServer(Server, AllArgs, Argv);

  std::string FirstInput = Inputs.empty() ? std::string() : Inputs.front();
  if (FirstInput == "-")
    FirstInput = AssumeFilename;
  std::optional<Config> Conf;
  if (std::optional<int> Done = configure(FirstInput, Conf))
    return *Done;
  return analyse(*Conf, std::move(Fixed));
}

} // namespace cbl
