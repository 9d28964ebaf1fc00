//===- BankGridTest.cpp - The bank grid agrees with the bank model --------===//
//
// bankGrid lays out one warp instruction as banks x wavefronts. Its rows must
// add up to what costOf says for every measured H100 pattern (loads and
// stores, atomics, ldmatrix), every active lane must be in a cell for each
// word it touches, and a cell holds one word. The text grid (the language
// server's hover) is checked on the textbook cases.
//
//===----------------------------------------------------------------------===//

#include "MeasuredTable.h"
#include "WarpAccesses.h"
#include "cuda-bank-lint/BankModel/BankGrid.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <tuple>

using namespace cbl;

namespace {

WarpAccess warp(unsigned Width, AccessOp Op, std::function<uint64_t(unsigned)> Addr,
                uint32_t Mask = 0xffffffffu) {
  return test::warpAccess(Width, Op, Addr, Mask);
}

/// The wavefronts the grid's rows stand for.
unsigned gridWavefronts(const BankGrid &G, const WarpAccess &A) {
  switch (G.Meaning) {
  case GridRows::Wavefronts: return G.Rows;
  case GridRows::CasPairs: return 2 * G.Rows;
  case GridRows::LoopIterations: return 2 * G.Rows + (A.Atomic == AtomicRule::GenericCasLoop);
  }
  return 0;
}

/// Every cell one word, no two cells at one place; every active lane in a
/// cell for each word it touches (atomics: once per word, in one row).
void expectWellFormed(const BankGrid &G, const WarpAccess &A, const std::string &What) {
  std::set<std::pair<unsigned, unsigned>> Places;
  std::map<std::pair<unsigned, uint64_t>, unsigned> LaneWords; // (lane, word) -> cells
  for (const GridCell &C : G.Cells) {
    EXPECT_LT(C.Row, G.Rows) << What;
    EXPECT_EQ(C.Bank, C.Word % G.Banks) << What;
    EXPECT_TRUE(Places.insert({C.Row, C.Bank}).second) << What << ": two words in one cell";
    for (unsigned L = 0; L < WarpSize; ++L)
      if (C.Lanes >> L & 1) {
        EXPECT_TRUE(A.ActiveMask >> L & 1) << What << ": inactive lane " << L;
        ++LaneWords[std::make_pair(L, C.Word)];
      }
  }
  for (unsigned L = 0; L < WarpSize; ++L)
    if (A.ActiveMask >> L & 1)
      for (uint64_t W = A.ByteAddr[L] / 4; W <= (A.ByteAddr[L] + A.Width - 1) / 4; ++W)
        EXPECT_GE(LaneWords[std::make_pair(L, W)], 1u) << What << ": lane " << L << " word " << W << " missing";
}

} // namespace

TEST(BankGrid, RowsAreTheMeasuredWavefrontsOfLoadsAndStores) {
  test::MeasuredTable T = test::readMeasuredTable(CBL_TEST_DATA_DIR "/h100-access-patterns.csv");
  ASSERT_TRUE(T.Error.empty()) << T.Error;
  unsigned Rows = 0;
  for (const std::vector<std::string> &F : T.Rows) {
    WarpAccess A = warp(unsigned(std::stoul(F[0])), F[1] == "ld" ? AccessOp::Load : AccessOp::Store,
                        [&](unsigned L) { return std::stoull(F[5 + L]); },
                        uint32_t(std::stoul(F[2], nullptr, 16)));
    BankGrid G = bankGrid(A);
    std::string What = "row " + std::to_string(++Rows);
    EXPECT_EQ(G.Rows, unsigned(std::stoul(F[3]))) << What;
    EXPECT_EQ(G.Meaning, GridRows::Wavefronts);
    EXPECT_EQ(G.Phases.size(), costOf(A).Ideal) << What << ": one phase per ideal wavefront";
    expectWellFormed(G, A, What);
  }
  EXPECT_EQ(Rows, 2150u);
}

