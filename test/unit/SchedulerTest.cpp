//===- SchedulerTest.cpp - When the language server analyses --------------===//
//
// With an analysis that the test holds up: a change during an analysis
// supersedes it (its result is never published, the new text is analysed
// next); changes within the debounce are analysed once; a waiting request
// gets the analysis of the current text, or is cancelled, or gets null
// when its document closes.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Server/Scheduler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace cbl {
namespace {

using namespace std::chrono_literals;

/// Records every analysis and publication; an analysis of a version in
/// Hold waits until release().
struct Recorder {
  std::mutex Lock;
  std::condition_variable Changed;
  std::vector<int64_t> Analysed, Published;
  std::vector<std::string> Cleared;
  std::set<int64_t> Hold;
  std::vector<size_t> Buffers; ///< open buffers each analysis saw
  bool Started = false;

  BufferResult analyse(const Snapshot &S) {
    std::unique_lock<std::mutex> L(Lock);
    Analysed.push_back(S.Version);
    Buffers.push_back(S.Unsaved->all().size());
    Started = true;
    Changed.notify_all();
    Changed.wait(L, [&] { return !Hold.count(S.Version); });
    BufferResult R;
    R.Of = S;
    return R;
  }
  void publish(const std::string &Uri, const Scheduler::Result &R) {
    std::lock_guard<std::mutex> G(Lock);
    if (R)
      Published.push_back(R->Of.Version);
    else
      Cleared.push_back(Uri);
    Changed.notify_all();
  }
  void hold(int64_t V) {
    std::lock_guard<std::mutex> G(Lock);
    Hold.insert(V);
  }
  void release(int64_t V) {
    std::lock_guard<std::mutex> G(Lock);
    Hold.erase(V);
    Changed.notify_all();
  }
  template <class F> bool waitFor(F Done) {
    std::unique_lock<std::mutex> L(Lock);
    return Changed.wait_for(L, 20s, Done);
  }
};

struct SchedulerTest : ::testing::Test {
  Recorder R;
  Scheduler S{[this](const Snapshot &Sn) { return R.analyse(Sn); },
              [this](const std::string &U, const Scheduler::Result &Res) { R.publish(U, Res); }};
};

TEST_F(SchedulerTest, AChangeDuringAnAnalysisSupersedesIt) {
  S.setDebounce(0ms);
  R.Hold = {1};
  S.open("file:///k.cu", "/k.cu", 1, "v1");
  ASSERT_TRUE(R.waitFor([&] { return R.Started; }));
  S.change("file:///k.cu", 2, "v2");
  R.release(1);
  ASSERT_TRUE(R.waitFor([&] { return !R.Published.empty(); }));
  EXPECT_EQ(R.Analysed, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(R.Published, (std::vector<int64_t>{2})); // version 1's result dropped
}

TEST_F(SchedulerTest, ChangesWithinTheDebounceAreAnalysedOnce) {
  S.setDebounce(300ms);
  S.open("file:///k.cu", "/k.cu", 1, "v1");
  ASSERT_TRUE(R.waitFor([&] { return R.Published.size() == 1; }));
  for (int64_t V = 2; V <= 5; ++V)
    S.change("file:///k.cu", V, "v" + std::to_string(V));
  ASSERT_TRUE(R.waitFor([&] { return R.Published.size() == 2; }));
  EXPECT_EQ(R.Analysed, (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(R.Published, (std::vector<int64_t>{1, 5}));
}

TEST_F(SchedulerTest, RequestsWaitForTheCurrentText) {
  S.setDebounce(0ms);
  R.Hold = {1};
  S.open("file:///k.cu", "/k.cu", 1, "v1");
  std::mutex Lock;
  std::vector<int64_t> Answered;
  auto Record = [&](const Scheduler::Result &Res) {
    std::lock_guard<std::mutex> G(Lock);
    Answered.push_back(Res ? Res->Of.Version : -1);
  };
  S.whenAnalysed("file:///k.cu", "1", Record);
  S.whenAnalysed("file:///k.cu", "2", Record);
  EXPECT_TRUE(S.cancel("2"));
  EXPECT_FALSE(S.cancel("2"));
  R.release(1);
  ASSERT_TRUE(R.waitFor([&] { return R.Published.size() == 1; }));
  for (int I = 0; I < 10000; ++I) { // answered on the analysis thread, after publishing
    {
      std::lock_guard<std::mutex> G(Lock);
      if (!Answered.empty())
        break;
    }
    std::this_thread::sleep_for(1ms);
  }
  S.whenAnalysed("file:///k.cu", "3", Record); // up to date: answered at once
  {
    std::lock_guard<std::mutex> G(Lock);
    EXPECT_EQ(Answered, (std::vector<int64_t>{1, 1}));
  }
  // A request that waits when its document closes gets null.
  R.hold(2);
  S.change("file:///k.cu", 2, "v2");
  S.whenAnalysed("file:///k.cu", "4", Record);
  S.close("file:///k.cu");
  R.release(2);
  S.whenAnalysed("file:///other.cu", "5", Record); // never opened: null
  std::lock_guard<std::mutex> G(Lock);
  EXPECT_EQ(Answered, (std::vector<int64_t>{1, 1, -1, -1}));
  EXPECT_EQ(R.Cleared, (std::vector<std::string>{"file:///k.cu"}));
}

TEST_F(SchedulerTest, EveryAnalysisSeesEveryOpenBuffer) {
  S.setDebounce(0ms);
  R.Hold = {1};
  S.open("file:///a.cuh", "/a.cuh", 1, "header");
  ASSERT_TRUE(R.waitFor([&] { return R.Started; }));
  S.open("file:///b.cu", "/b.cu", 7, "#include \"a.cuh\"");
  R.release(1);
  ASSERT_TRUE(R.waitFor([&] { return R.Published.size() == 2; }));
  EXPECT_EQ(R.Analysed, (std::vector<int64_t>{1, 7}));
  EXPECT_EQ(R.Buffers, (std::vector<size_t>{1, 2}));
}

} // namespace
} // namespace cbl
