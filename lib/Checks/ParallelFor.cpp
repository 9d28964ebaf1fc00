//===- ParallelFor.cpp - One file's analyses on a pool ---------------------===//
#include "ParallelFor.h"
#include "cuda-bank-lint/Checks/InProgress.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ThreadPool.h"

#include <vector>

namespace cbl {

void parallelFor(unsigned Threads, size_t N, llvm::function_ref<void(size_t)> Body) {
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
          FunctionInProgress::reset();
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
