//===- BankModel.cpp - Shared-memory bank model of one warp instruction ---===//
//
// The Sm70Plus rules below were found by fitting, and are checked against,
// 2,150 single-instruction accesses measured on an H100 with Nsight Compute
// (shared/bank-model/h100-access-patterns.csv); every row's wavefronts and
// ideal (= wavefronts - bank conflicts) is reproduced. The facts the data
// shows, and which the code relies on:
//
//  * bank = (addr / 4) % 32; lanes touching the same 4-byte word never
//    conflict, whatever their width or direction (broadcast on loads, one
//    writer wins on stores, sub-word accesses share the word).
//  * The warp is cut into phases of 128 bytes of lane data: one phase for
//    1/2/4-byte accesses, half-warps for 8-byte, quarter-warps for 16-byte.
//    A phase costs the largest number of distinct words one bank holds (so a
//    conflict-free phase costs 1, a phase with no active lane costs 0), and
//    the instruction costs the sum.
//  * Loads only: when lanes L and L^1 read the same address for every active
//    pair, the warp needs half the return bandwidth and the phases double in
//    width (8-byte: the whole warp is one phase; 16-byte: half-warps). Sharing
//    in any other lane pattern (L^4, L^8, L^16, the whole warp in a 128-byte
//    window) does NOT merge on the H100; a whole warp on one address still
//    costs 2 for 16-byte loads. NVIDIA also states the L^2 pairing for sm_70;
//    the CSV has no row that separates it, but a later direct measurement
//    does (16-byte, lanes L and L^2 sharing: 2 wavefronts, unmerged 4).
//  * ideal = number of phases with an active lane: each phase moves at most
//    128 bytes, one wavefront's worth, so a conflict-free layout needs exactly
//    one wavefront per non-empty phase.
//
// Re-checked on an H100 (ncu 2025.3.1, nvcc 13.0) with 46 single-instruction
// LDS.64/LDS.128 launches, among them the exact test_lds128.cu kernels whose
// numbers in shared/ground-truth/h100-open.csv disagree with this rule
// (smem_1 1/1, smem_4 2/2, smem_5 8/4). The hardware counters above give
// 2/2, 4/4 and 4/2 for those kernels, i.e. exactly this rule, and match it on
// all 46 launches; the ground-truth numbers are Nsight Compute's source-page
// values ("L1 Wavefronts Shared [Ideal]", computed by SASS instrumentation),
// a different metric that differs from the hardware counters on 31 of the 46
// launches. This rule models the hardware counters only (see
// docs/bank-model.md and the BankModelH100Device tests).
//
// Sm1x and Sm3xEightByte follow the CUDA programming guide and were never
// measured (see docs/bank-model.md).
//
//===----------------------------------------------------------------------===//

#include "cuda-bank-lint/BankModel/BankModel.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <utility>
#include <vector>

