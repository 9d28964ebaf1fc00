//===- ParallelFor.h - One file's analyses on a pool -----------------------===//
//
// The checks' analyses of accesses are pure functions of the model (the
// verdict memo only saves work), so where the file has workers
// (CheckContext::Threads) they run on a pool and land in their own slots:
// the results, and everything built from them, are those of a run in order.
// An internal failure in a worker is not recovered there: that item runs
// again in the calling thread, under the caller's recovery, which names the
// function (runChecks). Private to lib/Checks.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_PARALLELFOR_H
#define CUDA_BANK_LINT_LIB_CHECKS_PARALLELFOR_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace cbl {

/// Body(0), ..., Body(N - 1), on up to Threads threads (1: in this thread,
/// in order). Each call must write only what index I owns.
void parallelFor(unsigned Threads, size_t N, llvm::function_ref<void(size_t)> Body);

} // namespace cbl

#endif
