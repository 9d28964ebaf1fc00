//===- MatrixModelTest.cpp - The bank model of ldmatrix and stmatrix ------===//
//
// Every row of test/data/h100-matrix.csv (single LDSM/STSM instructions of
// one warp measured on an H100; utils/oracles/shared-matrix.cu) must be
// reproduced: wavefronts, and ideal = wavefronts - conflicts.
//
//===----------------------------------------------------------------------===//

#include "MeasuredTable.h"
#include "WarpAccesses.h"
#include "cuda-bank-lint/BankModel/BankModel.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace cbl;

TEST(MatrixModelH100, ReproducesEveryMeasuredRow) {
  test::MeasuredTable T = test::readMeasuredTable(CBL_TEST_DATA_DIR "/h100-matrix.csv");
  ASSERT_TRUE(T.Error.empty()) << T.Error;
  const std::vector<std::string> &Header = T.Header;
  ASSERT_EQ(Header.size(), 6u + WarpSize);
  ASSERT_EQ(Header[3], "address_lanes");
  ASSERT_EQ(Header[4], "wavefronts");
  ASSERT_EQ(Header[5], "conflicts");
  unsigned Rows = 0, Mismatches = 0;
  std::map<std::string, unsigned> PerOp;
  for (const std::vector<std::string> &F : T.Rows) {
    unsigned LineNo = Rows + 2;
    ++Rows;
    ++PerOp[F[0]];
    WarpAccess A = test::matrixRowAccess(F);
    unsigned Wavefronts = unsigned(std::stoul(F[4])), Conflicts = unsigned(std::stoul(F[5]));
    BankCost C = costOf(A);
    if (C.Wavefronts != Wavefronts || C.Ideal != Wavefronts - Conflicts) {
      ++Mismatches;
      ADD_FAILURE() << "line " << LineNo << " (" << F[0] << "): expected " << Wavefronts << "/"
                    << Wavefronts - Conflicts << ", got " << C.Wavefronts << "/" << C.Ideal;
    }
  }
  EXPECT_EQ(Rows, 3285u) << "the measured table should hold 3,285 rows";
  for (const auto &[Op, N] : PerOp)
    EXPECT_GE(N, 300u) << "at least 300 measured patterns per class: " << Op;
  EXPECT_EQ(Mismatches, 0u);
  std::printf("[ ldmatrix/stmatrix ] %u rows in %zu classes, %u mismatches\n", Rows, PerOp.size(),
              Mismatches);
}

// An ldmatrix is never merged like a 16-byte load: eight lanes reading the
// same row in pairs would halve an LDS.128's phases, not an ldmatrix's.
TEST(MatrixModel, NoLoadMerge) {
  WarpAccess A;
  A.Width = 16;
  A.Op = AccessOp::Load;
  A.ActiveMask = 0xffffffffu;
  for (unsigned L = 0; L < WarpSize; ++L)
    A.ByteAddr[L] = 16 * (L / 2);
  EXPECT_EQ(costOf(A).Wavefronts, 2u); // LDS.128: pairs merge into half-warp phases
  A.Matrix = true;
  EXPECT_EQ(costOf(A).Wavefronts, 4u); // LDSM.x4: four 8-lane phases
}
