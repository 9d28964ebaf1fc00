//===- BankModelTest.cpp - Tests of the shared-memory bank model ----------===//
//
// 1. Every row of the H100 measurements (test/data/h100-access-patterns.csv,
//    described in test/data/h100-access-patterns.md) must be reproduced:
//    wavefronts, and ideal = wavefronts - conflicts. The CSV is found through
//    $CBL_BANK_MODEL_CSV, else CBL_TEST_DATA_DIR (a compile definition); a
//    missing file is a failure, never a skip.
// 1b. Single LDS.64/LDS.128 launches measured directly on an H100, including
//    the ground-truth kernels whose source-page numbers disagree with the
//    hardware counters (see the comment there).
// 2. Textbook cases for Sm70Plus and the unmeasured Sm1x / Sm3xEightByte.
// 3. A brute-force property test of costInvariantUnderUniformShift.
//
//===----------------------------------------------------------------------===//

#include "MeasuredTable.h"
#include "WarpAccesses.h"
#include "cuda-bank-lint/BankModel/BankModel.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cbl;

namespace {

using test::warpAccess;

WarpAccess load(unsigned Width, std::function<uint64_t(unsigned)> Addr,
                uint32_t Mask = 0xffffffffu) {
  return warpAccess(Width, AccessOp::Load, Addr, Mask);
}

WarpAccess store(unsigned Width, std::function<uint64_t(unsigned)> Addr,
                 uint32_t Mask = 0xffffffffu) {
  return warpAccess(Width, AccessOp::Store, Addr, Mask);
}

std::string describe(const WarpAccess &A) {
  std::ostringstream OS;
  OS << "width=" << A.Width << " op=" << (A.Op == AccessOp::Load ? "ld" : "st")
     << " mask=" << std::hex << A.ActiveMask << std::dec << " offsets=[";
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (L)
      OS << ',';
    if ((A.ActiveMask >> L) & 1u)
      OS << A.ByteAddr[L];
    else
      OS << '-';
  }
  OS << ']';
  return OS.str();
}

std::string csvPath() {
  if (const char *Env = std::getenv("CBL_BANK_MODEL_CSV"))
    return Env;
#ifdef CBL_TEST_DATA_DIR
  return CBL_TEST_DATA_DIR "/h100-access-patterns.csv";
#else
  return "";
#endif
}

} // namespace

// --- 1. The measured H100 data ---------------------------------------------

TEST(BankModelH100, ReproducesEveryMeasuredRow) {
  std::string Path = csvPath();
  ASSERT_FALSE(Path.empty())
      << "no CSV: set CBL_BANK_MODEL_CSV or compile with -DCBL_TEST_DATA_DIR=...";
  std::ifstream In(Path);
  ASSERT_TRUE(In.good()) << "cannot open the H100 bank-model CSV '" << Path
                         << "' (set CBL_BANK_MODEL_CSV to its path)";
  std::string Line;
  ASSERT_TRUE(std::getline(In, Line)) << Path << " is empty";
  std::vector<std::string> Header = test::splitCsvLine(Line);
  ASSERT_EQ(Header.size(), 5u + WarpSize) << "unexpected header: " << Line;
  ASSERT_EQ(Header[0], "width");
  ASSERT_EQ(Header[3], "wavefronts");
  ASSERT_EQ(Header[4], "conflicts");

  unsigned Rows = 0, Mismatches = 0;
  for (unsigned LineNo = 2; std::getline(In, Line); ++LineNo) {
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (Line.empty())
      continue;
    std::vector<std::string> F = test::splitCsvLine(Line);
    ASSERT_EQ(F.size(), Header.size()) << "line " << LineNo << ": " << Line;
    ++Rows;
    WarpAccess A;
    A.Width = unsigned(std::stoul(F[0]));
    ASSERT_TRUE(F[1] == "ld" || F[1] == "st") << "line " << LineNo;
    A.Op = F[1] == "ld" ? AccessOp::Load : AccessOp::Store;
    A.ActiveMask = uint32_t(std::stoul(F[2], nullptr, 16));
    unsigned Wavefronts = unsigned(std::stoul(F[3]));
    unsigned Conflicts = unsigned(std::stoul(F[4]));
    for (unsigned L = 0; L < WarpSize; ++L)
      A.ByteAddr[L] = std::stoull(F[5 + L]);
    unsigned Ideal = Wavefronts - Conflicts;

    BankCost C = costOf(A);
    if (C.Wavefronts != Wavefronts || C.Ideal != Ideal) {
      ++Mismatches;
      ADD_FAILURE() << "row " << Rows << " (line " << LineNo << "): "
                    << describe(A) << "\n  expected wavefronts=" << Wavefronts
                    << " ideal=" << Ideal << "  got wavefronts=" << C.Wavefronts
                    << " ideal=" << C.Ideal;
    }
    EXPECT_EQ(C.Degree == 1, C.Wavefronts == C.Ideal) << "line " << LineNo;
  }
  EXPECT_EQ(Rows, 2150u) << "the H100 CSV should hold 2,150 measured rows";
  EXPECT_EQ(Mismatches, 0u);
  std::printf("[ bank model ] %u rows, %u mismatches (%s)\n", Rows, Mismatches,
              Path.c_str());
}