namespace cbl {

unsigned bankCount(BankArch Arch) { return Arch == BankArch::Sm1x ? 16 : 32; }

unsigned bankWordBytes(BankArch Arch) {
  return Arch == BankArch::Sm3xEightByte ? 8 : 4;
}

unsigned bankOf(uint64_t ByteAddr, BankArch Arch) {
  return unsigned((ByteAddr / bankWordBytes(Arch)) % bankCount(Arch));
}

const char *bankArchName(BankArch Arch) {
  switch (Arch) {
  case BankArch::Sm70Plus:
    return "sm_70+";
  case BankArch::Sm3xEightByte:
    return "sm_3x-8byte";
  case BankArch::Sm1x:
    return "sm_1x";
  }
  return "?";
}

std::optional<BankArch> bankArchFromName(const std::string &Name) {
  for (BankArch A : {BankArch::Sm70Plus, BankArch::Sm3xEightByte, BankArch::Sm1x})
    if (Name == bankArchName(A))
      return A;
  std::string S = Name;
  for (const char *Prefix : {"sm_", "compute_"})
    if (S.rfind(Prefix, 0) == 0) {
      S.erase(0, std::char_traits<char>::length(Prefix));
      break;
    }
  if (!S.empty() && (S.back() == 'a' || S.back() == 'f'))
    S.pop_back(); // sm_90a, sm_100f: same memory system as the base target
  if (S.size() < 2 || S.size() > 3 || S[0] == '0' ||
      !std::all_of(S.begin(), S.end(), [](unsigned char C) { return std::isdigit(C); }))
    return std::nullopt;
  unsigned V = unsigned(std::stoul(S));
  if (V >= 10 && V <= 13)
    return BankArch::Sm1x;
  // Fermi and Kepler (default four-byte mode) have 32 four-byte banks too;
  // Kepler's mode is more lenient in one case (words i and i+32 of a 64-word
  // row), so Sm70Plus can only over-count there.
  if (V == 20 || V == 21 || (V >= 30 && V <= 37) || V >= 50)
    return BankArch::Sm70Plus;
  return std::nullopt;
}

namespace {

bool isActive(uint32_t Mask, unsigned Lane) { return (Mask >> Lane) & 1u; }

/// The (bank, word) pairs one pass touches; the cost of the pass is the
/// largest number of distinct words in one bank.
struct Pass {
  std::vector<std::pair<unsigned, uint64_t>> BankWord;

  void add(uint64_t Word, BankArch Arch) {
    BankWord.emplace_back(unsigned(Word % bankCount(Arch)), Word);
  }

  /// Returns {distinct words in the worst bank, that bank}; {0, 0} if empty.
  std::pair<unsigned, unsigned> worst() {
    std::sort(BankWord.begin(), BankWord.end());
    BankWord.erase(std::unique(BankWord.begin(), BankWord.end()), BankWord.end());
    std::pair<unsigned, unsigned> Best{0, 0};
    for (size_t I = 0; I < BankWord.size();) {
      size_t J = I;
      while (J < BankWord.size() && BankWord[J].first == BankWord[I].first)
        ++J;
      if (J - I > Best.first)
        Best = {unsigned(J - I), BankWord[I].first};
      I = J;
    }
    return Best;
  }
};

bool validWidth(unsigned W) {
  return W == 1 || W == 2 || W == 4 || W == 8 || W == 16;
}

/// Sm70Plus load merge: every active lane L whose partner L^Xor is also
/// active reads the same address. Inactive partners do not block the merge
/// (NVIDIA: "the same addresses for all active threads"). Measured since on
/// an H100 (hardware counters): 16-byte loads by lanes {0,15} on one address
/// cost 1, lanes {15,16} cost 2 (merged, but in different half-warps), a
/// pairing warp with lane 1 inactive costs 2 like the full one, and an
/// 8-byte one 1. The check is warp-wide: a warp whose lower half pairs by L^1
/// and upper half by L^2 (test_lds128.cu smem_4) does not merge (4 / 4).
bool lanesPairUp(const WarpAccess &A, unsigned Xor) {
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isActive(A.ActiveMask, L) && isActive(A.ActiveMask, L ^ Xor) &&
        A.ByteAddr[L] != A.ByteAddr[L ^ Xor])
      return false;
  return true;
}

/// Folds one pass into the result: its cost adds to Wavefronts, a non-empty
/// pass is one ideal wavefront, and its worst bank may set Degree.
void account(BankCost &C, Pass &P, unsigned Phase) {
  auto [Words, Bank] = P.worst();
  if (Words == 0)
    return; // a pass with no active lane is skipped by the hardware
  C.Wavefronts += Words;
  C.Ideal += 1;
  if (Words > C.Degree) {
    C.Degree = Words;
    C.WorstBank = Bank;
    C.WorstPhase = Phase;
  }
}

} // namespace

