//===- Scheduler.cpp - When each open document is analysed -----------------===//
#include "cuda-bank-lint/Server/Scheduler.h"

namespace cbl {

namespace {
using Clock = std::chrono::steady_clock;
constexpr unsigned AnalysisStack = 8u << 20; // clang::DesiredStackSize
} // namespace

Scheduler::Scheduler(Analyse A, Publish P) : Run(std::move(A)), Out(std::move(P)) {
  Worker.emplace(std::optional<unsigned>(AnalysisStack), [this] { loop(); });
}

Scheduler::~Scheduler() { stop(); }

void Scheduler::stop() {
  {
    std::lock_guard<std::mutex> G(Lock);
    Stopping = true;
  }
  Wake.notify_all();
  if (Worker && Worker->joinable())
    Worker->join();
}

void Scheduler::setDebounce(std::chrono::milliseconds D) {
  std::lock_guard<std::mutex> G(Lock);
  Debounce = D;
}

void Scheduler::open(const std::string &Uri, const std::string &Path, int64_t Version,
                     std::string Text) {
  {
    std::lock_guard<std::mutex> G(Lock);
    Document &D = Docs[Uri];
    D.Path = Path;
    D.Version = Version;
    D.Text = std::move(Text);
    D.Due = true;
    D.At = Clock::now(); // a file just opened: no reason to wait
  }
  Wake.notify_all();
}

bool Scheduler::change(const std::string &Uri, int64_t Version, std::string Text) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Docs.find(Uri);
    if (It == Docs.end())
      return false;
    It->second.Version = Version;
    It->second.Text = std::move(Text);
    It->second.Due = true;
    It->second.At = Clock::now() + Debounce;
  }
  Wake.notify_all();
  return true;
}

void Scheduler::reanalyseAll() {
  {
    std::lock_guard<std::mutex> G(Lock);
    for (auto &[Uri, D] : Docs) {
      D.Due = true;
      D.At = Clock::now() + Debounce;
    }
  }
  Wake.notify_all();
}

void Scheduler::close(const std::string &Uri) {
  std::vector<std::pair<std::string, Waiter>> Orphans;
  {
    std::lock_guard<std::mutex> P(PublishLock);
    {
      std::lock_guard<std::mutex> G(Lock);
      auto It = Docs.find(Uri);
      if (It == Docs.end())
        return;
      Orphans = std::move(It->second.Waiting);
      Docs.erase(It);
    }
    Out(Uri, nullptr);
  }
  for (auto &[Id, Then] : Orphans)
    Then(nullptr);
}

std::optional<std::string> Scheduler::text(const std::string &Uri) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Docs.find(Uri);
  if (It == Docs.end())
    return std::nullopt;
  return It->second.Text;
}

void Scheduler::whenAnalysed(const std::string &Uri, const std::string &Id, Waiter Then) {
  Result Now;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Docs.find(Uri);
    if (It != Docs.end()) {
      Document &D = It->second;
      if (D.Due || !D.Latest || D.Latest->Of.Version != D.Version) {
        D.Waiting.push_back({Id, std::move(Then)});
        return;
      }
      Now = D.Latest;
    }
  }
  Then(Now);
}

bool Scheduler::cancel(const std::string &Id) {
  std::lock_guard<std::mutex> G(Lock);
  for (auto &[Uri, D] : Docs)
    for (auto It = D.Waiting.begin(); It != D.Waiting.end(); ++It)
      if (It->first == Id) {
        D.Waiting.erase(It);
        return true;
      }
  return false;
}

std::map<std::string, Scheduler::Document>::iterator Scheduler::next() {
  auto First = Docs.end();
  for (auto It = Docs.begin(); It != Docs.end(); ++It)
    if (It->second.Due && (First == Docs.end() || It->second.At < First->second.At))
      First = It;
  return First;
}

Snapshot Scheduler::snapshot(const std::string &Uri, const Document &D) const {
  auto Texts = std::make_shared<UnsavedFiles>();
  for (const auto &[OtherUri, Other] : Docs)
    Texts->set(Other.Path, Other.Text);
  return Snapshot{Uri, D.Path, D.Version, std::move(Texts)};
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> L(Lock);
  while (!Stopping) {
    auto It = next();
    if (It == Docs.end()) {
      Wake.wait(L);
      continue;
    }
    if (It->second.At > Clock::now()) {
      Wake.wait_until(L, It->second.At);
      continue; // something may have changed meanwhile
    }
    It->second.Due = false;
    Snapshot S = snapshot(It->first, It->second);
    L.unlock();
    Result R = std::make_shared<const BufferResult>(Run(S));
    std::unique_lock<std::mutex> P(PublishLock);
    L.lock();
    auto Now = Docs.find(S.Uri);
    // Closed, or changed while it ran (superseded): drop it.
    if (Now == Docs.end() || Now->second.Due || Now->second.Version != S.Version)
      continue;
    Now->second.Latest = R;
    std::vector<std::pair<std::string, Waiter>> Ready = std::move(Now->second.Waiting);
    Now->second.Waiting.clear();
    L.unlock();
    Out(S.Uri, R);
    P.unlock();
    for (auto &[Id, Then] : Ready)
      Then(R);
    L.lock();
  }
}

} // namespace cbl
