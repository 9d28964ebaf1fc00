//===- WarpAnalysis.h - Bank cost of an access for every warp of a block --===//
//
// Evaluates one SharedAccess for each warp of the block (32 consecutive linear
// thread ids, x fastest), computes each warp's active lanes from the guards
// and each lane's byte address, asks the bank model for the cost, and keeps
// the worst warp. When the addresses depend on warp-uniform unknowns only
// through one common additive offset whose possible values are multiples of
// 4 bytes, the cost provably does not depend on them (the bank model is
// invariant under such shifts), and the verdict stays exact.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_WARPANALYSIS_H
#define CUDA_BANK_LINT_SYMBOLIC_WARPANALYSIS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/BankModel/BankModel.h"

#include <array>
#include <string>
#include <vector>

namespace cbl {

enum class VerdictStatus { Exact, Unknown, DataDependent };
const char *verdictStatusName(VerdictStatus S);

struct AccessVerdict {
  VerdictStatus Status = VerdictStatus::Unknown;
  std::string Reason;               ///< why not exact
  BankCost Cost;                    ///< of the worst warp
  unsigned Warp = 0;                ///< the worst warp
  unsigned WarpsEvaluated = 0;
  uint32_t Mask = 0;                ///< active lanes of the worst warp
  std::array<uint64_t, WarpSize> Addr{}; ///< byte offsets of the worst warp
  std::array<std::array<unsigned, 3>, WarpSize> Tid{}; ///< threadIdx per lane
  std::vector<std::string> Parameters; ///< uniform unknowns the verdict holds for
  std::vector<std::string> AssumedUniform; ///< uniform guards assumed taken
  bool NeverExecuted = false;       ///< no thread of the block runs it
  /// Sums over every warp of one block for one execution of the access (what
  /// Nsight Compute adds up per source line); meaningful for a known shape.
  uint64_t BlockWavefronts = 0;
  uint64_t BlockIdeal = 0;
};

/// How the block is laid out for evaluation.
struct EvalShape {
  std::array<unsigned, 3> Dim{{0, 1, 1}}; ///< Dim[0] == 0: 1-D, unknown size
  unsigned Warps = 1;
};

/// The warps to evaluate: all warps of a known shape; for an unknown shape, a
/// 1-D block of up to 1024 threads whose blockDim.x is a warp-uniform unknown.
EvalShape evalShapeFor(const BlockShape &Shape);

/// Analyses Access over every warp. PaddedArray/Padding evaluate a layout
/// with the innermost dimension of that array padded (for fix-its).
AccessVerdict analyseAccess(const SharedAccess &Access, const std::vector<SharedArray> &Arrays,
                            const EvalShape &Shape, BankArch Arch, int PaddedArray = -1,
                            unsigned Padding = 0);

} // namespace cbl

#endif

namespace cbl {
/// The byte offset of an access as C text, with array strides resolved, e.g.
/// "threadIdx.x * 132 + threadIdx.y * 4".
std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays);
} // namespace cbl
