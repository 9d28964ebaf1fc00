//===- AtomicModelTest.cpp - The bank model of shared-memory atomics ------===//
//
// Every row of test/data/h100-atomics.csv (single atomic instructions of one
// warp measured on an H100 with Nsight Compute; utils/oracles/ has the probe
// and docs/bank-model.md the method) must be reproduced: the atomic
// wavefronts, the instructions executed (a CAS loop's iterations) and the
// wavefronts of a CAS loop's own loads. A missing file is a failure.
//
//===----------------------------------------------------------------------===//

#include "MeasuredTable.h"
#include "cuda-bank-lint/BankModel/BankModel.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace cbl;

namespace {

/// "generic": a generic-address ATOM (cuda::atomic_ref) that reaches shared
/// memory costs what the native ATOMS does; ncu counts it as a generic
/// instruction, not a shared one, so its shared instruction count is 0.
///
/// "value-dependent": 64-bit min, max, and, or, xor compile to a CAS loop
/// that lanes whose value would not change the word leave early: how many
/// iterations run depends on the data, and the CAS-loop rule is not even an
/// upper bound there (a lane that skips changes who is served next). The
/// rows are kept as measured facts; the front end reports these atomics as
/// unsupported (Frontend/Atomics.cpp), so no rule is claimed for them.
AtomicRule ruleNamed(const std::string &Name) {
  if (Name == "generic")
    return AtomicRule::Native;
  for (AtomicRule R : {AtomicRule::Native, AtomicRule::Cas, AtomicRule::CasLoop,
                       AtomicRule::GenericCasLoop, AtomicRule::PopcInc})
    if (Name == atomicRuleName(R))
      return R;
  ADD_FAILURE() << "unknown rule '" << Name << "'";
  return AtomicRule::Native;
}

WarpAccess atomic(AtomicRule Rule, unsigned Width, uint32_t Mask, const std::vector<uint64_t> &Offsets) {
  WarpAccess A;
  A.Op = AccessOp::Atomic;
  A.Atomic = Rule;
  A.Width = Width;
  A.ActiveMask = Mask;
  for (unsigned L = 0; L < WarpSize; ++L)
    A.ByteAddr[L] = Offsets[L % Offsets.size()];
  return A;
}

} // namespace

TEST(AtomicModelH100, ReproducesEveryMeasuredRow) {
  test::MeasuredTable T = test::readMeasuredTable(CBL_TEST_DATA_DIR "/h100-atomics.csv");
  ASSERT_TRUE(T.Error.empty()) << T.Error;
  const std::vector<std::string> &Header = T.Header;
  ASSERT_EQ(Header.size(), 9u + WarpSize);
  ASSERT_EQ(Header[3], "rule");
  ASSERT_EQ(Header[6], "wavefronts");
  ASSERT_EQ(Header[8], "loop_ld_wavefronts");
  unsigned Rows = 0, Mismatches = 0, ValueDependent = 0;
  std::map<std::string, unsigned> PerOp;
  for (const std::vector<std::string> &F : T.Rows) {
    unsigned LineNo = Rows + 2;
    ++Rows;
    ++PerOp[F[0]];
    if (F[3] == "value-dependent") {
      ++ValueDependent;
      continue;
    }
    std::vector<uint64_t> Offsets;
    for (unsigned L = 0; L < WarpSize; ++L)
      Offsets.push_back(std::stoull(F[9 + L]));
    WarpAccess A = atomic(ruleNamed(F[3]), unsigned(std::stoul(F[4])),
                          uint32_t(std::stoul(F[5], nullptr, 16)), Offsets);
    unsigned Wavefronts = unsigned(std::stoul(F[6])), Instructions = unsigned(std::stoul(F[7])),
             LoopLoads = unsigned(std::stoul(F[8]));
    BankCost C = costOf(A);
    if (F[3] == "generic")
      C.Iterations = 0;
    if (C.Wavefronts != Wavefronts || C.Iterations != Instructions ||
        C.LoopLoadWavefronts != LoopLoads) {
      ++Mismatches;
      ADD_FAILURE() << "line " << LineNo << " (" << F[0] << ", " << F[1] << "): expected "
                    << Wavefronts << " wavefronts, " << Instructions << " instructions, "
                    << LoopLoads << " loop load wavefronts; got " << C.Wavefronts << ", "
                    << C.Iterations << ", " << C.LoopLoadWavefronts;
    }
    EXPECT_EQ(C.Degree == 1, C.Wavefronts == C.Ideal) << "line " << LineNo;
    EXPECT_LE(C.Ideal, C.Wavefronts) << "line " << LineNo;
  }
  EXPECT_EQ(Rows, 10220u) << "the measured table should hold 10,220 rows";
  for (const auto &[Op, N] : PerOp)
    EXPECT_GE(N, 300u) << "at least 300 measured patterns per class: " << Op;
  EXPECT_EQ(Mismatches, 0u);
  EXPECT_EQ(ValueDependent, 730u) << "two value-dependent classes, 365 rows each";
  std::printf("[ atomics ] %u rows in %zu classes, %u mismatches (%u rows of value-dependent "
              "loops not modelled)\n",
              Rows, PerOp.size(), Mismatches, ValueDependent);
}

