//===- BankModelTest.cpp - Tests of the shared-memory bank model ----------===//
//
// 1. Every row of the H100 measurements (shared/bank-model) must be reproduced:
//    wavefronts, and ideal = wavefronts - conflicts. The CSV is found through
//    $CBL_BANK_MODEL_CSV, else CBL_SHARED_DIR "/bank-model/..." (a compile
//    definition); a missing file is a failure, never a skip.
// 2. Textbook cases for Sm70Plus and the unmeasured Sm1x / Sm3xEightByte.
// 3. A brute-force property test of costInvariantUnderUniformShift.
//
//===----------------------------------------------------------------------===//

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

WarpAccess make(unsigned Width, AccessOp Op, std::function<uint64_t(unsigned)> Addr,
                uint32_t Mask = 0xffffffffu) {
  WarpAccess A;
  A.Width = Width;
  A.Op = Op;
  A.ActiveMask = Mask;
  for (unsigned L = 0; L < WarpSize; ++L)
    A.ByteAddr[L] = Addr(L);
  return A;
}

WarpAccess load(unsigned Width, std::function<uint64_t(unsigned)> Addr,
                uint32_t Mask = 0xffffffffu) {
  return make(Width, AccessOp::Load, Addr, Mask);
}

WarpAccess store(unsigned Width, std::function<uint64_t(unsigned)> Addr,
                 uint32_t Mask = 0xffffffffu) {
  return make(Width, AccessOp::Store, Addr, Mask);
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
#ifdef CBL_SHARED_DIR
  return CBL_SHARED_DIR "/bank-model/h100-access-patterns.csv";
#else
  return "";
#endif
}

std::vector<std::string> split(const std::string &Line) {
  std::vector<std::string> Out;
  std::string Field;
  std::istringstream IS(Line);
  while (std::getline(IS, Field, ','))
    Out.push_back(Field);
  return Out;
}

} // namespace

// --- 1. The measured H100 data ---------------------------------------------

TEST(BankModelH100, ReproducesEveryMeasuredRow) {
  std::string Path = csvPath();
  ASSERT_FALSE(Path.empty())
      << "no CSV: set CBL_BANK_MODEL_CSV or compile with -DCBL_SHARED_DIR=...";
  std::ifstream In(Path);
  ASSERT_TRUE(In.good()) << "cannot open the H100 bank-model CSV '" << Path
                         << "' (set CBL_BANK_MODEL_CSV to its path)";
  std::string Line;
  ASSERT_TRUE(std::getline(In, Line)) << Path << " is empty";
  std::vector<std::string> Header = split(Line);
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
    std::vector<std::string> F = split(Line);
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
    BankCost C = costOf(make(8, Op, [](unsigned L) { return 8 * L; }));
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
    BankCost C = costOf(make(16, Op, [](unsigned L) { return 16 * L; }));
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