const char *atomicRuleName(AtomicRule R) {
  switch (R) {
  case AtomicRule::Native: return "native";
  case AtomicRule::Cas: return "cas";
  case AtomicRule::CasLoop: return "cas-loop";
  case AtomicRule::GenericCasLoop: return "generic-cas-loop";
  case AtomicRule::PopcInc: return "popc-inc";
  }
  return "native";
}

namespace {

/// The lanes a warp's atomic serves as one unit: the whole warp for 4 bytes,
/// half-warps for 8 (as for loads and stores, a unit carries 128 bytes).
uint32_t unitLanes(unsigned Width, unsigned Unit) {
  return Width == 8 ? 0xffffu << (16 * Unit) : 0xffffffffu;
}

} // namespace

std::array<unsigned, WarpSize> casLoopRounds(const WarpAccess &A) {
  // Each iteration, in every unit the lowest lane left on each bank (bank
  // pair for 8 bytes) tries its compare-and-swap, and of the tries on one
  // address only the lowest lane's succeeds.
  std::array<unsigned, WarpSize> Round{};
  uint32_t Left = A.ActiveMask;
  const unsigned Units = A.Width == 8 ? 2 : 1;
  for (unsigned It = 1; Left; ++It) {
    std::vector<uint64_t> Tried;
    uint32_t Done = 0;
    for (unsigned U = 0; U < Units; ++U) {
      uint32_t InUnit = Left & unitLanes(A.Width, U);
      uint32_t BankTaken = 0;
      for (unsigned L = 0; L < WarpSize; ++L) {
        if (!isActive(InUnit, L))
          continue;
        unsigned B = unsigned((A.ByteAddr[L] / A.Width) % (WarpSize * 4 / A.Width));
        if (BankTaken >> B & 1)
          continue;
        BankTaken |= 1u << B;
        if (std::find(Tried.begin(), Tried.end(), A.ByteAddr[L]) == Tried.end()) {
          Done |= 1u << L;
          Round[L] = It;
        }
        Tried.push_back(A.ByteAddr[L]);
      }
    }
    Left &= ~Done;
  }
  return Round;
}

namespace {

/// The bank most lanes of Lanes use, counting each lane once per bank its
/// Width bytes cover and lanes on one address separately: {lanes, bank}.
std::pair<unsigned, unsigned> busiestBank(const WarpAccess &A, uint32_t Lanes) {
  unsigned PerBank[WarpSize] = {};
  std::pair<unsigned, unsigned> Best{0, 0};
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isActive(Lanes, L))
      for (unsigned W = 0; W < std::max(1u, A.Width / 4); ++W) {
        unsigned B = unsigned((A.ByteAddr[L] / 4 + W) % WarpSize);
        if (++PerBank[B] > Best.first || (PerBank[B] == Best.first && B < Best.second))
          Best = {PerBank[B], B};
      }
  return Best;
}

/// The bank holding the most distinct words that Lanes touch (4-byte
/// lanes): {words, bank}. Lanes on one word count once.
std::pair<unsigned, unsigned> busiestBankByWords(const WarpAccess &A, uint32_t Lanes) {
  Pass P;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (isActive(Lanes, L))
      P.add(A.ByteAddr[L] / 4, BankArch::Sm70Plus);
  return P.worst();
}

/// The busiest bank of unit Unit sets Degree when it is the busiest so far.
void noteWorst(BankCost &C, std::pair<unsigned, unsigned> Busiest, unsigned Unit) {
  if (Busiest.first > C.Degree) {
    C.Degree = Busiest.first;
    C.WorstBank = Busiest.second;
    C.WorstPhase = Unit;
  }
}