// --- 1b. Direct H100 measurements of single LDS.64 / LDS.128 instructions ---
//
// Why these exist: shared/ground-truth/h100-open.csv reports, for three
// 128-bit loads of NgCafai/gpu-programming-samples test_lds128.cu, numbers the
// rule above does not give (smem_1: 1/1, smem_4: 2/2, smem_5: 8/4 as
// wavefronts/ideal). Those numbers come from Nsight Compute's *source page*
// ("L1 Wavefronts Shared" / "... Ideal" per SASS instruction, the
// SourceCounters section), which is computed by SASS instrumentation. The
// bank model, and shared/bank-model/h100-access-patterns.csv, are about the
// *hardware counters* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum and
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum. On the same H100
// (sm_90, driver 580, nvcc 13.0, ncu 2025.3.1) the two disagree for the very
// same instruction, and the hardware counters agree with the model:
//
// * The upstream test_lds128.cu kernels, built with the ground truth's flags
//   (-O3 -lineinfo -arch=sm_90 -cudart shared) and launched <<<1,32>>> once
//   each, give hardware counters smem_1 2/2, smem_2 1/1, smem_3 2/2,
//   smem_4 4/4, smem_5 4/2, while the source page of the same report shows
//   1/1, 1/1, 2/2, 2/2, 8/4 (the ground truth's values). Each is one LDS.128
//   (cuobjdump -sass; smem_1/smem_2 use a uniform address, [UR4+0x40]).
// * The table below: one launch of one warp per row, lane i loading
//   `*(const uintW*)((char*)smem + Unit[i] * Width)` when bit i of Mask is set
//   (addresses from a table in global memory; one LDS.64 / LDS.128 checked in
//   the SASS), profiled with `ncu --metrics` for the hardware counters and,
//   separately, with `--section SourceCounters` for the source page. The
//   bench is kept out of the repository (.devbench/, git-ignored). Every row's
//   hardware counters equal costOf(); the source page differs on 29 of the
//   42 rows and on 2 of 4 further uniform-address launches (SrcWavefronts/SrcIdeal, recorded here but not asserted, since
//   the model does not claim to reproduce that instrumented metric).
//
// So no single rule fits both the 2,150 hardware-counter rows and the
// source-page ground truth: they measure different things.