// Textbook cases of each rule, stated in words.
TEST(AtomicModel, PopcIncMergesTheLanesOfOneWord) {
  // atomicAdd(&h[0], 1) by the whole warp, result unused: one wavefront.
  BankCost Same = costOf(atomic(AtomicRule::PopcInc, 4, 0xffffffffu, {0}));
  EXPECT_EQ(Same.Wavefronts, 1u);
  EXPECT_EQ(Same.Degree, 1u);
  // Two words of bank 0 (0 and 128 bytes), 16 lanes each: 2 wavefronts.
  BankCost Two = costOf(atomic(AtomicRule::PopcInc, 4, 0xffffffffu, {0, 128}));
  EXPECT_EQ(Two.Wavefronts, 2u);
  EXPECT_EQ(Two.Ideal, 1u);
  // The same lanes with a value other than 1 (ATOMS.ADD): 32.
  EXPECT_EQ(costOf(atomic(AtomicRule::Native, 4, 0xffffffffu, {0, 128})).Wavefronts, 32u);
}

TEST(AtomicModel, NativeAtomicsDoNotBroadcast) {
  // 32 lanes on one word: 32 wavefronts (a load would broadcast in 1).
  BankCost Same = costOf(atomic(AtomicRule::Native, 4, 0xffffffffu, {0}));
  EXPECT_EQ(Same.Wavefronts, 32u);
  EXPECT_EQ(Same.Ideal, 1u);
  EXPECT_EQ(Same.Degree, 32u);
  // Consecutive words: conflict-free.
  std::vector<uint64_t> Linear;
  for (unsigned L = 0; L < WarpSize; ++L)
    Linear.push_back(4 * L);
  EXPECT_EQ(costOf(atomic(AtomicRule::Native, 4, 0xffffffffu, Linear)).Wavefronts, 1u);
}

TEST(AtomicModel, CasCostsTwoPerLaneOfTheBusiestBank) {
  std::vector<uint64_t> Pairs; // lanes 2k and 2k+1 on word k: 2 lanes per bank
  for (unsigned L = 0; L < WarpSize; ++L)
    Pairs.push_back(4 * (L / 2));
  BankCost C = costOf(atomic(AtomicRule::Cas, 4, 0xffffffffu, Pairs));
  EXPECT_EQ(C.Wavefronts, 4u);
  EXPECT_EQ(C.Ideal, 2u);
  EXPECT_EQ(C.Degree, 2u);
}

TEST(AtomicModel, CasLoopRunsOneLanePerBankPerIteration) {
  // float atomicAdd by the whole warp on one word: 32 iterations of 2.
  BankCost C = costOf(atomic(AtomicRule::CasLoop, 4, 0xffffffffu, {0}));
  EXPECT_EQ(C.Iterations, 32u);
  EXPECT_EQ(C.Wavefronts, 64u);
  EXPECT_EQ(C.Ideal, 2u);
  // Each iteration reloads the word: one wavefront per iteration (broadcast).
  EXPECT_EQ(C.LoopLoadWavefronts, 32u);
}
