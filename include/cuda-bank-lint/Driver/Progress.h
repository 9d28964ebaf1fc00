//===- Progress.h - "[3/120] file.cu" on a terminal, never in logs --------===//
//
// Shown only when stderr is a terminal, no CI variable is set (CI,
// GITHUB_ACTIONS, ...) and the run has lasted longer than a delay (one
// second): short runs and pipes stay clean. The line is erased when done.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_PROGRESS_H
#define CUDA_BANK_LINT_DRIVER_PROGRESS_H

#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace cbl {

class Progress {
public:
  Progress(size_t Total, bool Enabled, std::chrono::milliseconds Delay);
  ~Progress() { finish(); }
  /// Thread-safe; called as each file finishes.
  void fileDone(const std::string &File);
  void finish();
  /// Thread-safe: erases the progress line, if shown, before Print writes
  /// (the next update draws it again).
  void interrupt(const std::function<void()> &Print);
  /// stderr is a terminal and the environment is not a CI job.
  static bool interactive();

private:
  std::mutex Lock;
  size_t Total, Done = 0;
  bool Enabled, Shown = false;
  std::chrono::milliseconds Delay;
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

} // namespace cbl

#endif
