//===- Progress.cpp - Terminal progress line -------------------------------===//
#include "cuda-bank-lint/Driver/Progress.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace cbl {

Progress::Progress(size_t Total, bool Enabled, std::chrono::milliseconds Delay)
    : Total(Total), Enabled(Enabled), Delay(Delay) {}

bool Progress::interactive() {
  for (const char *Var : {"CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD"})
    if (llvm::sys::Process::GetEnv(Var))
      return false;
  auto Term = llvm::sys::Process::GetEnv("TERM");
  if (Term && *Term == "dumb")
    return false;
  return llvm::sys::Process::StandardErrIsDisplayed();
}

void Progress::fileDone(const std::string &File) {
  std::lock_guard<std::mutex> G(Lock);
  ++Done;
  if (!Enabled || std::chrono::steady_clock::now() - Start < Delay)
    return;
  Shown = true;
  // \r and "erase to end of line": the next update overwrites this one.
  llvm::errs() << "\r\x1b[K[" << Done << "/" << Total << "] " << File;
  llvm::errs().flush();
}

void Progress::interrupt(const std::function<void()> &Print) {
  std::lock_guard<std::mutex> G(Lock);
  if (Shown)
    llvm::errs() << "\r\x1b[K";
  llvm::errs().flush();
  Shown = false;
  Print();
}

void Progress::finish() {
  std::lock_guard<std::mutex> G(Lock);
  if (Shown)
    llvm::errs() << "\r\x1b[K";
  Shown = false;
}

} // namespace cbl