namespace {

struct DeviceRow {
  const char *Name;
  unsigned Width;
  uint32_t Mask;
  unsigned Unit[WarpSize]; // byte address / Width
  unsigned Wavefronts, Ideal;       // hardware counters (asserted)
  unsigned SrcWavefronts, SrcIdeal; // ncu source page (not asserted)
};

// Measured 2025-11 on one NVIDIA H100 80GB HBM3 (GPU counters as above).
// csvNNNN rows repeat line NNNN of h100-access-patterns.csv: same numbers.
const DeviceRow DeviceRows[] = {
    {"t16_lanes15_16_same", 16, 0x00018000u, {4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4}, 2, 2, 1, 1},
    {"t16_lanes0_15_same", 16, 0x00008001u, {4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4}, 1, 1, 1, 1},
    {"t16_all_same", 16, 0xffffffffu, {4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4}, 2, 2, 2, 2},
    {"t16_smem3", 16, 0xffffffffu, {0,0,1,1,0,0,1,1,2,2,3,3,2,2,3,3,4,4,5,5,4,4,5,5,6,6,7,7,6,6,7,7}, 2, 2, 2, 2},
    {"t16_smem4", 16, 0xffffffffu, {0,0,1,1,0,0,1,1,2,2,3,3,2,2,3,3,4,5,4,5,4,5,4,5,6,7,6,7,6,7,6,7}, 4, 4, 2, 2},
    {"t16_smem5", 16, 0xffffffffu, {0,0,0,0,8,8,8,8,1,1,1,1,9,9,9,9,4,4,4,4,12,12,12,12,5,5,5,5,13,13,13,13}, 4, 2, 8, 4},
    {"t16_lanes15_16_diff", 16, 0x00018000u, {4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,5,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4}, 2, 2, 2, 1},
    {"t16_lanes0_31_same", 16, 0x80000001u, {4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4}, 2, 2, 1, 1},
    {"t16_lanes0_9_18_27_distinct", 16, 0x08040201u, {0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,3,3,3,3,3}, 2, 2, 2, 1},
    {"t16_lanes0to3_28to31_distinct", 16, 0xf000000fu, {0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7}, 2, 2, 2, 1},
    {"t16_Q1Q2_paired", 16, 0x00ffff00u, {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13,14,14,15,15}, 2, 2, 2, 2},
    {"t16_lowpaired_uplinear", 16, 0xffffffffu, {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31}, 4, 4, 3, 3},
    {"t16_lowlinear_uppaired", 16, 0xffffffffu, {0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,8,8,9,9,10,10,11,11,12,12,13,13,14,14,15,15}, 4, 4, 3, 3},
    {"t16_g4_quartconf_far", 16, 0xffffffffu, {0,0,0,0,72,72,72,72,1,1,1,1,73,73,73,73,4,4,4,4,76,76,76,76,5,5,5,5,77,77,77,77}, 4, 2, 8, 4},
    {"t16_p1_quartconf_128", 16, 0xffffffffu, {0,0,8,8,2,2,10,10,1,1,9,9,3,3,11,11,4,4,12,12,6,6,14,14,5,5,13,13,7,7,15,15}, 4, 2, 8, 4},
    {"t16_g4_quartconf_other", 16, 0xffffffffu, {0,0,0,0,8,8,8,8,9,9,9,9,17,17,17,17,20,20,20,20,28,28,28,28,29,29,29,29,37,37,37,37}, 4, 2, 8, 4},
    {"t16_g4_mergeconf_only", 16, 0xffffffffu, {0,0,0,0,1,1,1,1,8,8,8,8,9,9,9,9,4,4,4,4,5,5,5,5,12,12,12,12,13,13,13,13}, 4, 2, 4, 4},
    {"t16_g4_Q0conf_only", 16, 0xffffffffu, {0,0,0,0,8,8,8,8,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,7}, 3, 2, 4, 4},
    {"t16_p1_L4conf", 16, 0xffffffffu, {0,0,1,1,8,8,9,9,2,2,3,3,10,10,11,11,4,4,5,5,12,12,13,13,6,6,7,7,14,14,15,15}, 4, 2, 8, 4},
    {"t16_p2_only", 16, 0xffffffffu, {0,1,0,1,2,3,2,3,4,5,4,5,6,7,6,7,8,9,8,9,10,11,10,11,12,13,12,13,14,15,14,15}, 2, 2, 2, 2},
    {"t16_g8_halfconf", 16, 0xffffffffu, {0,0,0,0,0,0,0,0,8,8,8,8,8,8,8,8,1,1,1,1,1,1,1,1,9,9,9,9,9,9,9,9}, 4, 2, 4, 4},
    {"t16_p1_lane1_inactive", 16, 0xfffffffdu, {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13,14,14,15,15}, 2, 2, 3, 3},
    {"t16_p1_lowhalf_only", 16, 0x0000ffffu, {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13,14,14,15,15}, 1, 1, 1, 1},
    {"t16_smem5_lowhalf_only", 16, 0x0000ffffu, {0,0,0,0,8,8,8,8,1,1,1,1,9,9,9,9,4,4,4,4,12,12,12,12,5,5,5,5,13,13,13,13}, 2, 1, 4, 2},
    {"t16_p1_quartconf_Q0only", 16, 0xffffffffu, {0,0,8,8,2,2,3,3,4,4,5,5,6,6,7,7,16,16,17,17,18,18,19,19,20,20,21,21,22,22,23,23}, 3, 2, 4, 4},
    {"t16_g4_smem5_shift1", 16, 0xffffffffu, {1,1,1,1,9,9,9,9,2,2,2,2,10,10,10,10,5,5,5,5,13,13,13,13,6,6,6,6,14,14,14,14}, 4, 2, 8, 4},
    {"csv1896", 16, 0x86f9b975u, {5,1,5,5,2,2,0,2,4,7,7,2,7,0,5,5,5,5,0,1,6,6,7,7,3,3,1,0,0,7,4,3}, 4, 4, 3, 3},
    {"csv1919", 16, 0xffffffffu, {277,277,88,88,105,105,345,345,404,404,307,307,431,431,509,509,476,476,321,321,389,389,25,25,230,230,48,48,496,496,498,498}, 4, 2, 7, 4},
    {"csv1907", 16, 0xffffffffu, {185,185,185,185,51,51,51,51,219,219,219,219,370,370,370,370,21,21,21,21,87,87,87,87,434,434,434,434,301,301,301,301}, 4, 2, 4, 4},
    {"csv1921", 16, 0xffffffffu, {292,292,292,292,240,240,240,240,199,199,199,199,113,113,113,113,190,190,190,190,419,419,419,419,19,19,19,19,154,154,154,154}, 3, 2, 3, 3},
    {"csv1909", 16, 0xffffffffu, {2,2,255,255,463,463,114,114,329,329,339,339,190,190,60,60,319,319,251,251,306,306,190,190,282,282,357,357,218,218,199,199}, 5, 2, 6, 4},
    {"e8_lanes15_16_same", 8, 0x00018000u, {8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8}, 1, 1, 1, 1},
    {"e8_all_same", 8, 0xffffffffu, {8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8}, 1, 1, 1, 1},
    {"e8_low_p1_up_p2", 8, 0xffffffffu, {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,16,17,16,17,18,19,18,19,20,21,20,21,22,23,22,23}, 2, 2, 2, 2},
    {"e8_lowpaired_uplinear", 8, 0xffffffffu, {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31}, 2, 2, 2, 2},
    {"e8_g4_halfconf_128", 8, 0xffffffffu, {0,0,0,0,16,16,16,16,1,1,1,1,17,17,17,17,2,2,2,2,18,18,18,18,3,3,3,3,19,19,19,19}, 2, 1, 4, 2},
    {"e8_p1_halfconf_128", 8, 0xffffffffu, {0,0,16,16,2,2,18,18,4,4,20,20,6,6,22,22,1,1,17,17,3,3,19,19,5,5,21,21,7,7,23,23}, 2, 1, 4, 2},
    {"e8_lanes15_16_diff", 8, 0x00018000u, {8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,9,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8}, 1, 1, 1, 1},
    {"e8_p1_lane1_inactive", 8, 0xfffffffdu, {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13,14,14,15,15}, 1, 1, 1, 1},
    {"csv1447", 8, 0xffffffffu, {13,13,13,14,5,15,8,3,6,9,3,11,9,11,2,0,6,10,3,6,14,12,12,6,7,13,13,4,11,8,11,3}, 2, 2, 2, 2},
    {"csv1477", 8, 0xffffffffu, {149,149,149,149,445,445,445,445,258,258,258,258,397,397,397,397,372,372,372,372,310,310,310,310,439,439,439,439,493,493,493,493}, 3, 1, 3, 2},
    {"csv1481", 8, 0xffffffffu, {310,310,184,184,89,89,460,460,509,509,416,416,102,102,488,488,394,394,384,384,371,371,317,317,307,307,458,458,484,484,476,476}, 2, 1, 4, 2},
};

} // namespace

