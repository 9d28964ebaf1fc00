//===- Wmma.h - WMMA fragment loads and stores as the instructions they are -===//
//
// A wmma::load_matrix_sync or store_matrix_sync on shared memory is several
// shared-memory instructions, each with the per-lane addresses of the MMA
// fragment it fills. What nvcc 13 emits for sm_90, checked against 240
// single-operation measurements on an H100 (test/data/h100-wmma.csv,
// utils/oracles/shared-wmma.cu; test/unit/WmmaModelTest.cpp):
//  - f16 A and B fragments (m16n16k16), either layout: one LDSM.x4 (.trans
//    for the other layout): 16 memory rows of 16 elements, lanes 0-15 give
//    rows 0-15 of the left half, lanes 16-31 of the right;
//  - bf16 A and B (m16n16k16): four 32-bit generic loads (LD.E) of element
//    pairs, rows group and group + 8, pairs t and t + 4 (lane = 4 * group + t);
//  - tf32 A and B (m16n16k8): four 32-bit generic loads (LD.E) in the
//    mma.m16n8k8 fragment layout;
//  - f32 accumulators (m16n16k16): row-major, four LDS.64/STS.64 of element
//    pairs; column-major, eight LDS.32/STS.32.
// Each part gives, for every lane, the memory row (stepped by the leading
// dimension) and the element in it:
//   row = RowQ * (lane / Div) + RowR * (lane % Mod) + RowK, the same for col,
// and the byte address is base + (row * ldm + col) * element bytes.
// Other shapes (m32n8k16, m8n32k16) and integer types were not measured.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_BANKMODEL_WMMA_H
#define CUDA_BANK_LINT_BANKMODEL_WMMA_H

#include <optional>
#include <string>
#include <vector>

namespace cbl {

enum class WmmaFragment { A, B, Accumulator };

enum class WmmaType { F16, BF16, TF32, F32, Other };

struct WmmaOperation {
  WmmaFragment Fragment = WmmaFragment::A;
  bool RowMajor = true;       ///< the layout in memory
  WmmaType Type = WmmaType::F16;
  bool Store = false;         ///< store_matrix_sync (accumulators only)
  unsigned elementBytes() const { return Type == WmmaType::F16 || Type == WmmaType::BF16 ? 2 : 4; }
};

struct WmmaPart {
  unsigned Width = 4;  ///< bytes per lane
  bool Matrix = false; ///< an LDSM (ldmatrix rule), else LDS/STS
  unsigned Div = 4, Mod = 4;
  int RowQ = 0, RowR = 0, RowK = 0;
  int ColQ = 0, ColR = 0, ColK = 0;
  unsigned rowOf(unsigned Lane) const { return unsigned(RowQ * int(Lane / Div) + RowR * int(Lane % Mod) + RowK); }
  unsigned colOf(unsigned Lane) const { return unsigned(ColQ * int(Lane / Div) + ColR * int(Lane % Mod) + ColK); }
};

/// The instructions of one fragment operation; nullopt when not measured.
std::optional<std::vector<WmmaPart>> wmmaParts(const WmmaOperation &Op);

/// "load_matrix_sync of a 16-bit A fragment (row-major)".
std::string describeWmma(const WmmaOperation &Op);

} // namespace cbl

#endif
