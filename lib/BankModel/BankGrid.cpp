//===- BankGrid.cpp - Where one warp instruction's words go ---------------===//
#include "cuda-bank-lint/BankModel/BankGrid.h"

#include <algorithm>
#include <utility>

namespace cbl {

const char *gridRowsName(GridRows R) {
  switch (R) {
  case GridRows::Wavefronts: return "wavefront";
  case GridRows::CasPairs: return "pair of wavefronts";
  case GridRows::LoopIterations: return "iteration";
  }
  return "wavefront";
}

namespace {

bool active(uint32_t Mask, unsigned Lane) { return Mask >> Lane & 1u; }

/// One pass of the hardware over some lanes: per bank, its distinct words in
/// the order they are first met, with the lanes of each.
class Pass {
public:
  explicit Pass(unsigned Banks) : PerBank(Banks) {}

  void add(uint64_t Word, unsigned Lane) {
    auto &Words = PerBank[Word % PerBank.size()];
    auto It = std::find_if(Words.begin(), Words.end(), [&](const auto &W) { return W.first == Word; });
    if (It == Words.end())
      Words.push_back({Word, 1u << Lane});
    else
      It->second |= 1u << Lane;
  }

  /// Appends the pass as the next rows of G, one word of each bank per row.
  void emit(BankGrid &G, uint32_t Lanes) const {
    unsigned Rows = 0;
    for (const auto &Words : PerBank)
      Rows = std::max(Rows, unsigned(Words.size()));
    if (!Rows)
      return;
    for (unsigned R = 0; R < Rows; ++R)
      for (unsigned B = 0; B < PerBank.size(); ++B)
        if (R < PerBank[B].size())
          G.Cells.push_back({G.Rows + R, B, PerBank[B][R].first, PerBank[B][R].second});
    G.Phases.push_back({Lanes, G.Rows, Rows});
    G.Rows += Rows;
  }

private:
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> PerBank;
};

/// Loads and stores: the passes costOf sums.
void loadStoreGrid(const WarpAccess &A, BankArch Arch, BankGrid &G) {
  const uint64_t WordBytes = bankWordBytes(Arch);
  if (Arch == BankArch::Sm1x) {
    // Each half-warp on its own, a wide access as separate 32-bit requests.
    unsigned Requests = A.Width > 4 ? A.Width / 4 : 1;
    for (unsigned Half = 0; Half < 2; ++Half)
      for (unsigned R = 0; R < Requests; ++R) {
        Pass P(G.Banks);
        uint32_t Lanes = 0;
        for (unsigned L = Half * 16; L < Half * 16 + 16; ++L)
          if (active(A.ActiveMask, L)) {
            P.add(A.ByteAddr[L] / WordBytes + R, L);
            Lanes |= 1u << L;
          }
        P.emit(G, Lanes);
      }
    return;
  }
  const unsigned PhaseLanes = lanesPerPhase(A, Arch);
  for (unsigned Phase = 0; Phase < WarpSize / PhaseLanes; ++Phase) {
    Pass P(G.Banks);
    uint32_t Lanes = 0;
    for (unsigned L = Phase * PhaseLanes; L < (Phase + 1) * PhaseLanes; ++L) {
      if (!active(A.ActiveMask, L))
        continue;
      Lanes |= 1u << L;
      for (uint64_t W = A.ByteAddr[L] / WordBytes; W <= (A.ByteAddr[L] + A.Width - 1) / WordBytes; ++W)
        P.add(W, L);
    }
    P.emit(G, Lanes);
  }
}

/// The lanes an atomic serves as one unit (BankModel.cpp: half-warps for 8 bytes).
uint32_t unitMask(unsigned Width, unsigned Unit) {
  return Width == 8 ? 0xffffu << (16 * Unit) : 0xffffffffu;
}

/// Native atomics and atomicCAS: no broadcast, each lane of a bank in a row
/// of its own, per unit.
void atomicGrid(const WarpAccess &A, BankGrid &G) {
  const unsigned Units = A.Width == 8 ? 2 : 1;
  for (unsigned U = 0; U < Units; ++U) {
    uint32_t Lanes = A.ActiveMask & unitMask(A.Width, U);
    if (!Lanes)
      continue;
    std::vector<unsigned> Used(G.Banks, 0);
    unsigned Rows = 0;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (active(Lanes, L))
        for (unsigned W = 0; W < A.Width / 4; ++W) {
          uint64_t Word = A.ByteAddr[L] / 4 + W;
          unsigned B = unsigned(Word % G.Banks);
          G.Cells.push_back({G.Rows + Used[B]++, B, Word, 1u << L});
          Rows = std::max(Rows, Used[B]);
        }
    G.Phases.push_back({Lanes, G.Rows, Rows});
    G.Rows += Rows;
  }
}

/// A compare-and-swap loop: one row per iteration and unit with a lane
/// left (each costs two wavefronts), holding the lanes that succeed in it.
void casLoopGrid(const WarpAccess &A, BankGrid &G) {
  const std::array<unsigned, WarpSize> Round = casLoopRounds(A);
  const unsigned Last = *std::max_element(Round.begin(), Round.end());
  const unsigned Units = A.Width == 8 ? 2 : 1;
  for (unsigned It = 1; It <= Last; ++It)
    for (unsigned U = 0; U < Units; ++U) {
      uint32_t Left = 0;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (Round[L] >= It && active(unitMask(A.Width, U), L))
          Left |= 1u << L;
      if (!Left)
        continue;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (active(Left, L) && Round[L] == It)
          for (unsigned W = 0; W < A.Width / 4; ++W) {
            uint64_t Word = A.ByteAddr[L] / 4 + W;
            G.Cells.push_back({G.Rows, unsigned(Word % G.Banks), Word, 1u << L});
          }
      G.Phases.push_back({Left, G.Rows, 1});
      ++G.Rows;
    }
}

} // namespace

BankGrid bankGrid(const WarpAccess &A, BankArch Arch) {
  BankGrid G;
  G.Banks = A.Op == AccessOp::Atomic ? WarpSize : bankCount(Arch); // atomics: sm_70+ rules only
  if (costOf(A, Arch).Wavefronts == 0)
    return G; // no lane active, or no instruction of that width
  if (A.Op != AccessOp::Atomic) {
    loadStoreGrid(A, Arch, G);
  } else if (A.Atomic == AtomicRule::CasLoop || A.Atomic == AtomicRule::GenericCasLoop) {
    G.Meaning = GridRows::LoopIterations;
    casLoopGrid(A, G);
  } else {
    G.Meaning = A.Atomic == AtomicRule::Cas ? GridRows::CasPairs : GridRows::Wavefronts;
    atomicGrid(A, G);
  }
  std::stable_sort(G.Cells.begin(), G.Cells.end(), [](const GridCell &X, const GridCell &Y) {
    return X.Row != Y.Row ? X.Row < Y.Row : X.Bank < Y.Bank;
  });
  return G;
}

} // namespace cbl