TEST(BankModelH100Device, TableOfSingleInstructionLaunches) {
  unsigned SourcePageDiffers = 0;
  for (const DeviceRow &R : DeviceRows) {
    WarpAccess A;
    A.Width = R.Width;
    A.Op = AccessOp::Load;
    A.ActiveMask = R.Mask;
    for (unsigned L = 0; L < WarpSize; ++L)
      A.ByteAddr[L] = uint64_t(R.Unit[L]) * R.Width;
    BankCost C = costOf(A);
    EXPECT_EQ(C.Wavefronts, R.Wavefronts) << R.Name << ": " << describe(A);
    EXPECT_EQ(C.Ideal, R.Ideal) << R.Name << ": " << describe(A);
    EXPECT_EQ(C.Degree == 1, C.Wavefronts == C.Ideal) << R.Name;
    SourcePageDiffers += R.SrcWavefronts != R.Wavefronts || R.SrcIdeal != R.Ideal;
  }
  EXPECT_EQ(SourcePageDiffers, 29u); // of 42: the source page is another metric
}

// The upstream kernels themselves (test_lds128.cu and test_lds64.cu, repo
// NgCafai/gpu-programming-samples @ 4249035); smem is a 16-byte aligned
// uint32_t[128], so the byte address of uint4 index i is 16 * i.
namespace {
BankCost lds128(std::function<uint64_t(unsigned)> Index, uint32_t Mask = 0xffffffffu) {
  return costOf(load(16, [&](unsigned T) { return 16 * Index(T); }, Mask));
}
} // namespace

TEST(BankModelH100Device, TestLds128Smem1TwoLanesAcrossHalfWarps) {
  // Lanes 15 and 16 load uint4 index 4. Hardware counters (our run of the
  // upstream kernel, and the table row t16_lanes15_16_same): 2 wavefronts,
  // ideal 2. h100-open.csv line 298 says 1/1: that is the ncu source page.
  BankCost C = lds128([](unsigned) { return 4; }, (1u << 15) | (1u << 16));
  EXPECT_EQ(C.Wavefronts, 2u);
  EXPECT_EQ(C.Ideal, 2u);
  EXPECT_EQ(C.Degree, 1u);
  // A uniform address ([UR4+0x40], or [UR4] from a kernel argument) is not
  // special in hardware: lanes 15/16 cost 2/2 and all 32 lanes 2/2 either
  // way (source page: 1/1 for the two lanes, 2/2 for all 32).
  EXPECT_EQ(lds128([](unsigned) { return 4; }).Wavefronts, 2u);
  EXPECT_EQ(lds128([](unsigned) { return 4; }).Ideal, 2u);
}

TEST(BankModelH100Device, TestLds128Smem2TwoLanesInOneHalfWarp) {
  // Lanes 0 and 15 load index 4: 1/1 in hardware counters and in
  // h100-open.csv line 300 (the partners are inactive, so the load merges).
  BankCost C = lds128([](unsigned) { return 4; }, (1u << 0) | (1u << 15));
  EXPECT_EQ(C.Wavefronts, 1u);
  EXPECT_EQ(C.Ideal, 1u);
}

TEST(BankModelH100Device, TestLds128Smem3PairsMerge) {
  // Hardware counters 2/2; h100-open.csv line 302 agrees (2/2).
  BankCost C = lds128([](unsigned T) { return (T / 8) * 2 + ((T % 8) / 2) % 2; });
  EXPECT_EQ(C.Wavefronts, 2u);
  EXPECT_EQ(C.Ideal, 2u);
  EXPECT_EQ(C.Phases, 2u);
}

TEST(BankModelH100Device, TestLds128Smem4PairingDiffersPerHalfWarp) {
  // Lower half pairs L^1, upper half L^2, so no pairing holds warp-wide and
  // nothing merges: hardware counters 4/4 (upstream kernel and table row
  // t16_smem4). h100-open.csv line 304 says 2/2: the ncu source page.
  BankCost C = lds128([](unsigned T) {
    return T < 16 ? (T / 8) * 2 + ((T % 8) / 2) % 2 : (T / 8) * 2 + (T % 8) % 2;
  });
  EXPECT_EQ(C.Wavefronts, 4u);
  EXPECT_EQ(C.Ideal, 4u);
  EXPECT_EQ(C.Phases, 4u);
}

