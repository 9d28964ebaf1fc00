//===- PartialWarpTest.cpp - Lanes removed from 4/8/16-byte accesses -------===//
//
// test/data/h200-partial-warps.csv (utils/oracles/partial-warps.cu, one warp
// per launch on an H200): the hardware counters and Nsight Compute's
// source-page wavefronts and ideal, with lanes removed from 4-, 8- and 16-byte
// loads and stores. costOf reproduces the counters; sourcePageIdeal the
// source page's ideal wherever it is defined (merged loads excepted).
//
//===----------------------------------------------------------------------===//

#include "MeasuredTable.h"
#include "cuda-bank-lint/BankModel/BankModel.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

using namespace cbl;

namespace {

/// The probe's layout: lanes in rows of 128 bytes of lane data (16 lanes of
/// 8 bytes, 8 of 16, 16 of 4), rows Pitch bytes apart.
WarpAccess probe(unsigned Width, unsigned Pitch, uint32_t Mask, bool Store) {
  WarpAccess W;
  W.Width = Width;
  W.Op = Store ? AccessOp::Store : AccessOp::Load;
  W.ActiveMask = Mask;
  unsigned PerRow = Width == 16 ? 8 : 16;
  for (unsigned L = 0; L < WarpSize; ++L)
    W.ByteAddr[L] = (L / PerRow) * Pitch + (L % PerRow) * Width;
  return W;
}

TEST(PartialWarpH200, CountersAndSourcePageIdeal) {
  test::MeasuredTable T = test::readMeasuredTable(CBL_TEST_DATA_DIR "/h200-partial-warps.csv");
  ASSERT_EQ(T.Error, "");
  std::map<std::string, size_t> Col;
  for (size_t I = 0; I < T.Header.size(); ++I)
    Col[T.Header[I]] = I;
  unsigned Rows = 0, PageRows = 0, SpreadRows = 0;
  for (const auto &R : T.Rows) {
    auto Num = [&](const char *Name) { return unsigned(std::stoul(R[Col.at(Name)], nullptr, 0)); };
    WarpAccess W = probe(Num("width"), Num("row_pitch"), Num("mask"), R[Col.at("op")] == "st");
    BankCost C = costOf(W);
    SCOPED_TRACE(R[Col.at("width")] + " " + R[Col.at("op")] + " pitch " + R[Col.at("row_pitch")] +
                 " mask " + R[Col.at("mask")]);
    EXPECT_EQ(C.Wavefronts, Num("hw_wavefronts"));
    EXPECT_EQ(C.Ideal, Num("hw_ideal"));
    EXPECT_EQ(Num("source_wavefronts"), Num("hw_wavefronts")); // the page counts what ran
    ++Rows;
    if (std::optional<unsigned> Page = sourcePageIdeal(W)) {
      EXPECT_EQ(*Page, Num("source_ideal"));
      ++PageRows;
      SpreadRows += *Page < C.Ideal;
    }
  }
  EXPECT_EQ(Rows, 101u);
  // Every row but the merged loads has the rule; some spread their lanes
  // over more phases than their bytes need (the page's ideal is lower).
  EXPECT_GE(PageRows, 90u);
  EXPECT_GE(SpreadRows, 10u);
}

TEST(PartialWarp, SourcePageIdealUndefinedForAtomicsAndMatrix) {
  WarpAccess W = probe(4, 128, 0xffffffffu, true);
  W.Op = AccessOp::Atomic;
  EXPECT_FALSE(sourcePageIdeal(W));
  WarpAccess M = probe(16, 128, 0xffffffffu, false);
  M.Matrix = true;
  EXPECT_FALSE(sourcePageIdeal(M));
}

} // namespace