/// AtomicRule::CasLoop: run the loop (casLoopRounds); each iteration the
/// lanes left load their word and every unit with a lane left costs two
/// wavefronts.
void casLoopCost(const WarpAccess &A, BankArch Arch, BankCost &C) {
  const std::array<unsigned, WarpSize> Round = casLoopRounds(A);
  const unsigned Last = *std::max_element(Round.begin(), Round.end());
  const unsigned Units = A.Width == 8 ? 2 : 1;
  for (unsigned It = 1; It <= Last; ++It) {
    uint32_t Left = 0;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (Round[L] >= It)
        Left |= 1u << L;
    ++C.Iterations;
    WarpAccess Load = A;
    Load.Op = AccessOp::Load;
    Load.ActiveMask = Left;
    const BankCost LoadCost = costOf(Load, Arch);
    C.LoopLoadWavefronts += LoadCost.Wavefronts;
    C.LoopLoadIdeal += LoadCost.Ideal;
    for (unsigned U = 0; U < Units; ++U)
      if (Left & unitLanes(A.Width, U))
        C.Wavefronts += 2;
  }
}

BankCost atomicCost(const WarpAccess &A, BankArch Arch) {
  BankCost C;
  if (A.ActiveMask == 0 || (A.Width != 4 && A.Width != 8))
    return C;
  const bool Loop = A.Atomic == AtomicRule::CasLoop || A.Atomic == AtomicRule::GenericCasLoop;
  unsigned Units = A.Width == 8 ? 2 : 1;
  C.Phases = Units;
  for (unsigned U = 0; U < Units; ++U) {
    uint32_t Lanes = A.ActiveMask & unitLanes(A.Width, U);
    if (!Lanes)
      continue;
    auto Busiest = A.Atomic == AtomicRule::PopcInc ? busiestBankByWords(A, Lanes) : busiestBank(A, Lanes);
    switch (A.Atomic) {
    case AtomicRule::PopcInc:
    case AtomicRule::Native:
      C.Wavefronts += Busiest.first;
      C.Ideal += 1;
      break;
    case AtomicRule::Cas:
      C.Wavefronts += 2 * Busiest.first;
      C.Ideal += 2;
      break;
    case AtomicRule::CasLoop:
    case AtomicRule::GenericCasLoop:
      C.Ideal += 2;
      break;
    }
    noteWorst(C, Busiest, U);
  }
  if (!Loop) {
    C.Iterations = 1;
  } else {
    casLoopCost(A, Arch, C);
    C.Degree = C.Iterations;
    if (A.Atomic == AtomicRule::GenericCasLoop) {
      C.Wavefronts += 1;
      C.Ideal += 1;
    }
  }
  if (C.Wavefronts == C.Ideal)
    C.Degree = 1;
  return C;
}

} // namespace

const char *accessOpName(AccessOp Op) {
  switch (Op) {
  case AccessOp::Load: return "ld";
  case AccessOp::Store: return "st";
  case AccessOp::Atomic: return "atom";
  }
  return "ld";
}

unsigned lanesPerPhase(const WarpAccess &A, BankArch Arch) {
  if (Arch == BankArch::Sm1x)
    return 16;
  // The phase carries at most one wavefront of lane data (128 bytes on
  // sm_70+, 256 bytes with Kepler's 8-byte banks).
  const unsigned WavefrontBytes = bankCount(Arch) * bankWordBytes(Arch);
  unsigned PhaseLanes = std::min(WarpSize, WavefrontBytes / std::max(1u, A.Width));
  if (Arch == BankArch::Sm70Plus && A.Op == AccessOp::Load && !A.Matrix &&
      PhaseLanes < WarpSize && (lanesPairUp(A, 1) || lanesPairUp(A, 2)))
    PhaseLanes *= 2; // paired lanes share data: half the bytes to return
  return PhaseLanes;
}

std::optional<unsigned> sourcePageIdeal(const WarpAccess &A, BankArch Arch) {
  if (Arch != BankArch::Sm70Plus || A.Op == AccessOp::Atomic || A.Matrix || !validWidth(A.Width))
    return std::nullopt;
  const unsigned WavefrontBytes = bankCount(Arch) * bankWordBytes(Arch);
  if (A.Op == AccessOp::Load && lanesPerPhase(A, Arch) * A.Width > WavefrontBytes)
    return std::nullopt; // merged pairs: the source page's rule was not measured
  unsigned Bytes = unsigned(__builtin_popcount(A.ActiveMask)) * A.Width;
  return (Bytes + WavefrontBytes - 1) / WavefrontBytes;
}