TEST(BankModelH100Device, TestLds128Smem5GroupsOfFourMergeWithConflicts) {
  // Groups of four lanes share an address; each half-warp reads indices
  // {0,8,1,9} / {4,12,5,13}: merged into half-warps, 2-way each. Hardware
  // counters 4 wavefronts, 2 conflicts (ideal 2), upstream kernel and table
  // row t16_smem5. h100-open.csv line 306 says 8/4: the ncu source page.
  BankCost C = lds128([](unsigned T) { return (T / 16) * 4 + (T % 16) / 8 + (T % 8) / 4 * 8; });
  EXPECT_EQ(C.Wavefronts, 4u);
  EXPECT_EQ(C.Ideal, 2u);
  EXPECT_EQ(C.Degree, 2u);
  EXPECT_EQ(C.Phases, 2u);
}

TEST(BankModelH100Device, TestLds64Kernels) {
  // test_lds64.cu: uint2 loads. smem_1 reads index tid (2/2), smem_2 index
  // tid/2 (pairs: 1/1). h100-open.csv lines 308 and 310 agree.
  BankCost S1 = costOf(load(8, [](unsigned T) { return 8 * T; }));
  EXPECT_EQ(S1.Wavefronts, 2u);
  EXPECT_EQ(S1.Ideal, 2u);
  BankCost S2 = costOf(load(8, [](unsigned T) { return 8 * (T / 2); }));
  EXPECT_EQ(S2.Wavefronts, 1u);
  EXPECT_EQ(S2.Ideal, 1u);
}

// --- 2. Textbook cases: Sm70Plus ------------------------------------------

TEST(BankModelSm70, Stride1FloatIsOneWavefront) {
  BankCost C = costOf(load(4, [](unsigned L) { return 4 * L; }));
  EXPECT_EQ(C.Wavefronts, 1u);
  EXPECT_EQ(C.Ideal, 1u);
  EXPECT_EQ(C.Degree, 1u);
  EXPECT_EQ(C.Phases, 1u);
}

TEST(BankModelSm70, Stride32FloatIs32Way) {
  BankCost C = costOf(load(4, [](unsigned L) { return 128 * L + 8; }));
  EXPECT_EQ(C.Wavefronts, 32u);
  EXPECT_EQ(C.Ideal, 1u);
  EXPECT_EQ(C.Degree, 32u);
  EXPECT_EQ(C.WorstBank, 2u);
  EXPECT_EQ(C.WorstPhase, 0u);
}

TEST(BankModelSm70, TileColumnWithAndWithoutPadding) {
  // float tile[32][32] read down a column: 32-way; [32][33]: conflict-free.
  EXPECT_EQ(costOf(load(4, [](unsigned L) { return 4 * 32 * L; })).Degree, 32u);
  EXPECT_EQ(costOf(load(4, [](unsigned L) { return 4 * 33 * L; })).Wavefronts, 1u);
  EXPECT_EQ(costOf(load(4, [](unsigned L) { return 8 * L; })).Degree, 2u); // stride 2
}

TEST(BankModelSm70, Float2LinearIsTwoIdealTwo) {
  for (auto Op : {AccessOp::Load, AccessOp::Store}) {
    BankCost C = costOf(warpAccess(8, Op, [](unsigned L) { return 8 * L; }));
    EXPECT_EQ(C.Wavefronts, 2u);
    EXPECT_EQ(C.Ideal, 2u);
    EXPECT_EQ(C.Degree, 1u);
    EXPECT_EQ(C.Phases, 2u);
  }
  // float2 at a stride of 16 bytes: 2-way inside each half-warp.
  BankCost C = costOf(load(8, [](unsigned L) { return 16 * L; }));
  EXPECT_EQ(C.Wavefronts, 4u);
  EXPECT_EQ(C.Ideal, 2u);
  EXPECT_EQ(C.Degree, 2u);
}

TEST(BankModelSm70, Float4LinearIsFourIdealFour) {
  for (auto Op : {AccessOp::Load, AccessOp::Store}) {
    BankCost C = costOf(warpAccess(16, Op, [](unsigned L) { return 16 * L; }));
    EXPECT_EQ(C.Wavefronts, 4u);
    EXPECT_EQ(C.Ideal, 4u);
    EXPECT_EQ(C.Degree, 1u);
    EXPECT_EQ(C.Phases, 4u);
  }
}

