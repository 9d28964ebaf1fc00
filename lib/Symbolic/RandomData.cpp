//===- RandomData.cpp - Expected cost of a data-dependent access ----------===//
//
// An address computed from values loaded from memory (a histogram's bin, a
// scatter's destination, a gather's source) cannot be known before the run.
// What can be said is what it costs on random data: each lane's loaded value
// independent and uniform over the values the program allows, the warp
// request costed by the bank model, averaged over a fixed number of warps
// drawn from a seeded generator (so a run's figures are reproducible). The
// values the program allows: a value the index masks or reduces itself
// (in[t] & 255, key % 64) is drawn from all 32-bit values; a value the index
// uses linearly (s[key], s[32 * key + lane]) is drawn from the values that
// keep the lane's address inside the array. On an H100 class GPU this
// expectation matched the measured wavefronts of histogram atomics, scatter
// stores and gather loads on random keys (docs/accuracy.md).
//
//===----------------------------------------------------------------------===//
#include "WarpPasses.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace cbl {
namespace warp {
namespace {

constexpr unsigned Samples = 500;
constexpr unsigned MaxDataValues = 4;
/// How one loaded value is drawn for one lane: uniform over [Lo, Hi].
struct Range {
  int64_t Lo = 0, Hi = 0;
};

std::string leafName(unsigned K) { return "\x01data" + std::to_string(K); }

/// The lane's byte offset with the loaded values Values (leaf K = Values[K]);
/// std::nullopt when the lane does not run the access or it cannot be computed.
/// Guards: whether to evaluate the access's guards with these values (the
/// draws do; the sampled warps reuse the lanes the draws found running it).
struct LaneOffsets {
  Context &C;
  const SymExpr &Offset;
  unsigned Warp;
  std::map<std::string, int64_t> Bound = {};
  std::vector<std::optional<LaneEnv>> Envs = {};
  std::optional<int64_t> at(unsigned L, const std::vector<int64_t> &Values, bool &Failed,
                            bool Guards = true) {
    if (Envs.empty()) {
      Envs.resize(WarpSize);
      for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
        LaneEnv E;
        if (laneEnv(C, Warp, Lane, E))
          Envs[Lane] = E;
      }
    }
    if (!Envs[L])
      return std::nullopt;
    LaneEnv Env = *Envs[L];
    for (unsigned K = 0; K < Values.size(); ++K)
      Bound[leafName(K)] = Values[K];
    Env.UniformValues = &Bound;
    bool Taken = true;
    Failure F;
    if (Guards && !guardsTaken(C, Env, Taken, F)) {
      Failed = true;
      return std::nullopt;
    }
    if (!Taken)
      return std::nullopt;
    LaneValue V = evaluateLane(Offset, Env);
    if (!V.known()) {
      Failed = true;
      return std::nullopt;
    }
    return V.C; // uniform terms (n, blockIdx) shift every lane alike
  }
};

/// The values of leaf K that keep lane L inside [0, Limit) when the offset
/// is linear in it (other leaves at 0); std::nullopt when it is not linear.
/// Bits: the width of the loaded value (a 16-bit counter wraps at 65536).
std::optional<Range> linearRange(LaneOffsets &O, unsigned L, unsigned K, unsigned Leaves,
                                 int64_t Limit, unsigned Bits) {
  const int64_t Probe = int64_t(1) << std::min(20u, Bits > 2 ? Bits - 2 : 1u);
  std::vector<int64_t> V(Leaves, 0);
  bool Failed = false;
  auto F0 = O.at(L, V, Failed);
  V[K] = 1;
  auto F1 = O.at(L, V, Failed);
  V[K] = Probe;
  auto Far = O.at(L, V, Failed);
  if (Failed || !F0 || !F1 || !Far || *F1 == *F0 || *Far - *F0 != (*F1 - *F0) * Probe)
    return std::nullopt;
  int64_t A = *F1 - *F0, B = *F0;
  // 0 <= B + A v <= Limit - 1
  auto FloorDiv = [](int64_t N, int64_t D) { return N / D - ((N % D != 0) && ((N < 0) != (D < 0))); };
  auto CeilDiv = [&](int64_t N, int64_t D) { return -FloorDiv(-N, D); };
  Range R;
  R.Lo = A > 0 ? CeilDiv(-B, A) : CeilDiv(Limit - 1 - B, A);
  R.Hi = A > 0 ? FloorDiv(Limit - 1 - B, A) : FloorDiv(-B, A);
  if (R.Lo > R.Hi)
    return std::nullopt;
  return R;
}

/// The worst case: when every lane computes its address from the loaded
/// values alone (the same values give every lane the same address), the
/// lanes may all pick one word (atomics that serve a word's lanes one at a
/// time) or distinct words of the bank that holds the most words they can
/// reach (the other rules): that warp's cost. Otherwise the costliest warp
/// drawn stays the worst, marked as seen rather than reachable.
void collidingWorst(const SharedAccess &A, BankArch Arch, uint32_t Lanes, bool LaneIndependent,
                    const std::set<uint64_t> &Seen, RandomDataCost &Out) {
  Out.WorstReachable = LaneIndependent && !Seen.empty();
  if (!Out.WorstReachable)
    return;
  const bool OneWordSerialises = A.Op == AccessOp::Atomic && A.Atomic != AtomicRule::PopcInc;
  std::map<unsigned, std::vector<uint64_t>> ByBank;
  for (uint64_t Addr : Seen)
    ByBank[unsigned(Addr / 4 % WarpSize)].push_back(Addr);
  const std::vector<uint64_t> *Most = nullptr;
  for (const auto &[Bank, Addrs] : ByBank)
    if (!Most || Addrs.size() > Most->size())
      Most = &Addrs;
  WarpAccess W;
  W.Width = A.Width;
  W.Op = A.Op;
  W.Atomic = A.Atomic;
  W.ActiveMask = Lanes;
  unsigned Next = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (Lanes >> L & 1)
      W.ByteAddr[L] = OneWordSerialises ? (*Most)[0] : (*Most)[Next++ % Most->size()];
  Out.Worst = costOf(W, Arch);
}

/// Whether the same loaded values give every running lane the same address.
bool laneIndependent(LaneOffsets &O, uint32_t Lanes, unsigned Leaves, std::mt19937_64 &Rng,
                     const std::vector<std::vector<Range>> &Ranges) {
  for (unsigned Try = 0; Try < 8; ++Try) {
    std::vector<int64_t> V(Leaves);
    for (unsigned K = 0; K < Leaves; ++K)
      V[K] = Ranges[0][K].Lo + int64_t(Rng() % uint64_t(Ranges[0][K].Hi - Ranges[0][K].Lo + 1));
    std::optional<int64_t> First;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(Lanes >> L & 1))
        continue;
      bool Failed = false;
      auto Off = O.at(L, V, Failed);
      if (Failed || !Off || (First && *Off != *First))
        return false;
      First = Off;
    }
  }
  return true;
}

} // namespace

