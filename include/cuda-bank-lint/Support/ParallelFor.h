//===- ParallelFor.h - Independent work of one file on a pool --------------===//
//
// The checks' analyses of accesses and the optimisation of a unit's groups
// of kernels are pure functions of their input, so where the file has
// workers they run on a pool and land in their own slots: the results, and
// everything built from them, are those of a run in order. An internal
// failure in a worker is not recovered there: that item runs again in the
// calling thread, under the caller's recovery (which names what failed).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SUPPORT_PARALLELFOR_H
#define CUDA_BANK_LINT_SUPPORT_PARALLELFOR_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ThreadPool.h"

#include <cstddef>
#include <vector>

namespace cbl {

/// Body(0), ..., Body(N - 1), on up to Threads threads (1: in this thread,
/// in order). Each call must write only what index I owns. After a failure
/// in a worker, AfterFailure (when given) runs there before the item is run
/// again in this thread.
inline void parallelFor(unsigned Threads, size_t N, llvm::function_ref<void(size_t)> Body,
                        llvm::function_ref<void()> AfterFailure = {}) {
  if (Threads <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I)
      Body(I);
    return;
  }
  std::vector<char> Failed(N, 0);
  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (size_t I = 0; I < N; ++I)
      Pool.async([&, I] {
        llvm::CrashRecoveryContext Recovery;
        if (!Recovery.RunSafely([&] { Body(I); })) {
          if (AfterFailure)
            AfterFailure();
          Failed[I] = 1;
        }
      });
    Pool.wait();
  }
  for (size_t I = 0; I < N; ++I)
    if (Failed[I])
      Body(I);
}

} // namespace cbl

#endif