TEST(BankModelSm70, Broadcast) {
  for (unsigned W : {1u, 2u, 4u}) {
    BankCost C = costOf(load(W, [](unsigned) { return 64; }));
    EXPECT_EQ(C.Wavefronts, 1u) << W;
    EXPECT_EQ(C.Ideal, 1u) << W;
  }
  // Loads of one address merge phases (measured): 8-byte -> 1, 16-byte -> 2.
  BankCost C8 = costOf(load(8, [](unsigned) { return 24; }));
  EXPECT_EQ(C8.Wavefronts, 1u);
  EXPECT_EQ(C8.Ideal, 1u);
  EXPECT_EQ(C8.Phases, 1u);
  BankCost C16 = costOf(load(16, [](unsigned) { return 48; }));
  EXPECT_EQ(C16.Wavefronts, 2u);
  EXPECT_EQ(C16.Ideal, 2u);
  EXPECT_EQ(C16.Phases, 2u);
  // Stores never merge.
  EXPECT_EQ(costOf(store(8, [](unsigned) { return 24; })).Wavefronts, 2u);
  EXPECT_EQ(costOf(store(16, [](unsigned) { return 48; })).Wavefronts, 4u);
}

TEST(BankModelSm70, PairedLanesMergeOnlyForLoads) {
  // Lanes 2i and 2i+1 share a double: one phase over the whole warp, where
  // 16 distinct doubles at a stride of 256 bytes (banks 0,1) are 16-way.
  auto Paired = [](unsigned L) { return uint64_t(256) * (L / 2); };
  BankCost Ld = costOf(load(8, Paired));
  EXPECT_EQ(Ld.Phases, 1u);
  EXPECT_EQ(Ld.Wavefronts, 16u);
  EXPECT_EQ(Ld.Ideal, 1u);
  EXPECT_EQ(Ld.Degree, 16u);
  BankCost St = costOf(store(8, Paired));
  EXPECT_EQ(St.Phases, 2u);
  EXPECT_EQ(St.Wavefronts, 16u);
  EXPECT_EQ(St.Ideal, 2u);
  EXPECT_EQ(St.Degree, 8u);
  // Sharing between lanes L and L^16 does not merge (measured).
  BankCost Far = costOf(load(8, [](unsigned L) { return 8 * (L % 16); }));
  EXPECT_EQ(Far.Phases, 2u);
  EXPECT_EQ(Far.Wavefronts, 2u);
}

TEST(BankModelSm70, InactiveLanesAndEmptyPhases) {
  BankCost None = costOf(load(4, [](unsigned L) { return 4 * L; }, 0));
  EXPECT_EQ(None.Wavefronts, 0u);
  EXPECT_EQ(None.Ideal, 0u);
  EXPECT_EQ(None.Degree, 0u);
  EXPECT_EQ(None.WorstBank, 0u);
  EXPECT_EQ(None.WorstPhase, 0u);
  EXPECT_EQ(None.Phases, 0u);
  // Only the upper half-warp active: the lower phase costs nothing.
  BankCost Upper = costOf(store(8, [](unsigned L) { return 8 * L; }, 0xffff0000u));
  EXPECT_EQ(Upper.Wavefronts, 1u);
  EXPECT_EQ(Upper.Ideal, 1u);
  // An inactive lane's address is ignored, even if it would conflict.
  BankCost Ignored = costOf(load(4, [](unsigned L) { return L == 5 ? 128 : 4 * L; },
                                 ~(1u << 5)));
  EXPECT_EQ(Ignored.Wavefronts, 1u);
}

TEST(BankModelSm70, WorstPhaseNamesTheConflictingQuarter) {
  // Quarter 2 of a float4 store reads two rows of the same banks.
  BankCost C = costOf(store(16, [](unsigned L) {
    return L / 8 == 2 ? uint64_t(16) * (L % 4) + 128 * ((L % 8) / 4) : 16 * L;
  }));
  EXPECT_EQ(C.Degree, 2u);
  EXPECT_EQ(C.WorstPhase, 2u);
  EXPECT_EQ(C.WorstBank, 0u);
  EXPECT_EQ(C.Wavefronts, 5u);
  EXPECT_EQ(C.Ideal, 4u);
}

TEST(BankModelSm70, BadWidthsCostNothing) {
  EXPECT_EQ(costOf(load(3, [](unsigned L) { return 4 * L; })).Wavefronts, 0u);
  EXPECT_EQ(costOf(load(32, [](unsigned L) { return 32 * L; })).Ideal, 0u);
}

// --- 2b. Unmeasured variants from the programming guide -------------------

TEST(BankModelSm1x, HalfWarpsAreServedSeparately) {
  const BankArch A = BankArch::Sm1x;
  EXPECT_EQ(bankCount(A), 16u);
  EXPECT_EQ(bankOf(68, A), 1u);
  BankCost Linear = costOf(load(4, [](unsigned L) { return 4 * L; }), A);
  EXPECT_EQ(Linear.Wavefronts, 2u); // one per half-warp
  EXPECT_EQ(Linear.Ideal, 2u);
  EXPECT_EQ(Linear.Degree, 1u);
  EXPECT_EQ(Linear.Phases, 2u);
  // Stride 16 floats: every lane of a half-warp in bank 0.
  BankCost S16 = costOf(load(4, [](unsigned L) { return 64 * L; }), A);
  EXPECT_EQ(S16.Wavefronts, 32u);
  EXPECT_EQ(S16.Degree, 16u);
  // Guide: a linear double read is two stride-2 32-bit requests, 2-way each.
  BankCost D = costOf(load(8, [](unsigned L) { return 8 * L; }), A);
  EXPECT_EQ(D.Wavefronts, 8u);
  EXPECT_EQ(D.Ideal, 4u);
  EXPECT_EQ(D.Degree, 2u);
  // Only one half-warp active.
  EXPECT_EQ(costOf(load(4, [](unsigned) { return 0; }, 0xffffu), A).Wavefronts, 1u);
}