std::optional<RandomDataCost> randomDataCost(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                             const std::vector<SharedArray> &Arrays,
                                             const EvalShape &Shape, BankArch Arch) {
  // The loaded values the address reads become named unknowns.
  std::map<std::pair<std::string, std::string>, unsigned> Leaf;
  std::vector<std::string> Names;
  std::vector<unsigned> Bits; // per leaf: the loaded value's width
  bool Other = false;
  SymRef Offset = replaceLeaves(A.ByteOffset, [&](const SymRef &E) -> SymRef {
    if (E->Kind != ExprKind::Varying)
      return nullptr;
    if (E->Reason.find("loaded from") == std::string::npos) {
      Other = true;
      return nullptr;
    }
    auto [It, New] = Leaf.try_emplace({E->Name, E->Reason}, unsigned(Leaf.size()));
    if (New)
      Bits.push_back(E->Type.Bits);
    if (New) { // as written: without the '#2' that tells two loads of one expression apart
      std::string Written = E->Name;
      size_t Hash = Written.rfind('#');
      if (Hash != std::string::npos && Hash + 1 < Written.size() &&
          Written.find_first_not_of("0123456789", Hash + 1) == std::string::npos)
        Written.erase(Hash);
      if (std::find(Names.begin(), Names.end(), Written) == Names.end())
        Names.push_back(Written);
    }
    return SymExpr::uniform(leafName(It->second), "", E->Type);
  });
  if (Other || Leaf.empty() || Leaf.size() > MaxDataValues || A.ArrayId >= Arrays.size())
    return std::nullopt;
  const unsigned Leaves = unsigned(Leaf.size());
  const SharedArray &Arr = Arrays[A.ArrayId];
  const int64_t Size = int64_t(storageBytes(Arr, 0));
  // An extern buffer: the program's own bound is all there is (the largest
  // shared memory of a block on sm_90).
  const int64_t Limit = (Size ? Size : 227 * 1024) - int64_t(std::max(1u, A.Width)) + 1;

  SharedAccess Copy = A;
  Copy.ByteOffset = Offset;
  Context C{Copy, Loops, Arrays, Shape, Arch, {}};
  C.BoundGuards = true; // guards on the data: every lane taken as running it
  LaneOffsets O{C, *Offset, 0};

  // Per lane and leaf: all 32-bit values when the index keeps every one of
  // them inside the array (it masks or reduces them), else the linear range.
  std::mt19937_64 Rng(0x5eed);
  std::vector<Range> AllValues(Leaves); // of the loaded value's type, up to 31 bits
  for (unsigned K = 0; K < Leaves; ++K)
    AllValues[K].Hi = (int64_t(1) << std::min(31u, std::max(1u, Bits[K]))) - 1;
  std::vector<std::vector<Range>> Ranges(WarpSize, AllValues);
  uint32_t Lanes = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    bool Failed = false, Runs = false, AllInside = true;
    for (unsigned Try = 0; Try < 16 && AllInside; ++Try) {
      std::vector<int64_t> V(Leaves);
      for (unsigned K = 0; K < Leaves; ++K)
        V[K] = int64_t(Rng() % uint64_t(Ranges[L][K].Hi + 1));
      auto Off = O.at(L, V, Failed);
      if (Failed)
        return std::nullopt;
      Runs |= Off.has_value();
      AllInside &= !Off || (*Off >= 0 && *Off < Limit);
    }
    if (!Runs)
      continue;
    Lanes |= 1u << L;
    if (AllInside)
      continue;
    for (unsigned K = 0; K < Leaves; ++K) {
      auto R = linearRange(O, L, K, Leaves, Limit, Bits[K]);
      if (!R)
        return std::nullopt;
      Ranges[L][K] = *R;
    }
  }
  if (!Lanes)
    return std::nullopt;
  const bool SameRanges = std::all_of(Ranges.begin(), Ranges.end(), [&](const std::vector<Range> &R) {
    return std::equal(R.begin(), R.end(), Ranges[0].begin(), [](const Range &X, const Range &Y) {
      return X.Lo == Y.Lo && X.Hi == Y.Hi;
    });
  });
  const bool Independent = SameRanges && laneIndependent(O, Lanes, Leaves, Rng, Ranges);

  RandomDataCost Out;
  Out.Samples = Samples;
  Out.Values = Names;
  std::set<uint64_t> Seen;
  int64_t Lowest = INT64_MAX, Highest = 0;
  double Wavefronts = 0, Ideal = 0;
  for (unsigned S = 0; S < Samples; ++S) {
    WarpAccess W;
    W.Width = A.Width;
    W.Op = A.Op;
    W.Atomic = A.Atomic;
    W.ActiveMask = 0;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(Lanes >> L & 1))
        continue;
      std::optional<int64_t> Off;
      bool Failed = false;
      for (unsigned Try = 0; Try < 16 && (!Off || *Off < 0 || *Off >= Limit); ++Try) {
        std::vector<int64_t> V(Leaves);
        for (unsigned K = 0; K < Leaves; ++K) {
          const Range &R = Ranges[L][K];
          V[K] = R.Lo + int64_t(Rng() % uint64_t(R.Hi - R.Lo + 1));
        }
        Off = O.at(L, V, Failed, /*Guards=*/false);
        if (Failed)
          return std::nullopt;
      }
      if (!Off || *Off < 0 || *Off >= Limit)
        continue; // leaves the array whatever is drawn: not a run of a correct program
      W.ActiveMask |= 1u << L;
      W.ByteAddr[L] = uint64_t(*Off);
      Lowest = std::min(Lowest, *Off);
      Highest = std::max(Highest, *Off);
      if (Seen.size() < 65536)
        Seen.insert(uint64_t(*Off));
    }
    BankCost Cost = costOf(W, Arch);
    Wavefronts += Cost.Wavefronts;
    Ideal += Cost.Ideal;
    if (S == 0 || worse(Cost, Out.Worst))
      Out.Worst = Cost;
  }
  Out.Wavefronts = Wavefronts / Samples;
  Out.Ideal = Ideal / Samples;
  Out.LowestByte = uint64_t(Lowest);
  Out.HighestByte = uint64_t(Highest);
  Out.Lanes = Lanes;
  collidingWorst(A, Arch, Lanes, Independent, Seen, Out);
  return Out;
}

} // namespace warp
} // namespace cbl
