//===- WarpAccesses.h - Warp instructions for the bank-model unit tests ---===//
//
// One warp instruction from a rule for its lanes' addresses, and from a row
// of the measured tables under test/data (MeasuredTable.h reads them).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_TEST_UNIT_WARPACCESSES_H
#define CUDA_BANK_LINT_TEST_UNIT_WARPACCESSES_H

#include "cuda-bank-lint/BankModel/BankModel.h"

#include <functional>
#include <string>
#include <vector>

namespace cbl::test {

/// Lane L at byte Addr(L), the lanes of Mask active.
inline WarpAccess warpAccess(unsigned Width, AccessOp Op, std::function<uint64_t(unsigned)> Addr,
                             uint32_t Mask = 0xffffffffu) {
  WarpAccess A;
  A.Width = Width;
  A.Op = Op;
  A.ActiveMask = Mask;
  for (unsigned L = 0; L < WarpSize; ++L)
    A.ByteAddr[L] = Addr(L);
  return A;
}

/// A row of h100-matrix.csv (op, class, ld/st, address lanes, wavefronts,
/// conflicts, 32 row addresses): the ldmatrix or stmatrix it measured.
inline WarpAccess matrixRowAccess(const std::vector<std::string> &F) {
  WarpAccess A = warpAccess(16, F[2] == "ld" ? AccessOp::Load : AccessOp::Store,
                            [&](unsigned L) { return std::stoull(F[6 + L]); },
                            uint32_t(std::stoul(F[3], nullptr, 16)));
  A.Matrix = true;
  return A;
}

} // namespace cbl::test

#endif