BankCost costOf(const WarpAccess &A, BankArch Arch) {
  BankCost C;
  C.Phases = 0;
  // No instruction moves another width; callers split wider data first, and
  // anything else costs nothing rather than inventing a number.
  if (A.ActiveMask == 0 || !validWidth(A.Width))
    return C;
  if (A.Op == AccessOp::Atomic)
    return atomicCost(A, Arch);

  const uint64_t WordBytes = bankWordBytes(Arch);
  if (Arch == BankArch::Sm1x) {
    // Guide, compute capability 1.x: each half-warp is served on its own, and
    // an access wider than 32 bits is compiled into separate 32-bit requests
    // (a double array read linearly is two stride-2 requests: 2-way).
    C.Phases = 2;
    unsigned Requests = A.Width > 4 ? A.Width / 4 : 1;
    for (unsigned Half = 0; Half < 2; ++Half)
      for (unsigned R = 0; R < Requests; ++R) {
        Pass P;
        for (unsigned L = Half * 16; L < Half * 16 + 16; ++L)
          if (isActive(A.ActiveMask, L))
            P.add(A.ByteAddr[L] / WordBytes + R, Arch);
        account(C, P, Half);
      }
    return C;
  }

  const unsigned PhaseLanes = lanesPerPhase(A, Arch);
  C.Phases = WarpSize / PhaseLanes;

  for (unsigned Phase = 0; Phase < C.Phases; ++Phase) {
    Pass P;
    for (unsigned L = Phase * PhaseLanes; L < (Phase + 1) * PhaseLanes; ++L) {
      if (!isActive(A.ActiveMask, L))
        continue;
      uint64_t First = A.ByteAddr[L] / WordBytes;
      uint64_t Last = (A.ByteAddr[L] + A.Width - 1) / WordBytes;
      for (uint64_t W = First; W <= Last; ++W)
        P.add(W, Arch);
    }
    account(C, P, Phase);
  }
  return C;
}

bool costInvariantUnderUniformShift(unsigned Width, uint64_t ShiftGcdBytes,
                                    BankArch Arch) {
  if (!validWidth(Width))
    return false;
  // Shifting every address by a multiple k*WordBytes adds k to every word
  // index: banks rotate (a bijection), equal words/addresses stay equal, and
  // phases and the load merge depend only on lane numbers and address
  // equality. Any finer shift can move a sub-word access across a word
  // boundary, which changes which lanes share a word.
  return ShiftGcdBytes % bankWordBytes(Arch) == 0;
}

bool costSameAtEveryShift(const WarpAccess &Access, uint64_t StepBytes, BankArch Arch) {
  if (costInvariantUnderUniformShift(Access.Width, StepBytes, Arch))
    return true;
  const uint64_t Period = uint64_t(bankWordBytes(Arch)) * 32; // 32 banks
  const uint64_t Step = std::gcd(StepBytes, Period);
  std::optional<BankCost> First;
  for (uint64_t Shift = 0; Shift < Period; Shift += Step) {
    WarpAccess W = Access;
    bool Aligned = true;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (W.ActiveMask >> L & 1) {
        W.ByteAddr[L] += Shift;
        Aligned &= W.ByteAddr[L] % std::max(1u, W.Width) == 0;
      }
    if (!Aligned)
      continue;
    BankCost C = costOf(W, Arch);
    if (!First)
      First = C;
    else if (C.Wavefronts != First->Wavefronts || C.Ideal != First->Ideal || C.Degree != First->Degree)
      return false;
  }
  return First.has_value();
}

} // namespace cbl