TEST(BankGrid, RowsAddUpToTheAtomicRules) {
  test::MeasuredTable T = test::readMeasuredTable(CBL_TEST_DATA_DIR "/h100-atomics.csv");
  ASSERT_TRUE(T.Error.empty()) << T.Error;
  unsigned Checked = 0;
  for (const std::vector<std::string> &F : T.Rows) {
    if (F[3] == "value-dependent" || F[3] == "generic")
      continue;
    WarpAccess A = warp(unsigned(std::stoul(F[4])), AccessOp::Atomic,
                        [&](unsigned L) { return std::stoull(F[9 + L]); },
                        uint32_t(std::stoul(F[5], nullptr, 16)));
    for (AtomicRule R : {AtomicRule::Native, AtomicRule::Cas, AtomicRule::CasLoop, AtomicRule::GenericCasLoop})
      if (F[3] == atomicRuleName(R))
        A.Atomic = R;
    BankGrid G = bankGrid(A);
    std::string What = "atomic row " + std::to_string(++Checked) + " (" + F[3] + ")";
    EXPECT_EQ(gridWavefronts(G, A), unsigned(std::stoul(F[6]))) << What;
    expectWellFormed(G, A, What);
  }
  EXPECT_EQ(Checked, 6935u) << "8,030 rows less 730 value-dependent and 365 generic";
}

TEST(BankGrid, RowsAreTheMeasuredWavefrontsOfLdmatrix) {
  test::MeasuredTable T = test::readMeasuredTable(CBL_TEST_DATA_DIR "/h100-matrix.csv");
  ASSERT_TRUE(T.Error.empty()) << T.Error;
  unsigned Rows = 0;
  for (const std::vector<std::string> &F : T.Rows) {
    WarpAccess A = test::matrixRowAccess(F);
    BankGrid G = bankGrid(A);
    std::string What = "matrix row " + std::to_string(++Rows);
    EXPECT_EQ(G.Rows, unsigned(std::stoul(F[4]))) << What;
    expectWellFormed(G, A, What);
  }
  EXPECT_EQ(Rows, 3285u);
}

TEST(BankGrid, TileColumnIsOneBankThirtyTwoRows) {
  WarpAccess A = warp(4, AccessOp::Load, [](unsigned L) { return uint64_t(L) * 128; });
  BankGrid G = bankGrid(A);
  ASSERT_EQ(G.Rows, 32u);
  ASSERT_EQ(G.Cells.size(), 32u);
  for (const GridCell &C : G.Cells) {
    EXPECT_EQ(C.Bank, 0u);
    EXPECT_EQ(C.Lanes, 1u << C.Row) << "lane r in wavefront r";
  }
}

TEST(BankGrid, BroadcastIsOneCell) {
  BankGrid G = bankGrid(warp(4, AccessOp::Load, [](unsigned) { return 64; }));
  ASSERT_EQ(G.Rows, 1u);
  ASSERT_EQ(G.Cells.size(), 1u);
  EXPECT_EQ(G.Cells[0].Lanes, 0xffffffffu);
  EXPECT_EQ(G.Cells[0].Bank, 16u);
}

TEST(BankGrid, SixteenBytesInQuarterWarps) {
  BankGrid G = bankGrid(warp(16, AccessOp::Load, [](unsigned L) { return uint64_t(L) * 16; }));
  ASSERT_EQ(G.Rows, 4u);
  ASSERT_EQ(G.Phases.size(), 4u);
  EXPECT_EQ(G.Phases[1].Lanes, 0xff00u);
  EXPECT_EQ(G.Phases[1].FirstRow, 1u);
}

TEST(BankGrid, AtomicsDoNotBroadcast) {
  WarpAccess A = warp(4, AccessOp::Atomic, [](unsigned) { return 0; }, 0xfu);
  BankGrid G = bankGrid(A);
  EXPECT_EQ(G.Rows, 4u);
  EXPECT_EQ(G.Cells.size(), 4u);
  A.Atomic = AtomicRule::Cas;
  G = bankGrid(A);
  EXPECT_EQ(G.Meaning, GridRows::CasPairs);
  EXPECT_EQ(G.Rows, 4u);
}

TEST(BankGrid, EmptyWithoutActiveLanes) {
  EXPECT_TRUE(bankGrid(warp(4, AccessOp::Load, [](unsigned L) { return L * 4; }, 0)).empty());
  EXPECT_TRUE(bankGrid(warp(3, AccessOp::Load, [](unsigned L) { return L * 4; })).empty());
}