TEST(BankModelSm3x, EightByteBanks) {
  const BankArch A = BankArch::Sm3xEightByte;
  EXPECT_EQ(bankCount(A), 32u);
  EXPECT_EQ(bankOf(264, A), 1u);
  BankCost D = costOf(load(8, [](unsigned L) { return 8 * L; }), A);
  EXPECT_EQ(D.Wavefronts, 1u); // a whole warp of doubles in one pass
  EXPECT_EQ(D.Ideal, 1u);
  // Stride-2 floats: 2-way on sm_70+, conflict-free with 8-byte banks.
  EXPECT_EQ(costOf(load(4, [](unsigned L) { return 8 * L; }), A).Wavefronts, 1u);
  EXPECT_EQ(costOf(load(4, [](unsigned L) { return 8 * L; })).Wavefronts, 2u);
  // Stride 64 floats: all lanes in bank 0, 32 distinct 8-byte words.
  EXPECT_EQ(costOf(load(4, [](unsigned L) { return 256 * L; }), A).Degree, 32u);
  BankCost F4 = costOf(load(16, [](unsigned L) { return 16 * L; }), A);
  EXPECT_EQ(F4.Wavefronts, 2u);
  EXPECT_EQ(F4.Ideal, 2u);
  EXPECT_EQ(F4.Phases, 2u);
}

TEST(BankModelArch, Names) {
  EXPECT_EQ(bankArchFromName("sm_90"), BankArch::Sm70Plus);
  EXPECT_EQ(bankArchFromName("sm_90a"), BankArch::Sm70Plus);
  EXPECT_EQ(bankArchFromName("compute_75"), BankArch::Sm70Plus);
  EXPECT_EQ(bankArchFromName("86"), BankArch::Sm70Plus);
  EXPECT_EQ(bankArchFromName("sm_120"), BankArch::Sm70Plus);
  EXPECT_EQ(bankArchFromName("sm_35"), BankArch::Sm70Plus);
  EXPECT_EQ(bankArchFromName("sm_13"), BankArch::Sm1x);
  EXPECT_EQ(bankArchFromName("sm_10"), BankArch::Sm1x);
  EXPECT_EQ(bankArchFromName("sm_40"), std::nullopt);
  EXPECT_EQ(bankArchFromName("sm_"), std::nullopt);
  EXPECT_EQ(bankArchFromName("sm_9x"), std::nullopt);
  EXPECT_EQ(bankArchFromName(""), std::nullopt);
  for (BankArch A : {BankArch::Sm70Plus, BankArch::Sm3xEightByte, BankArch::Sm1x})
    EXPECT_EQ(bankArchFromName(bankArchName(A)), A) << bankArchName(A);
}

// --- 3. Uniform shifts ------------------------------------------------------

namespace {

/// Random warp accesses of the shapes the data covers: strides, windows,
/// lanes sharing addresses in groups of 2/4/8 or across L^k, random masks.
WarpAccess randomAccess(std::mt19937_64 &R) {
  static const unsigned Widths[] = {1, 2, 4, 8, 16};
  unsigned W = Widths[R() % 5];
  WarpAccess A;
  A.Width = W;
  A.Op = R() % 2 ? AccessOp::Load : AccessOp::Store;
  switch (R() % 4) {
  case 0: A.ActiveMask = 0xffffffffu; break;
  case 1: A.ActiveMask = uint32_t(R()); break;
  case 2: A.ActiveMask = R() % 2 ? 0xffffu : 0xffff0000u; break;
  default: A.ActiveMask = 0x55555555u << (R() % 2); break;
  }
  uint64_t Window = uint64_t(128) << (R() % 6);
  uint64_t Base = W * (R() % 64);
  unsigned Stride = unsigned(R() % 40);
  unsigned Group = 1u << (R() % 4);
  unsigned Xor = 1u << (R() % 5);
  unsigned Kind = unsigned(R() % 4);
  for (unsigned L = 0; L < WarpSize; ++L) {
    uint64_t Off = 0;
    switch (Kind) {
    case 0: Off = uint64_t(Stride) * L * W; break;
    case 1: Off = W * (R() % (Window / W)); break;
    case 2: Off = (L % Group) ? A.ByteAddr[L - 1] - Base : W * (R() % (Window / W)); break;
    default: Off = (L & Xor) ? A.ByteAddr[L ^ Xor] - Base : W * (R() % (Window / W)); break;
    }
    A.ByteAddr[L] = Base + Off;
  }
  return A;
}

bool sameCost(const BankCost &X, const BankCost &Y) {
  return X.Wavefronts == Y.Wavefronts && X.Ideal == Y.Ideal && X.Degree == Y.Degree &&
         X.Phases == Y.Phases;
}

} // namespace

