//===- Workspace.cpp - Analysing editor buffers, with what they share ------===//
#include "cuda-bank-lint/Server/Workspace.h"
#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Driver/BufferAnalysis.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Frontend/DeviceModelMemo.h"
#include "cuda-bank-lint/Symbolic/VerdictMemo.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>

namespace cbl {

std::string BufferResult::textOf(const std::string &File) const {
  if (Of.Unsaved)
    if (const std::string *Text = Of.Unsaved->find(File))
      return *Text;
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

const std::string &BufferResult::text() const {
  static const std::string None;
  const std::string *Text = Of.Unsaved ? Of.Unsaved->find(Of.Path) : nullptr;
  return Text ? *Text : None;
}

void Workspace::setDatabasePath(const std::string &Path) {
  std::lock_guard<std::mutex> G(Lock);
  DatabasePath = Path;
}

std::shared_ptr<const CompileCommands> Workspace::database(const std::string &File,
                                                           std::string &Error) {
  auto Fixed = [&]() -> std::unique_ptr<clang::tooling::CompilationDatabase> {
    if (!Setup.FixedFlags)
      return nullptr;
    return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", *Setup.FixedFlags);
  };
  std::string BuildPath;
  {
    std::lock_guard<std::mutex> G(Lock);
    BuildPath = DatabasePath.empty() ? Setup.BuildPath : DatabasePath;
  }
  std::string Path = CompileCommands::locate(BuildPath, File, Setup.FixedFlags.has_value(), Error);
  if (!Error.empty())
    return nullptr;
  if (Path.empty())
    return Setup.FixedFlags ? std::shared_ptr<const CompileCommands>(
                                  CompileCommands::load("", "", Fixed(), Error))
                            : nullptr;
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status)) {
    Error = "compilation database '" + Path + "' cannot be read";
    return nullptr;
  }
  std::lock_guard<std::mutex> G(Lock);
  LoadedDatabase &D = Databases[Path];
  if (D.Commands && D.Modified == Status.getLastModificationTime() && D.Size == Status.getSize())
    return D.Commands;
  D.Commands = CompileCommands::load(Path, File, Fixed(), Error);
  D.Modified = Status.getLastModificationTime();
  D.Size = Status.getSize();
  return D.Commands;
}

void Workspace::close(const std::string &Path) {
  std::lock_guard<std::mutex> G(Lock);
  Memos.erase(Path);
}

struct Workspace::DocumentMemos {
  VerdictMemo Verdicts;
  DeviceModelMemo Models;
};

BufferResult Workspace::analyse(const Snapshot &S) {
  auto Start = std::chrono::steady_clock::now();
  BufferResult R;
  R.Of = S;
  R.Preamble = "not used";
  FileSettings Settings = Setup.SettingsFor(S.Path);
  std::string Error = Settings.Error;
  std::shared_ptr<const CompileCommands> Database;
  if (Error.empty())
    Database = database(S.Path, Error);
  if (!Error.empty()) {
    R.Problem = Error;
    return R;
  }
  std::shared_ptr<DocumentMemos> Memo;
  {
    std::lock_guard<std::mutex> G(Lock);
    std::shared_ptr<DocumentMemos> &Slot = Memos[S.Path];
    if (!Slot)
      Slot = std::make_shared<DocumentMemos>();
    Memo = Slot;
  }
  VerdictMemo::Counters MemoBefore = Memo->Verdicts.counters();
  DeviceModelMemo::Counters ModelsBefore = Memo->Models.counters();
  Settings.Analysis.Memo = &Memo->Verdicts;
  Settings.Analysis.Model.DeviceModels = &Memo->Models;
  PreambleCache::Counters Before = Preambles.counters();
  R.Outcome = analyseBuffer(S.Path, S.Unsaved, Database.get(), Settings.Analysis, &Preambles);
  PreambleCache::Counters After = Preambles.counters();
  VerdictMemo::Counters MemoAfter = Memo->Verdicts.counters();
  DeviceModelMemo::Counters ModelsAfter = Memo->Models.counters();
  R.VerdictsReused = MemoAfter.Hits - MemoBefore.Hits;
  R.VerdictsComputed = MemoAfter.Misses - MemoBefore.Misses;
  R.KernelsKept = ModelsAfter.Kept - ModelsBefore.Kept;
  R.KernelsOptimised = ModelsAfter.Optimised - ModelsBefore.Optimised;
  Memo->Verdicts.sweep(); // keeps what this version used
  Memo->Models.sweep();
  if (After.Built > Before.Built)
    R.Preamble = "built";
  else if (After.Reused > Before.Reused)
    R.Preamble = "reused";
  // Remarks are shown in the editor unless the configuration turns them off.
  if (!Settings.Remarks)
    llvm::erase_if(R.Outcome.Report.Findings,
                   [](const Finding &F) { return F.Level == Severity::Remark; });
  // WarningsAsErrors, as the command line promotes them.
  for (Finding &F : R.Outcome.Report.Findings)
    if (F.Level == Severity::Warning && checkEnabled(F.Check, Settings.WarningsAsErrors))
      F.Level = Severity::Error;
  R.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  return R;
}

} // namespace cbl
