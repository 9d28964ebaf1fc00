//===- BankGridViewTest.cpp - The bank grid as text (hover) and SVG (HTML) -===//
//
// The language server's hover shows the worst warp's grid as a monospace
// table and the HTML report as SVG, both from the record's BankGrid; checked
// on the textbook cases: a tile column (32-way), a stride of two (2-way), a
// broadcast and a 16-byte access in quarter-warp phases.
//
//===----------------------------------------------------------------------===//

#include "cuda-bank-lint/BankModel/BankGrid.h"
#include "cuda-bank-lint/Report/BankGridView.h"

#include <gtest/gtest.h>

#include <functional>

using namespace cbl;

namespace {

AccessRecord recordOf(unsigned Width, std::function<uint64_t(unsigned)> Addr) {
  WarpAccess A;
  A.Width = Width;
  for (unsigned L = 0; L < WarpSize; ++L)
    A.ByteAddr[L] = Addr(L);
  AccessRecord R;
  R.Grid = bankGrid(A);
  BankCost C = costOf(A);
  R.Wavefronts = C.Wavefronts;
  R.Ideal = C.Ideal;
  R.Degree = C.Degree;
  return R;
}

} // namespace

TEST(BankGridText, ColumnReadIsOneColumnOfLanes) {
  AccessRecord R = recordOf(4, [](unsigned L) { return uint64_t(L) * 128; });
  std::string T = gridText(R);
  EXPECT_EQ(gridCaption(R), "32 rows, one per wavefront: 32 wavefronts (ideal 1)");
  EXPECT_EQ(T.substr(0, T.find('\n')), "bank    0");
  EXPECT_NE(T.find("\n wf 1:  0\n wf 2:  1\n"), std::string::npos) << T;
  EXPECT_NE(T.find("\nwf 32: 31\nno lane uses banks 1-31\n"), std::string::npos) << T;
}

TEST(BankGridText, TwoWayStrideTwo) {
  AccessRecord R = recordOf(4, [](unsigned L) { return uint64_t(L) * 8; });
  std::string T = gridText(R, "  ");
  // Even banks only; lanes 0-15 in the first wavefront, 16-31 in the second.
  EXPECT_NE(T.find("  bank   0  2  4"), std::string::npos) << T;
  EXPECT_NE(T.find("  wf 1:  0  1  2"), std::string::npos) << T;
  EXPECT_NE(T.find("  wf 2: 16 17 18"), std::string::npos) << T;
  EXPECT_NE(T.find("no lane uses banks 1, 3, 5"), std::string::npos) << T;
}

TEST(BankGridText, BroadcastAndPhases) {
  AccessRecord R = recordOf(4, [](unsigned) { return 0; });
  EXPECT_NE(gridText(R).find("wf 1: 0+\n"), std::string::npos) << gridText(R);
  R = recordOf(16, [](unsigned L) { return uint64_t(L) * 16; });
  std::string T = gridText(R);
  EXPECT_NE(T.find("lanes 8-15"), std::string::npos) << T;
  EXPECT_NE(gridCaption(R).find("served in 4 phases"), std::string::npos);
}

TEST(BankGridText, LaneRanges) {
  EXPECT_EQ(laneRanges(0), "");
  EXPECT_EQ(laneRanges(0xffffffffu), "0-31");
  EXPECT_EQ(laneRanges(0x80000d0fu, ","), "0-3,8,10-11,31");
}

TEST(BankGridSvg, CellsCarryBankRowAndLanes) {
  AccessRecord R = recordOf(4, [](unsigned L) { return uint64_t(L) * 128; });
  std::string S = gridSvg(R);
  EXPECT_NE(S.find("data-rows=\"32\""), std::string::npos);
  EXPECT_NE(S.find("data-bank=\"0\" data-row=\"32\" data-word=\"992\" data-lanes=\"31\""), std::string::npos);
  EXPECT_EQ(escapeHtml("a<b && c>'d\""), "a&lt;b &amp;&amp; c&gt;&#39;d&quot;");
}