TEST(BankModelShift, InvariantForMultiplesOfTheBankWord) {
  std::mt19937_64 R(20240917);
  const BankArch Archs[] = {BankArch::Sm70Plus, BankArch::Sm3xEightByte, BankArch::Sm1x};
  unsigned Checked = 0;
  for (unsigned I = 0; I < 4000; ++I) {
    WarpAccess A = randomAccess(R);
    for (BankArch Arch : Archs) {
      BankCost Before = costOf(A, Arch);
      // Every multiple of 4 up to two full bank rows, plus a few far ones.
      std::vector<uint64_t> Shifts;
      for (uint64_t D = 4; D <= 256; D += 4)
        Shifts.push_back(D);
      for (int K = 0; K < 4; ++K)
        Shifts.push_back(4 * (R() % (1u << 20)));
      for (uint64_t D : Shifts) {
        if (!costInvariantUnderUniformShift(A.Width, D, Arch))
          continue;
        WarpAccess B = A;
        for (auto &Addr : B.ByteAddr)
          Addr += D;
        ASSERT_TRUE(sameCost(Before, costOf(B, Arch)))
            << bankArchName(Arch) << " shift " << D << " changed " << describe(A);
        ++Checked;
      }
    }
  }
  EXPECT_GT(Checked, 100000u);
}

TEST(BankModelShift, AnswerPerArchAndWidth) {
  for (unsigned W : {1u, 2u, 4u, 8u, 16u}) {
    EXPECT_TRUE(costInvariantUnderUniformShift(W, 4, BankArch::Sm70Plus)) << W;
    EXPECT_TRUE(costInvariantUnderUniformShift(W, 128, BankArch::Sm70Plus)) << W;
    EXPECT_TRUE(costInvariantUnderUniformShift(W, 0, BankArch::Sm70Plus)) << W;
    EXPECT_FALSE(costInvariantUnderUniformShift(W, 2, BankArch::Sm70Plus)) << W;
    EXPECT_TRUE(costInvariantUnderUniformShift(W, 12, BankArch::Sm1x)) << W;
    EXPECT_FALSE(costInvariantUnderUniformShift(W, 4, BankArch::Sm3xEightByte)) << W;
    EXPECT_TRUE(costInvariantUnderUniformShift(W, 8, BankArch::Sm3xEightByte)) << W;
  }
  EXPECT_FALSE(costInvariantUnderUniformShift(3, 4, BankArch::Sm70Plus));
}

TEST(BankModelShift, FinerShiftsReallyChangeTheCost) {
  // The "false" answers are tight: a byte at 3 and one at 128 share bank 0 in
  // different words (2-way); shifted by 1 (or 2) they are in banks 1 and 0.
  auto Pair = [](uint64_t D) {
    return load(1, [D](unsigned L) { return (L == 0 ? 3 : 128) + D; }, 0x3u);
  };
  EXPECT_EQ(costOf(Pair(0)).Wavefronts, 2u);
  EXPECT_EQ(costOf(Pair(1)).Wavefronts, 1u);
  EXPECT_EQ(costOf(Pair(2)).Wavefronts, 1u);
  // With 8-byte banks a shift of 4 is not enough: floats at 4 and 256.
  auto F = [](uint64_t D) {
    return load(4, [D](unsigned L) { return (L == 0 ? 4 : 256) + D; }, 0x3u);
  };
  EXPECT_EQ(costOf(F(0), BankArch::Sm3xEightByte).Wavefronts, 2u);
  EXPECT_EQ(costOf(F(4), BankArch::Sm3xEightByte).Wavefronts, 1u);
}

TEST(BankModelShift, SameCostAtEveryFinerShift) {
  // 32 consecutive bytes: at every byte shift they span 8 or 9 words, each
  // in a bank of its own: 1 wavefront wherever they start.
  WarpAccess Bytes = load(1, [](unsigned L) { return L; });
  EXPECT_TRUE(costSameAtEveryShift(Bytes, 3));
  EXPECT_TRUE(costSameAtEveryShift(Bytes, 1));
  // Bytes 128 apart share a word's bank... in different words (2-way, the
  // pair above) only at some shifts: not the same everywhere.
  WarpAccess Pair = load(1, [](unsigned L) { return L == 0 ? 3 : 128; }, 0x3u);
  EXPECT_FALSE(costSameAtEveryShift(Pair, 1));
  // Only aligned shifts are tried: 2-byte lanes at stride 2 shifted by
  // 2-byte steps stay conflict-free; odd shifts would misalign them.
  WarpAccess Halves = load(2, [](unsigned L) { return 2 * L; });
  EXPECT_TRUE(costSameAtEveryShift(Halves, 1));
  // A whole word is always enough, for every width.
  WarpAccess Stride2 = load(4, [](unsigned L) { return 8 * L; });
  EXPECT_TRUE(costSameAtEveryShift(Stride2, 4));
  // 2-byte lanes 64 bytes apart: 2-way (two words in each bank... ) at
  // every 2-byte step too, so the same.
  WarpAccess Spread = load(2, [](unsigned L) { return 64 * L; });
  EXPECT_TRUE(costSameAtEveryShift(Spread, 2));
  EXPECT_EQ(costOf(Spread).Wavefronts, 16u);
}
