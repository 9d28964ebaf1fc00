//===- CommandLine.cpp - Options, exit codes and output of the tool ---------===//
#include "cuda-bank-lint/Driver/CommandLine.h"
#include "cuda-bank-lint/Driver/Analyzer.h"
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/BuildConfig.h"
#include "cuda-bank-lint/Symbolic/IslContext.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
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
cl::opt<std::string> Format("format", cl::desc("Output format: text (default) or json"),
                            cl::init("text"), cl::cat(Category));
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

} // namespace

int runTool(int Argc, const char **Argv) {
  sys::PrintStackTraceOnErrorSignal(Argv[0]);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(Category);
  // Everything after "--" is compiler flags, as for clang-tidy.
  std::string DbError;
  std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, DbError);
  if (!cl::ParseCommandLineOptions(Argc, Argv,
                                   "cuda-bank-lint: exact shared-memory bank conflicts and "
                                   "barrier divergence in CUDA source\n",
                                   &errs()))
    return 2;
  if (ListChecks) {
    outs() << "Enabled checks:\n";
    for (const CheckInfo &C : registeredChecks())
      if (checkEnabled(C.Name, Checks))
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
  auto BankArchSel = bankArchFromName(Arch);
  if (!BankArchSel)
    return usageError("unknown --arch '" + Arch + "' (expected sm_XX or sm_3x-8byte)");
  Opts.Checks.Arch = *BankArchSel;
  if (Arch.getNumOccurrences())
    Opts.Cuda.GpuArch = clampGpuArch(Arch);
  Opts.Checks.MinConflictDegree = MinDegree;
  Opts.Checks.Explain = Explain;
  Opts.CheckGlobs = Checks;
  if (!BlockDimOpt.empty()) {
    Opts.BlockDim = parseBlockDim(BlockDimOpt);
    if (!Opts.BlockDim)
      return usageError("--block-dim expects X[,Y[,Z]] with at most 1024 threads, got '" +
                        BlockDimOpt + "'");
  }
  if (Format != "text" && Format != "json")
    return usageError("unknown --format '" + Format + "' (expected text or json)");
  Opts.ExtraArgs.assign(ExtraArg.begin(), ExtraArg.end());
  Opts.ExtraArgsBefore.assign(ExtraArgBefore.begin(), ExtraArgBefore.end());
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
  AnalysisOutcome Out = analyseFiles(Files, Fixed.get(), Opts);
  sortReport(Out.Report);
  errs() << Out.Messages;
  if (Format == "json") {
    printJson(Out.Report, outs());
  } else {
    TextOptions T;
    T.Explain = Explain;
    T.Color = outs().has_colors();
    printText(Out.Report, outs(), T);
  }
  outs().flush();
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  if (!Quiet && Format == "text")
    errs() << formatv("{0} file{1} analysed, {2} warning{3}, {4} error{5} in {6:f2} s\n", Files.size(),
                      Files.size() == 1 ? "" : "s", Out.Report.Findings.size(),
                      Out.Report.Findings.size() == 1 ? "" : "s", Out.Report.Errors,
                      Out.Report.Errors == 1 ? "" : "s", Seconds);
  return Out.HadErrors ? 2 : 0;
}

} // namespace cbl
