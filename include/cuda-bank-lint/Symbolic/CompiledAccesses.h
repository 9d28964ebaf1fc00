//===- CompiledAccesses.h - The shared-memory instructions nvcc emits -----===//
//
// The front end records accesses as written. nvcc's load/store vectoriser
// (LLVM's LoadStoreVectorizer in NVVM) merges adjacent scalar accesses of one
// straight-line stretch of code into one 64- or 128-bit instruction when it
// can prove the address aligned: `a = s[2*t]; b = s[2*t+1];` is one LDS.64, a
// struct of four floats copied to `s[i]` is one STS.128, the four component
// stores of a float4 are one STS.128. The hardware then serves the wide
// access, whose bank cost differs from the scalar ones' (often it has no
// conflict where the scalars have one). Measured on an H100: the
// ground-truth rows whose measured access size is wider than the source's.
//
// The rule modelled, from LLVM's vectoriser:
//  - candidates are plain loads or plain stores (not volatile, not atomic) of
//    1, 2, 4 or 8 bytes to the same shared variable, in the same Region
//    (SharedAccess::Region: no branch, loop boundary or barrier between them),
//    under the same guards, with no access of the other direction to that
//    variable between them;
//  - their byte offsets differ by constants (the same base expression), and
//    together they cover a contiguous 2-, 4-, 8- or 16-byte chunk (wider than
//    one of them) whose start is provably aligned to its size: the offset's
//    known trailing zero bits, with the variable aligned as ptxas places it
//    (16 bytes for 4- and 8-byte accesses; for shorts the declared alignment,
//    at least 4; for bytes the declared alignment: SASS of nvcc 13);
//  - a merged load is placed at the first load (program order), a merged
//    store at the last store, which is where Nsight Compute attributes it;
//  - the iterations of a small constant loop (counter from a constant, step
//    1, constant bound, at most 64 iterations, which nvcc unrolls) whose
//    offset advances by the access's width are merged the same way, when the
//    access is the only one to its variable in the loop: one wide access
//    every k-th iteration (a guard on the counter).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_COMPILEDACCESSES_H
#define CUDA_BANK_LINT_SYMBOLIC_COMPILEDACCESSES_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include <vector>

namespace cbl {

/// Accesses as the compiler emits them: merged ones replaced by one access
/// of the combined width (SharedAccess::MergedWith names the others), the
/// rest unchanged, in program order.
std::vector<SharedAccess> asCompiled(const std::vector<SharedAccess> &Accesses,
                                     const std::vector<SharedArray> &Arrays,
                                     const std::vector<LoopInfo> &Loops);

} // namespace cbl

#endif
