//===- BankGrid.h - Where one warp instruction's words go: banks x wavefronts --===//
//
// The picture people draw of a bank conflict: 32 bank columns, one row per
// wavefront, in each cell the word a bank delivers in that wavefront and the
// lanes that access it. It is laid out by the same rules costOf applies
// (phases, the load merge, the atomic rules), so a load's or store's grid has
// exactly BankCost::Wavefronts rows. The HTML report draws it as SVG and the
// language server's hover as text (Report/BankGridView.h renders both).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_BANKMODEL_BANKGRID_H
#define CUDA_BANK_LINT_BANKMODEL_BANKGRID_H

#include "cuda-bank-lint/BankModel/BankModel.h"

#include <cstdint>
#include <vector>

namespace cbl {

/// What one row of a grid stands for.
enum class GridRows {
  Wavefronts,     ///< loads, stores and native atomics: one row, one wavefront
  CasPairs,       ///< atomicCAS: one row, two wavefronts (no broadcast)
  LoopIterations, ///< a compare-and-swap loop: one row, one iteration (lanes: who succeeds)
};
/// "wavefront", "pair of wavefronts", "iteration".
const char *gridRowsName(GridRows R);

/// One word of one bank served in one row, and the lanes that access it
/// (several: a broadcast on a load, one writer winning on a store, sub-word
/// accesses sharing the word). A lane wider than a word is in several cells.
struct GridCell {
  unsigned Row = 0;
  unsigned Bank = 0;
  uint64_t Word = 0;   ///< byte offset / bytes per bank word
  uint32_t Lanes = 0;  ///< bit i: lane i
};

/// The lanes served together (a phase: a quarter-warp for 16 bytes, ...) and
/// the rows they take.
struct GridPhase {
  uint32_t Lanes = 0;
  unsigned FirstRow = 0;
  unsigned Rows = 0;
};

struct BankGrid {
  GridRows Meaning = GridRows::Wavefronts;
  unsigned Rows = 0;
  unsigned Banks = 32;
  std::vector<GridPhase> Phases; ///< those with an active lane, in order
  std::vector<GridCell> Cells;   ///< by row, then bank
  bool empty() const { return Rows == 0; }
};

/// The grid of Access: per phase, each bank's distinct words in the order of
/// the lowest lane that accesses each (lane 0's word first), one per row;
/// atomics: each lane of a bank in its own row (native, atomicCAS), or in the
/// row of the loop iteration in which it succeeds (casLoopRounds). Empty when
/// no lane is active or the width is invalid.
BankGrid bankGrid(const WarpAccess &Access, BankArch Arch = BankArch::Sm70Plus);

} // namespace cbl

#endif
