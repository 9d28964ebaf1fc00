//===- Workspace.h - Analysing editor buffers, with what they share -------===//
//
// One analysis of one buffer: its settings (the file's configuration and the
// server's command line), its compilation database (initializationOptions'
// compilationDatabasePath, -p, else found as the command line finds it;
// reloaded when the file changes, an error when it is gone), then the
// driver's analyseBuffer over every open buffer's text, with the preambles
// kept between analyses. Runs on the analysis thread; what it returns is
// read-only, shared with the requests that answer from it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SERVER_WORKSPACE_H
#define CUDA_BANK_LINT_SERVER_WORKSPACE_H

#include "cuda-bank-lint/Driver/ServerSetup.h"
#include "cuda-bank-lint/Frontend/PreambleCache.h"
#include "cuda-bank-lint/Frontend/UnsavedFiles.h"

#include "llvm/Support/Chrono.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace cbl {

class CompileCommands;
class VerdictMemo;

/// What to analyse: one open document, as the editor has it.
struct Snapshot {
  std::string Uri;
  std::string Path; ///< normalised
  int64_t Version = 0;
  /// Every open document's text, this one's included.
  std::shared_ptr<const UnsavedFiles> Unsaved;
};

/// What one analysis of a snapshot found.
struct BufferResult {
  Snapshot Of;
  AnalysisOutcome Outcome; ///< findings and records of every file, messages
  /// The configuration or the database is unusable (nothing was analysed):
  /// the message the command line would print.
  std::string Problem;
  double Seconds = 0;
  std::string Preamble; ///< "reused", "built" or "not used"
  /// Access verdicts taken from the document's memo (unchanged inputs) and
  /// computed anew.
  uint64_t VerdictsReused = 0, VerdictsComputed = 0;
  /// Kernels (roots of the device code) whose models were kept from the
  /// document's last analysis, and those optimised and translated anew.
  uint64_t KernelsKept = 0, KernelsOptimised = 0;
  /// The text of File when it was analysed (Of.Unsaved's, else the disk's).
  std::string textOf(const std::string &File) const;
  const std::string &text() const; ///< the document's own
};

class Workspace {
public:
  explicit Workspace(ServerSetup Setup) : Setup(std::move(Setup)) {}

  /// initializationOptions.compilationDatabasePath (a build directory or the
  /// file); it replaces -p.
  void setDatabasePath(const std::string &Path);
  /// Files changed on disk (a save): preambles that did not compile are
  /// tried again.
  void filesChanged() { Preambles.forgetFailures(); }

  BufferResult analyse(const Snapshot &S);
  /// The document is closed: its verdicts are dropped.
  void close(const std::string &Path);

private:
  /// The database for File (null: none, flags "clang++ File" or "--"'s),
  /// or an error.
  std::shared_ptr<const CompileCommands> database(const std::string &File, std::string &Error);

  struct LoadedDatabase {
    llvm::sys::TimePoint<> Modified;
    uint64_t Size = 0;
    std::shared_ptr<const CompileCommands> Commands;
  };
  ServerSetup Setup;
  PreambleCache Preambles;
  std::mutex Lock; ///< guards the two below
  std::string DatabasePath;
  std::map<std::string, LoadedDatabase> Databases;
  /// Per document: the verdicts and the kernels' models its last analysis
  /// used, for the next.
  struct DocumentMemos;
  std::map<std::string, std::shared_ptr<DocumentMemos>> Memos;
};

} // namespace cbl

#endif
