//===- Wmma.cpp - WMMA fragment loads and stores as the instructions they are -===//
#include "cuda-bank-lint/BankModel/Wmma.h"

namespace cbl {

namespace {

/// One LDSM.x4 over 16 memory rows of 16 two-byte elements.
WmmaPart ldsmRows() {
  WmmaPart P;
  P.Width = 16;
  P.Matrix = true;
  P.Div = 16;
  P.Mod = 16;
  P.RowR = 1;  // lane % 16
  P.ColQ = 8;  // lanes 16-31: the right half
  return P;
}

} // namespace

std::optional<std::vector<WmmaPart>> wmmaParts(const WmmaOperation &Op) {
  std::vector<WmmaPart> Parts;
  auto Element = [&](unsigned Width, int Row, int Col, int ColStep, bool Transposed) {
    // Row = group + Row, Col = ColStep * t + Col in the fragment's terms.
    WmmaPart P;
    P.Width = Width;
    if (!Transposed) {
      P.RowQ = 1, P.RowK = Row, P.ColR = ColStep, P.ColK = Col;
    } else {
      P.ColQ = 1, P.ColK = Row, P.RowR = ColStep, P.RowK = Col;
    }
    Parts.push_back(P);
  };
  if (Op.Fragment != WmmaFragment::Accumulator) {
    if (Op.Store || Op.Type == WmmaType::F32 || Op.Type == WmmaType::Other)
      return std::nullopt;
    if (Op.Type == WmmaType::F16)
      return std::vector<WmmaPart>{ldsmRows()};
    if (Op.Type == WmmaType::BF16) {
      // Element pairs: memory rows g and g + 8, elements 2t and 2t + 8.
      for (int J = 0; J < 2; ++J)
        for (int I = 0; I < 2; ++I)
          Element(4, 8 * I, 8 * J, 2, false);
      return Parts;
    }
    // tf32: A is 16x8 (rows g, g+8; columns t, t+4), B is 8x16 (rows t,
    // t+4; columns g, g+8). Row-major A and column-major B keep the
    // fragment's rows as memory rows.
    bool Transposed = (Op.Fragment == WmmaFragment::A) != Op.RowMajor;
    for (int J = 0; J < 2; ++J)
      for (int I = 0; I < 2; ++I)
        Element(4, 8 * I, 4 * J, 1, Transposed);
    return Parts;
  }
  if (Op.Type != WmmaType::F32)
    return std::nullopt;
  // f32 accumulator 16x16: rows g, g+8; column pairs 2t, 2t+1 of each
  // 8-column half.
  for (int H = 0; H < 2; ++H)
    for (int I = 0; I < 2; ++I) {
      if (Op.RowMajor) {
        Element(8, 8 * I, 8 * H, 2, false);
      } else {
        Element(4, 8 * I, 8 * H, 2, true);
        Element(4, 8 * I, 8 * H + 1, 2, true);
      }
    }
  return Parts;
}

std::string describeWmma(const WmmaOperation &Op) {
  std::string Frag = Op.Fragment == WmmaFragment::A   ? "A"
                     : Op.Fragment == WmmaFragment::B ? "B"
                                                      : "accumulator";
  std::string Type = Op.Type == WmmaType::F16    ? "f16"
                     : Op.Type == WmmaType::BF16 ? "bf16"
                     : Op.Type == WmmaType::TF32 ? "tf32"
                                                 : "f32";
  return std::string(Op.Store ? "store_matrix_sync" : "load_matrix_sync") + " of a " + Type + " " + Frag +
         " fragment (" + (Op.RowMajor ? "row" : "column") + "-major)";
}

} // namespace cbl
