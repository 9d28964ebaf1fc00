//===- Scheduler.h - When each open document is analysed ------------------===//
//
// The open documents and their latest analysis. Analyses run one at a time
// on a thread of their own (8 MiB of stack, as Clang wants), never on the
// message loop: a document is analysed at once when opened and Debounce
// after its last change (or a save); a change that arrives while its
// analysis runs supersedes it: that result is dropped, never published, and
// the new text is analysed next. Requests that need the analysis of the
// current text (hover, code actions) wait for it; a request can be
// cancelled while it waits.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SERVER_SCHEDULER_H
#define CUDA_BANK_LINT_SERVER_SCHEDULER_H

#include "cuda-bank-lint/Server/Workspace.h"

#include "llvm/Support/thread.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

class Scheduler {
public:
  using Result = std::shared_ptr<const BufferResult>;
  using Analyse = std::function<BufferResult(const Snapshot &)>;
  /// Called with each result that is current (on the analysis thread), and
  /// with null when a document is closed (on the closing thread); never two
  /// at a time, so a closed document's last result cannot follow its null.
  using Publish = std::function<void(const std::string &Uri, const Result &)>;
  using Waiter = std::function<void(const Result &)>;

  Scheduler(Analyse A, Publish P);
  ~Scheduler(); ///< stops (the analysis running is finished first)

  void setDebounce(std::chrono::milliseconds D);
  void open(const std::string &Uri, const std::string &Path, int64_t Version, std::string Text);
  /// False when Uri is not open.
  bool change(const std::string &Uri, int64_t Version, std::string Text);
  /// Every open document again, after the debounce (files changed on disk).
  void reanalyseAll();
  void close(const std::string &Uri);
  /// The text of an open document (for incremental changes), or null.
  std::optional<std::string> text(const std::string &Uri);

  /// Calls Then with the analysis of Uri's current text: now (on this
  /// thread) when there is one, else when it is done (on the analysis
  /// thread); with null when Uri is not open or is closed first. Id names
  /// the wait for cancel().
  void whenAnalysed(const std::string &Uri, const std::string &Id, Waiter Then);
  /// Drops the wait named Id; false when it is not waiting (any more).
  bool cancel(const std::string &Id);
  void stop();

private:
  struct Document {
    std::string Path;
    int64_t Version = 0;
    std::string Text;
    bool Due = false; ///< an analysis of Text is wanted
    std::chrono::steady_clock::time_point At;
    Result Latest; ///< of Text, when !Due and Latest->Of.Version == Version
    std::vector<std::pair<std::string, Waiter>> Waiting;
  };
  void loop();
  /// The open document whose analysis is due first, if any is due.
  std::map<std::string, Document>::iterator next();
  Snapshot snapshot(const std::string &Uri, const Document &D) const;

  Analyse Run;
  Publish Out;
  std::mutex PublishLock; ///< taken before Lock
  std::mutex Lock;
  std::condition_variable Wake;
  std::map<std::string, Document> Docs;
  std::chrono::milliseconds Debounce{300};
  bool Stopping = false;
  std::optional<llvm::thread> Worker;
};

} // namespace cbl

#endif
