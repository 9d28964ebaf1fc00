//===- Analyzer.cpp - Files in, report out ---------------------------------===//
#include "cuda-bank-lint/Driver/Analyzer.h"
#include "cuda-bank-lint/Checks/InProgress.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Driver/Includers.h"
#include "cuda-bank-lint/Driver/Inputs.h"
#include "cuda-bank-lint/Driver/Progress.h"
#include "cuda-bank-lint/Driver/ShapeResolver.h"
#include "cuda-bank-lint/Driver/Suppressions.h"
#include "cuda-bank-lint/Frontend/ModelBuilder.h"
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/BuildConfig.h"
#include "cuda-bank-lint/Symbolic/VerdictMemo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

namespace cbl {

namespace {

struct FileResult {
  RunReport Report;
  std::string Messages;
  UnitStatus Unit;
  std::vector<UnmodelledKernel> Unmodelled;
};


/// As findings are located: relative to the working directory when inside
/// it, without "./" or "dir/../" segments.
std::string at(const SourcePos &P) {
  return P.valid() ? displayPath(P.File) + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column) : "";
}

/// What Clang's errors stopped, and what the front end left out, as
/// clang-style lines on stderr. A kernel not analysed is an error (exit 2,
/// like clang-tidy with compiler errors); skipped host code is a note.
void reportSkipped(const std::string &File, const ParsedFile &P, bool Verbose, FileResult &R) {
  const TranslationUnitModel &M = P.Model;
  std::string HostNames;
  bool DeviceSkipped = false;
  for (const SkippedFunction &S : M.Skipped) {
    if (S.What == SkippedFunction::Kind::Host) {
      HostNames += (HostNames.empty() ? "'" : ", '") + S.Name + "'";
      continue;
    }
    DeviceSkipped = true;
    bool Kernel = S.What == SkippedFunction::Kind::Kernel;
    if (Kernel)
      R.Unit.Status = UnitStatus::State::Partial;
    std::string Where = at(S.Where);
    R.Messages += (Where.empty() ? "" : Where + ": ") + (Kernel ? "error: " : "note: ") +
                  skippedMessage(S, [](const std::string &T) { return T; }, at) + "\n";
  }
  if (DeviceSkipped)
    R.Messages.insert(0, P.ErrorText);
  if (!HostNames.empty()) {
    if (Verbose)
      R.Messages += P.HostErrorText;
    R.Messages += File + ": note: Clang rejects host code in " + HostNames +
                  " (nvcc accepts it); device code was analysed" +
                  (Verbose ? "" : " (--verbose shows the errors)") + "\n";
  }
  // A kernel without a recognised access once, not per instantiation (the
  // summary counts it too).
  std::set<std::pair<std::string, std::string>> Unrecognised;
  for (const FrontEndNote &N : M.Notes) {
    if (!N.SkippedKernels.empty() || (N.VerboseOnly && !Verbose))
      continue; // once per run (SkippedOnce); --verbose only
    if (auto Kernel = unmodelledByNote(N);
        Kernel && !Unrecognised.insert({Kernel->first.substr(0, Kernel->first.find('<')), at(N.Where)}).second)
      continue;
    R.Messages += (N.Where.valid() ? at(N.Where) + ": " : File + ": ") + "note: " + N.Message + "\n";
  }
  R.Unit.Skipped = M.Skipped;
  R.Unit.Notes = M.Notes;
}

/// The notes about kernels in code the preprocessor skipped, each file's
/// once per run: a header included by several translation units has its
/// note with the first.
class SkippedOnce {
public:
  /// R's notes not said before, as clang-style lines; counts their kernels.
  std::string take(const FileResult &R) {
    std::string Text;
    for (const FrontEndNote &N : R.Unit.Notes)
      if (!N.SkippedKernels.empty() &&
          Said.insert({absolutePath(N.Where.File), N.Where.Line, N.Where.Column}).second) {
        Text += (N.Where.valid() ? at(N.Where) + ": " : R.Unit.File + ": ") + "note: " + N.Message + "\n";
        Kernels += unsigned(N.SkippedKernels.size());
      }
    return Text;
  }
  unsigned Kernels = 0;

private:
  std::set<std::tuple<std::string, unsigned, unsigned>> Said;
};

/// The command that parses File (argv[0] ... File), with the extra
/// arguments; Error set when the database entry is unusable.
std::vector<std::string> commandFor(const std::string &File, const CompileCommands *Database,
                                    const AnalyzerOptions &Opts, std::string &Messages,
                                    std::string &Error, bool &OwnEntry) {
  std::vector<std::string> Command;
  if (Database) {
    CompileCommands::Resolved C = Database->resolve(File);
    if (!C.Error.empty()) {
      Error = C.Error;
      return Command;
    }
    if (Opts.Verbose)
      Messages += C.Notes;
    OwnEntry = C.OwnEntry;
    Command = std::move(C.Args);
  }
  if (Command.empty())
    Command = {"clang++", File};
  Command.insert(Command.begin() + 1, Opts.ExtraArgsBefore.begin(), Opts.ExtraArgsBefore.end());
  Command.insert(Command.end() - 1, Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  return Command;
}

/// Keeps what is located in File: the results of a translation unit that
/// includes it.
void keepOnly(const std::string &File, TranslationUnitModel &M) {
  std::string Abs = absolutePath(File);
  auto Other = [&](const SourcePos &P) { return absolutePath(P.File) != Abs; };
  M.Skipped.erase(std::remove_if(M.Skipped.begin(), M.Skipped.end(),
                                 [&](const SkippedFunction &S) { return Other(S.Where); }),
                  M.Skipped.end());
  M.Notes.erase(std::remove_if(M.Notes.begin(), M.Notes.end(),
                               [&](const FrontEndNote &N) { return Other(N.Where); }),
                M.Notes.end());
}
void keepOnly(const std::string &File, RunReport &Report) {
  std::string Abs = absolutePath(File);
  auto Other = [&](const SourcePos &P) { return absolutePath(P.File) != Abs; };
  llvm::erase_if(Report.Findings, [&](const Finding &F) { return Other(F.Where); });
  llvm::erase_if(Report.Accesses, [&](const AccessRecord &A) { return Other(A.Where); });
  llvm::erase_if(Report.Variables, [&](const SharedVariableRecord &V) { return Other(V.Decl); });
}

/// Runs the enabled checks on M into R. An internal failure (a crash,
/// recovered by llvm::CrashRecoveryContext) while a function is analysed is
/// an error for that function, which is dropped before the checks run again
/// on the rest; false when nothing could be analysed. Threads: the workers
/// for M's accesses (CheckContext::Threads).
bool runChecks(const std::string &File, TranslationUnitModel &M, const AnalyzerOptions &Opts,
               unsigned Threads, const TimeBudget &Budget, FileResult &R) {
  constexpr unsigned MaxFailures = 4;
  // Identical accesses (instantiations, call sites, fix candidates) are
  // analysed once.
  VerdictMemo Local;
  VerdictMemo *Memo = Opts.Memo ? Opts.Memo : &Local;
  for (unsigned Failures = 0;; ++Failures) {
    RunReport Out;
    llvm::CrashRecoveryContext Recovery;
    bool Ok = Recovery.RunSafely([&] {
      for (const CheckInfo &Info : registeredChecks()) {
        if (!checkEnabled(Info.Name, Opts.CheckGlobs))
          continue;
        CheckContext Ctx{M, Opts.Checks, Out, &Budget, Memo};
        Ctx.Threads = Threads;
        Info.Make()->run(Ctx);
      }
    });
    if (Ok) {
      R.Report.Findings = std::move(Out.Findings);
      R.Report.Accesses = std::move(Out.Accesses);
      return true;
    }
    const FunctionModel *Bad = FunctionInProgress::current();
    FunctionInProgress::reset();
    if (!Bad || Failures + 1 >= MaxFailures) {
      R.Unit.Status = UnitStatus::State::Failed;
      R.Unit.Error = "internal error in cuda-bank-lint (please report it)";
      R.Messages += "error: internal error in cuda-bank-lint while analysing '" + File +
                    "' (please report it); nothing analysed\n";
      return false;
    }
    SkippedFunction S;
    S.What = Bad->IsKernel ? SkippedFunction::Kind::Kernel : SkippedFunction::Kind::Device;
    S.Name = Bad->Name;
    S.Where = Bad->Where;
    S.Error = "internal error in cuda-bank-lint (please report it)";
    S.Why = SkippedFunction::Cause::Tool;
    R.Messages += (Bad->Where.valid() ? at(Bad->Where) + ": " : File + ": ") + "error: " +
                  (Bad->IsKernel ? "kernel '" : "function '") + Bad->Name +
                  "' not analysed: internal error in cuda-bank-lint (please report it); the "
                  "rest of the file is analysed\n";
    if (Bad->IsKernel)
      R.Unit.Status = UnitStatus::State::Partial;
    R.Unit.Skipped.push_back(std::move(S));
    llvm::erase_if(M.Functions, [&](const FunctionModel &F) { return &F == Bad; });
  }
}

/// A header named on the command line and analysed on its own, in which no
/// shared access was found: its templates are analysed where a translation
/// unit instantiates them. Which ones include it (the database's entries,
/// else the inputs and the .cu files near it), or that none does.
void hintIncluders(const std::string &File, const CompileCommands *Database,
                   const std::vector<std::string> &Inputs, FileResult &R) {
  std::string Abs = absolutePath(File);
  for (const AccessRecord &A : R.Report.Accesses)
    if (absolutePath(A.Where.File) == Abs)
      return;
  std::vector<std::string> Candidates = Database ? Database->entries() : std::vector<std::string>();
  bool FromDatabase = !Candidates.empty();
  if (!FromDatabase) {
    for (const std::string &I : Inputs)
      if (llvm::sys::path::extension(I) == ".cu")
        Candidates.push_back(absolutePath(I));
    for (const std::string &N : nearbySources(File))
      if (!llvm::is_contained(Candidates, absolutePath(N)))
        Candidates.push_back(absolutePath(N));
  }
  constexpr size_t Named = 4;
  std::vector<std::string> Found = findIncluders(File, Candidates, Named + 1);
  std::string Why = "no shared access found in this header on its own (its templates are "
                    "analysed where a translation unit instantiates them)";
  if (Found.empty())
    Why += std::string(", and no ") +
           (FromDatabase ? "entry of the compilation database" : ".cu file among the inputs or near it") +
           " includes it";
  for (size_t I = 0; I < Found.size() && I < Named; ++I)
    Why += (I ? ", '" : "; lint a file that includes it: '") + displayPath(Found[I]) + "'";
  if (Found.size() > Named)
    Why += ", ...";
  R.Messages += File + ": note: " + Why + "\n";
  R.Unit.Notes.push_back({SourcePos(), Why});
}

FileResult analyseOne(const std::string &File, const std::vector<std::string> &Inputs,
                      const CompileCommands *Database, const AnalyzerOptions &Opts,
                      unsigned Threads, LaunchIndex &OtherUnits) {
  TimeBudget Budget;
  if (Opts.TimeoutSeconds > 0) {
    Budget.Limit = fmt::format("{}", Opts.TimeoutSeconds);
    Budget.Deadline = std::chrono::steady_clock::now() +
                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>(Opts.TimeoutSeconds));
  }
  FileResult R;
  R.Unit.File = File;
  std::string Error;
  bool OwnEntry = false;
  std::vector<std::string> Command = commandFor(File, Database, Opts, R.Messages, Error, OwnEntry);
  if (!Error.empty()) {
    R.Unit.Status = UnitStatus::State::Failed;
    R.Unit.Error = llvm::StringRef(Error).trim().str();
    R.Messages += Error;
    return R;
  }

  ModelOptions Model = Opts.Model;
  Model.Threads = Threads;
  ParsedFile P = parseCudaFile(File, Command, Opts.Cuda, Model);
  // A file that is not a translation unit of its own (a kernel file or a
  // header included after the definitions it needs) is analysed through one
  // that includes it.
  auto KernelsSkipped = [](const TranslationUnitModel &M) {
    return llvm::count_if(M.Skipped, [](const SkippedFunction &S) {
      return S.What == SkippedFunction::Kind::Kernel;
    });
  };
  std::string Through;
  if ((P.Failed || KernelsSkipped(P.Model)) && !OwnEntry) {
    std::vector<std::string> Candidates = Database ? Database->entries() : std::vector<std::string>();
    if (Candidates.empty())
      Candidates = nearbySources(File);
    if (auto Includer = findIncluder(File, Candidates)) {
      std::string IncError, Ignored;
      bool IncOwn = false;
      std::vector<std::string> IncCommand =
          commandFor(*Includer, Database, Opts, Ignored, IncError, IncOwn);
      if (IncError.empty()) {
        ParsedFile Q = parseCudaFile(*Includer, IncCommand, Opts.Cuda, Model);
        if (!Q.Failed)
          keepOnly(File, Q.Model);
        if (!Q.Failed && (P.Failed || KernelsSkipped(Q.Model) < KernelsSkipped(P.Model))) {
          std::string Alone = P.FirstError;
          for (const SkippedFunction &S : P.Model.Skipped)
            if (Alone.empty() && S.What == SkippedFunction::Kind::Kernel)
              Alone = "kernel '" + S.Name + "': " + S.Error;
          P = std::move(Q);
          Through = *Includer;
          P.Model.Notes.insert(P.Model.Notes.begin(),
                               {SourcePos(), "analysed through '" + Through +
                                                 "', which includes it (on its own it does not "
                                                 "compile: " + Alone + ")"});
        }
      }
    }
  }
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  if (P.Failed && !OwnEntry && Ext != ".cu" && Opts.FromDirectories.count(File)) {
    R.Unit.Status = UnitStatus::State::Skipped;
    R.Unit.Error = P.FirstError;
    R.Unit.ErrorWhere = P.FirstErrorWhere;
    R.Messages += File + ": note: header skipped: it does not compile on its own (" +
                  P.FirstError + ") and no CUDA file " +
                  (Database && !Database->entries().empty() ? "of the compilation database"
                                                            : "near it") +
                  " includes it; name it on the command line to see the errors\n";
    return R;
  }
  if (P.Failed) {
    R.Unit.Status = UnitStatus::State::Failed;
    R.Unit.Error = P.FirstError;
    R.Unit.ErrorWhere = P.FirstErrorWhere;
    R.Unit.MissingHeader = P.MissingHeader;
    R.Unit.Notes = P.Model.Notes;
    R.Messages += P.ErrorText;
    R.Messages += "error: '" + File + "' does not compile for the device side" +
                  (P.MissingHeader.empty() ? "" : " (header '" + P.MissingHeader + "' not found)") +
                  "; nothing analysed\n";
    return R;
  }
  reportSkipped(File, P, Opts.Verbose, R);
  TranslationUnitModel &M = P.Model;
  ShapeOptions Shapes{Opts.BlockDim, &Opts.BlockDimRules, &OtherUnits, Opts.Model.Unsaved.get(),
                      Opts.GridDim};
  resolveShapes(M, File, Shapes, R.Messages);
  if (!runChecks(File, M, Opts, Threads, Budget, R))
    return R;
  if (Budget.Unanalysed) {
    std::string Why = "the time limit (--timeout=" + Budget.Limit +
                      ") ran out: " + std::to_string(Budget.Unanalysed) +
                      " accesses and barriers were not analysed (their status is unknown)";
    R.Messages += File + ": warning: " + Why + "\n";
    R.Unit.Notes.push_back({SourcePos(), Why});
  }
  R.Report.Variables = summariseVariables(M.Arrays, R.Report.Accesses);
  if (!Through.empty())
    keepOnly(File, R.Report);
  R.Unmodelled = unmodelledKernels(R.Report.Accesses, R.Unit.Notes, R.Unit.Skipped);
  bool Header = Ext == ".cuh" || Ext.starts_with(".h") || Ext == ".inl";
  if (Through.empty() && Header && !Opts.FromDirectories.count(File))
    hintIncluders(File, Database, Inputs, R);
  // A check may report under finer names (cuda-barrier-early-exit); the
  // globs apply to those names too.
  R.Report.Findings.erase(std::remove_if(R.Report.Findings.begin(), R.Report.Findings.end(),
                                         [&](const Finding &F) {
                                           return !checkEnabled(F.Check, Opts.CheckGlobs);
                                         }),
                          R.Report.Findings.end());
  // clang-tidy's --header-filter: findings outside the main file only when
  // their file matches.
  if (Opts.HeaderFilter) {
    // An empty filter matches nothing (clang-tidy), not everything (Regex).
    llvm::Regex Filter(*Opts.HeaderFilter);
    bool None = Opts.HeaderFilter->empty();
    std::string Main = absolutePath(File);
    std::vector<Finding> Kept;
    for (Finding &F : R.Report.Findings)
      if (absolutePath(F.Where.File) == Main || (!None && Filter.match(F.Where.File)))
        Kept.push_back(std::move(F));
    R.Report.Findings = std::move(Kept);
  }
  return R;
}

} // namespace

