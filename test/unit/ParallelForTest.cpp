// parallelFor (Support/ParallelFor.h): every index once, in its own slot,
// and an internal failure in a worker reaches the caller's recovery.
#include "cuda-bank-lint/Support/ParallelFor.h"

#include "llvm/Support/Compiler.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace cbl;

TEST(ParallelFor, EveryIndexOnceInItsSlot) {
  for (unsigned Threads : {1u, 2u, 4u}) {
    std::vector<int> Runs(1000, 0);
    parallelFor(Threads, Runs.size(), [&](size_t I) { Runs[I] += int(I) + 1; });
    for (size_t I = 0; I < Runs.size(); ++I)
      EXPECT_EQ(Runs[I], int(I) + 1) << Threads << " threads, index " << I;
  }
}

TEST(ParallelFor, AFailureInAWorkerIsRunAgainUnderTheCallersRecovery) {
  llvm::CrashRecoveryContext::Enable();
  const std::thread::id Caller = std::this_thread::get_id();
  std::vector<int> Runs(8, 0);
  bool FailedInCaller = false;
  llvm::CrashRecoveryContext Outer;
  bool Ok = Outer.RunSafely([&] {
    parallelFor(2, Runs.size(), [&](size_t I) {
      ++Runs[I];
      if (I == 5) {
        FailedInCaller = std::this_thread::get_id() == Caller;
        LLVM_BUILTIN_TRAP;
      }
    });
  });
  EXPECT_FALSE(Ok);             // the caller's recovery saw the failure
  EXPECT_TRUE(FailedInCaller);  // where it was run again
  EXPECT_EQ(Runs[5], 2);        // once in a worker, once in the caller
  for (size_t I = 0; I < Runs.size(); ++I)
    if (I != 5)
      EXPECT_EQ(Runs[I], 1);
}
