//===- BarrierWitness.h - Do the threads of a block agree on a barrier? ----===//
//
// The barrier analysis beside the warp analysis: the guards a barrier (or a
// call that executes one) runs under are evaluated for every thread of the
// block, over the block shapes and values of the warp-uniform unknowns that
// could witness a disagreement, and the worst outcome is kept with its
// witness (which lanes reach it, which leave, which guard decided). The
// check (lib/Checks/BarrierDivergenceCheck.cpp) only words it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_BARRIERWITNESS_H
#define CUDA_BANK_LINT_SYMBOLIC_BARRIERWITNESS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cbl {

/// From harmless to worst: nobody disagrees; threads may have returned
/// (unknown which); some did; a data-dependent condition may split them;
/// whole warps disagree; lanes of one warp disagree.
enum class BarrierClass { None, EarlyExitUnknown, EarlyExit, DataDependent, AcrossWarps, WithinWarp };
inline int rank(BarrierClass C) { return int(C); }

/// One candidate situation: block shape and values of the uniform unknowns.
struct BarrierSituation {
  std::array<unsigned, 3> Dim{{32, 1, 1}};
  std::map<std::string, int64_t> Values;
  unsigned threads() const { return Dim[0] * Dim[1] * Dim[2]; }
};

/// A condition on the block shape that tells the shapes tried at which
/// something happens from those at which it does not (stated when the
/// shape is not known, instead of one shape taken for a fact).
struct ShapeCondition {
  enum class Kind {
    Always,            ///< at every shape tried
    SeveralRows,       ///< blockDim.y or blockDim.z > 1
    SeveralLayers,     ///< blockDim.z > 1
    RowNotWarpMultiple,///< blockDim.x is not a multiple of 32
    MoreThreads,       ///< more than Threads threads in the block
    SomeShapes         ///< no simpler condition: at some of the shapes tried
  };
  Kind K = Kind::Always;
  unsigned Threads = 0;
};

/// What the threads of one situation do.
struct BarrierOutcome {
  BarrierClass C = BarrierClass::None;
  BarrierSituation S;
  std::vector<uint32_t> Reach, Skip, ExitSkip; ///< lane masks per warp
  std::vector<int> Decider;                    ///< per thread: guard that stopped it
  int UnknownGuard = -1;                       ///< first guard not decidable
  bool ExitSkipWithinWarp = false;
  /// With the block shape not known (S.Dim is the witness's shape, one of
  /// several tried): at which shapes the threads disagree (within or across
  /// warps), and, of those, at which they disagree within a warp.
  bool ShapeUnknown = false;
  ShapeCondition Diverges, WithinWarp;
};

/// A guard from an early return (threads gone for good).
bool isReturnGuard(const Guard &G);

/// The worst outcome over the block shapes (the known one, else the widths
/// people launch with, within __launch_bounds__'s thread count) and the values of the uniform unknowns tried, within a
/// budget of thread evaluations; the first situation found of that class.
BarrierOutcome classifyBarrier(const std::vector<Guard> &Guards, const BlockShape &Shape,
                               const std::vector<SharedArray> &Arrays);

/// Blocks that disagree about a grid-wide barrier: block 0 and the block
/// with blockIdx component Name = Value, in a grid of GridSize blocks along
/// each gridDim component the guards read (0 when they read none).
struct GridWitness {
  std::string Name;
  int64_t Value = 0;
  unsigned GridSize = 0;
};

/// For a grid-wide barrier: a block that reaches it while block 0 does not
/// (or the reverse), if the guards depend on blockIdx.
std::optional<GridWitness>
gridBarrierWitness(const std::vector<Guard> &Guards, const BlockShape &Shape,
                   const std::vector<SharedArray> &Arrays);

} // namespace cbl

#endif
