//===- Analyzer.h - Analyse a set of files and report ---------------------===//
//
// The driver's core: expands inputs, finds each file's compile command,
// parses files in parallel (llvm::ThreadPool), resolves each kernel's block
// shape (--block-dim > config BlockDim > annotation > launch >
// __launch_bounds__ > assumed), runs the enabled checks, and merges results
// in input order: each header's findings once, filtered by --header-filter,
// NOLINT comments applied.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_ANALYZER_H
#define CUDA_BANK_LINT_DRIVER_ANALYZER_H

#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Driver/Config.h"
#include "cuda-bank-lint/Driver/Coverage.h"
#include "cuda-bank-lint/Frontend/CudaCompilation.h"
#include "cuda-bank-lint/Frontend/ModelBuilder.h"
#include "cuda-bank-lint/Report/Finding.h"

#include <array>
#include <functional>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

class CompileCommands;
class Progress;
class VerdictMemo;

struct AnalyzerOptions {
  CudaSetup Cuda;
  CheckOptions Checks;
  std::string CheckGlobs = "cuda-*";
  std::optional<std::array<unsigned, 3>> BlockDim; ///< --block-dim
  std::optional<std::array<unsigned, 3>> GridDim;  ///< --grid-dim
  std::vector<std::string> ExtraArgs;              ///< appended to every command
  std::vector<std::string> ExtraArgsBefore;        ///< inserted after the compiler
  std::vector<BlockDimRule> BlockDimRules;         ///< config BlockDim, first match wins
  ModelOptions Model;                              ///< config LaunchArguments
  /// Findings outside the analysed file are shown only if their file matches
  /// (clang-tidy's --header-filter); unset shows them all.
  std::optional<std::string> HeaderFilter;
  /// Files found by recursing into a directory: a header among them that
  /// compiles neither alone nor through an including file is skipped with a
  /// note, not an error (a header named on the command line is an error).
  std::set<std::string> FromDirectories;
  /// Called with each file's results as soon as it and every file before it
  /// are done (input order, from a worker thread, one call at a time): its
  /// messages, and its findings after NOLINT, merged, less those an earlier
  /// file already streamed (a shared header's).
  std::function<void(const UnitStatus &Unit, const std::string &Messages,
                     const std::vector<Finding> &Findings)>
      OnFile;
  bool CompletionOrder = false;                    ///< OnFile as each file finishes
  /// Per file: after this many seconds (0: no limit) the accesses and
  /// barriers not yet analysed get the status unknown, with the reason.
  double TimeoutSeconds = 0;
  /// Threads (0 = all cores): files in parallel, and each file's accesses
  /// on the threads the files leave.
  unsigned Jobs = 0;
  /// Verdicts kept across runs (the language server keeps one per document);
  /// null: each file gets its own.
  VerdictMemo *Memo = nullptr;
  bool Verbose = false;
  Progress *ProgressBar = nullptr;                 ///< optional
};

/// Errors and remarks for the user (stderr), in input order.
struct AnalysisOutcome {
  RunReport Report;
  std::string Messages;   ///< compiler errors, skipped host code, ...
  bool HadErrors = false; ///< parse errors or bad inputs: exit code 2
  /// Per input file that has any (input order): the kernels whose shared
  /// memory the tool could not model.
  std::vector<std::pair<std::string, std::vector<UnmodelledKernel>>> Unmodelled;
};

/// Database may be null: then every file is parsed as `clang++ File`.
AnalysisOutcome analyseFiles(const std::vector<std::string> &Files,
                             const CompileCommands *Database, const AnalyzerOptions &Opts);

/// Parses "32", "32,8" or "32,8,2".
std::optional<std::array<unsigned, 3>> parseBlockDim(const std::string &Text);
/// "X[,Y[,Z]]" blocks, within CUDA's grid limits (x < 2^31, y and z < 2^16).
std::optional<std::array<unsigned, 3>> parseGridDim(const std::string &Text);

} // namespace cbl

#endif
