//===- WmmaModelTest.cpp - WMMA fragment loads and stores on shared memory -===//
//
// Every row of test/data/h100-wmma.csv (one wmma::load_matrix_sync or
// store_matrix_sync of one warp per launch, measured on an H100;
// utils/oracles/shared-wmma.cu) must be reproduced by the fragment's
// instructions (BankModel/Wmma.h) costed by the bank model.
//
//===----------------------------------------------------------------------===//

#include "MeasuredTable.h"
#include "cuda-bank-lint/BankModel/BankModel.h"
#include "cuda-bank-lint/BankModel/Wmma.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace cbl;

namespace {

/// "load.a.row.f16" -> the operation.
WmmaOperation operationOf(const std::string &Name) {
  std::vector<std::string> P;
  std::stringstream S(Name);
  for (std::string T; std::getline(S, T, '.');)
    P.push_back(T);
  WmmaOperation Op;
  Op.Store = P[0] == "store";
  Op.Fragment = P[1] == "a" ? WmmaFragment::A : P[1] == "b" ? WmmaFragment::B : WmmaFragment::Accumulator;
  Op.RowMajor = P[2] == "row";
  Op.Type = P[3] == "f16" ? WmmaType::F16 : P[3] == "bf16" ? WmmaType::BF16 : P[3] == "tf32" ? WmmaType::TF32 : WmmaType::F32;
  return Op;
}

unsigned wavefrontsOf(const WmmaOperation &Op, uint64_t Base, unsigned Ldm) {
  unsigned Total = 0;
  std::vector<WmmaPart> Parts = *wmmaParts(Op);
  for (const WmmaPart &Part : Parts) {
    WarpAccess A;
    A.Width = Part.Width;
    A.Matrix = Part.Matrix;
    A.Op = Op.Store ? AccessOp::Store : AccessOp::Load;
    for (unsigned L = 0; L < WarpSize; ++L)
      A.ByteAddr[L] = Base + (uint64_t(Part.rowOf(L)) * Ldm + Part.colOf(L)) * Op.elementBytes();
    Total += costOf(A).Wavefronts;
  }
  return Total;
}

} // namespace

TEST(WmmaModelH100, ReproducesEveryMeasuredRow) {
  test::MeasuredTable T = test::readMeasuredTable(CBL_TEST_DATA_DIR "/h100-wmma.csv");
  ASSERT_TRUE(T.Error.empty()) << T.Error;
  ASSERT_EQ(T.Header.size(), 6u);
  ASSERT_EQ(T.Header[5], "wavefronts");
  unsigned Rows = 0, Mismatches = 0;
  std::map<std::string, unsigned> PerOp;
  for (const std::vector<std::string> &F : T.Rows) {
    ++Rows;
    ++PerOp[F[0]];
    WmmaOperation Op = operationOf(F[0]);
    ASSERT_TRUE(wmmaParts(Op).has_value()) << F[0];
    unsigned Ldm = unsigned(std::stoul(F[3])), Offset = unsigned(std::stoul(F[4]));
    unsigned Expected = unsigned(std::stoul(F[5])), Got = wavefrontsOf(Op, Offset, Ldm);
    if (Got != Expected) {
      ++Mismatches;
      ADD_FAILURE() << F[0] << " ldm " << Ldm << " offset " << Offset << ": measured " << Expected
                    << ", model " << Got;
    }
  }
  EXPECT_EQ(Rows, 240u);
  EXPECT_EQ(PerOp.size(), 16u);
  EXPECT_EQ(Mismatches, 0u);
  std::printf("[ wmma ] %u rows in %zu operations, %u mismatches\n", Rows, PerOp.size(), Mismatches);
}

// Shapes and types that were not measured have no decomposition.
TEST(WmmaModel, UnmeasuredIsNotModelled) {
  WmmaOperation Op;
  Op.Type = WmmaType::Other; // s8/u8 fragments
  EXPECT_FALSE(wmmaParts(Op).has_value());
  Op.Type = WmmaType::F16;
  Op.Store = true; // only accumulators are stored
  EXPECT_FALSE(wmmaParts(Op).has_value());
}