/// "X[,Y[,Z]]", each extent 1 to its Most (missing extents are 1).
static std::optional<std::array<unsigned, 3>> parseExtents(const std::string &Text,
                                                           const std::array<uint64_t, 3> &Most) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  llvm::StringRef(Text).split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  std::array<unsigned, 3> D{{1, 1, 1}};
  for (size_t I = 0; I < Parts.size(); ++I) {
    uint64_t V = 0;
    if (Parts[I].trim().getAsInteger(10, V) || V == 0 || V > Most[I])
      return std::nullopt;
    D[I] = unsigned(V);
  }
  return D;
}

std::optional<std::array<unsigned, 3>> parseBlockDim(const std::string &Text) {
  auto D = parseExtents(Text, {1024, 1024, 64});
  if (D && (*D)[0] * (*D)[1] * (*D)[2] > 1024)
    return std::nullopt;
  return D;
}

std::optional<std::array<unsigned, 3>> parseGridDim(const std::string &Text) {
  return parseExtents(Text, {(1ull << 31) - 1, 65535, 65535});
}

AnalysisOutcome analyseFiles(const std::vector<std::string> &Files,
                             const CompileCommands *Database, const AnalyzerOptions &Opts) {
  // An internal failure in one function is reported, not fatal (runChecks).
  llvm::CrashRecoveryContext::Enable();
  std::vector<FileResult> Results(Files.size());
  unsigned Jobs = Opts.Jobs ? Opts.Jobs : llvm::hardware_concurrency().compute_thread_count();
  // Fewer files than threads: those the files leave analyse each file's
  // accesses (one file: all of them).
  const unsigned ThreadsPerFile = unsigned(std::max<size_t>(1, Jobs / std::max<size_t>(1, Files.size())));
  // Launches in other translation units: the database's, else .cu files near
  // the analysed one; each parsed once, for its launches only.
  LaunchIndex OtherUnits(
      [Database](const std::string &File) {
        std::vector<std::string> Entries = Database ? Database->entries() : std::vector<std::string>();
        return Entries.empty() ? nearbySources(File, 400) : Entries;
      },
      [Database, &Opts](const std::string &File) {
        std::string Ignored, Error;
        bool Own = false;
        std::vector<std::string> Command = commandFor(File, Database, Opts, Ignored, Error, Own);
        if (!Error.empty())
          return std::vector<LaunchedKernel>();
        ModelOptions LaunchesOnly = Opts.Model;
        LaunchesOnly.LaunchesOnly = true;
        return parseCudaFile(File, Command, Opts.Cuda, LaunchesOnly).Model.Launches;
      });
  // Streaming: each file's results in input order as soon as they are known.
  std::mutex StreamLock;
  std::vector<bool> Done(Files.size(), false);
  size_t NextToStream = 0;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Streamed;
  SkippedOnce StreamedSkipped;
  auto stream = [&](size_t I) {
    std::vector<Finding> Findings = Results[I].Report.Findings;
    std::string Messages = Results[I].Messages + StreamedSkipped.take(Results[I]);
    applySuppressions(Findings, Messages, Opts.Model.Unsaved.get());
    mergeFindings(Findings);
    llvm::erase_if(Findings, [&](const Finding &F) {
      return !Streamed.insert({absolutePath(F.Where.File), F.Where.Line, F.Where.Column, F.Check}).second;
    });
    std::stable_sort(Findings.begin(), Findings.end(), [](const Finding &A, const Finding &B) {
      return std::tie(A.Where.File, A.Where.Line, A.Where.Column) <
             std::tie(B.Where.File, B.Where.Line, B.Where.Column);
    });
    auto Emit = [&] { Opts.OnFile(Results[I].Unit, Messages, Findings); };
    if (Opts.ProgressBar)
      Opts.ProgressBar->interrupt(Emit);
    else
      Emit();
  };
  auto run = [&](size_t I) {
    // The last resort: an internal failure outside the checks (in the front
    // end) costs this file, not the run.
    llvm::CrashRecoveryContext Recovery;
    if (!Recovery.RunSafely([&] {
          Results[I] = analyseOne(Files[I], Files, Database, Opts, ThreadsPerFile, OtherUnits);
        })) {
      FunctionInProgress::reset();
      Results[I] = FileResult();
      Results[I].Unit.File = Files[I];
      Results[I].Unit.Status = UnitStatus::State::Failed;
      Results[I].Unit.Error = "internal error in cuda-bank-lint (please report it)";
      Results[I].Messages = "error: internal error in cuda-bank-lint while analysing '" + Files[I] +
                            "' (please report it); nothing analysed\n";
    }
    if (Opts.ProgressBar)
      Opts.ProgressBar->fileDone(Files[I]);
    if (!Opts.OnFile)
      return;
    std::lock_guard<std::mutex> G(StreamLock);
    if (Opts.CompletionOrder)
      return stream(I);
    Done[I] = true;
    for (; NextToStream < Files.size() && Done[NextToStream]; ++NextToStream)
      stream(NextToStream);
  };
  if (Jobs <= 1 || Files.size() <= 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      run(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] { run(I); });
    Pool.wait();
  }
  if (Opts.ProgressBar)
    Opts.ProgressBar->finish();
  AnalysisOutcome Out;
  Out.Report.ToolVersion = CBL_VERSION;
  Out.Report.Mode = cudaModeName(Opts.Cuda.Mode);
  Out.Report.Files = unsigned(Files.size());
  std::map<std::tuple<std::string, unsigned, unsigned, std::string>, size_t> VariableIndex;
  SkippedOnce Skipped;
  for (FileResult &R : Results) {
    Out.Messages += R.Messages + Skipped.take(R);
    if (R.Unit.Status == UnitStatus::State::Failed) {
      Out.HadErrors = true;
      ++Out.Report.Errors;
    }
    if (R.Unit.Status == UnitStatus::State::Skipped)
      ++Out.Report.SkippedHeaders;
    if (R.Unit.Status == UnitStatus::State::Partial) {
      Out.HadErrors = true;
      ++Out.Report.PartlyAnalysed;
    }
    if (!R.Unmodelled.empty())
      Out.Unmodelled.push_back({R.Unit.File, std::move(R.Unmodelled)});
    Out.Report.Units.push_back(std::move(R.Unit));
    for (Finding &F : R.Report.Findings)
      Out.Report.Findings.push_back(std::move(F));
    for (AccessRecord &A : R.Report.Accesses)
      Out.Report.Accesses.push_back(std::move(A));
    // A variable of a header is listed once, its accesses summed.
    for (SharedVariableRecord &V : R.Report.Variables) {
      auto Key = std::make_tuple(absolutePath(V.Decl.File), V.Decl.Line, V.Decl.Column, V.Name);
      auto It = VariableIndex.find(Key);
      if (It == VariableIndex.end()) {
        VariableIndex.emplace(Key, Out.Report.Variables.size());
        Out.Report.Variables.push_back(std::move(V));
      } else {
        for (const auto &[Status, N] : V.Accesses)
          Out.Report.Variables[It->second].Accesses[Status] += N;
      }
    }
  }
  // NOLINT per instance, then one finding per location, check and kind (a
  // header's findings once, however many files include it).
  Out.Report.PreprocessorSkipped = Skipped.Kernels;
  applySuppressions(Out.Report.Findings, Out.Messages, Opts.Model.Unsaved.get());
  mergeFindings(Out.Report.Findings);
  return Out;
}

} // namespace cbl
