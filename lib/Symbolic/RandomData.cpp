//===- RandomData.cpp - Expected cost of a data-dependent access ----------===//
//
// An address computed from values loaded from memory (a histogram's bin, a
// scatter's destination, a gather's source) cannot be known before the run.
// What can be said is what it costs on random data: each lane's loaded value
// independent and uniform over the values the program allows, the warp
// request costed by the bank model, averaged over a fixed number of warps
// drawn from a seeded generator (so a run's figures are reproducible). The
// values the program allows: a value the index masks or reduces itself
// (in[t] & 255, key % 64) is drawn from all values of its type (up to 31
// bits); a value the index
// uses linearly (s[key], s[32 * key + lane]) is drawn from the values that
// keep the lane's address inside the array. On an H100 class GPU this
// expectation matched the measured wavefronts of histogram atomics, scatter
// stores and gather loads on random keys (docs/accuracy.md).
//
//===----------------------------------------------------------------------===//
#include "WarpPasses.h"

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>

namespace cbl {
namespace warp {

namespace {
std::string leafName(unsigned K) { return DataLeafPrefix + std::to_string(K); }
} // namespace

DataLeaves dataLeaves(const SymRef &ByteOffset) {
  DataLeaves D;
  std::map<std::pair<std::string, std::string>, unsigned> Leaf;
  D.Offset = replaceLeaves(ByteOffset, [&](const SymRef &E) -> SymRef {
    if (E->Kind != ExprKind::Varying)
      return nullptr;
    if (E->Reason.find("loaded from") == std::string::npos) {
      D.Other = true;
      return nullptr;
    }
    auto [It, New] = Leaf.try_emplace({E->Name, E->Reason}, unsigned(Leaf.size()));
    if (New) {
      D.Bits.push_back(E->Type.Bits);
      std::string Written = toString(E); // without the '#2' of an unrolled copy
      if (std::find(D.Names.begin(), D.Names.end(), Written) == D.Names.end())
        D.Names.push_back(Written);
    }
    return SymExpr::uniform(leafName(It->second), "", E->Type);
  });
  return D;
}

namespace {

constexpr unsigned Samples = 500;

/// How one loaded value is drawn for one lane: uniform over [Lo, Hi].
struct Range {
  int64_t Lo = 0, Hi = 0;
  bool operator==(const Range &O) const { return Lo == O.Lo && Hi == O.Hi; }
};

/// One value per loaded value, each uniform over its range.
std::vector<int64_t> draw(const std::vector<Range> &Ranges, std::mt19937_64 &Rng) {
  std::vector<int64_t> V(Ranges.size());
  for (size_t K = 0; K < Ranges.size(); ++K)
    V[K] = Ranges[K].Lo + int64_t(Rng() % uint64_t(Ranges[K].Hi - Ranges[K].Lo + 1));
  return V;
}

/// The byte offset of a lane of warp 0 with the loaded values given;
/// std::nullopt when the lane does not run the access or it cannot be
/// computed (Failed). Guards: whether to evaluate the access's guards (the
/// first draws do; the sampled warps reuse the lanes those found running it).
class LaneOffsets {
public:
  LaneOffsets(Context &C, const SymExpr &Offset, unsigned Leaves) : C(C), Offset(Offset) {
    for (unsigned K = 0; K < Leaves; ++K)
      Slots.push_back(&Bound[leafName(K)]); // std::map: the references stay valid
    for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
      LaneEnv E;
      if (laneEnv(C, 0, Lane, E)) {
        E.UniformValues = &Bound;
        Envs[Lane] = E;
      }
    }
  }

  /// Gives the unknowns other than the loaded values a value (by name, or
  /// a loop counter by its loop).
  void fix(const std::map<std::string, int64_t> &Names, const std::map<unsigned, int64_t> &Counters) {
    for (const auto &[N, V] : Names)
      Bound[N] = V;
    Loops = Counters;
    for (auto &E : Envs)
      if (E)
        E->LoopValues = Loops.empty() ? nullptr : &Loops;
  }

  std::optional<int64_t> at(unsigned L, const std::vector<int64_t> &Values, bool &Failed,
                            bool Guards = true) {
    if (!Envs[L])
      return std::nullopt;
    for (size_t K = 0; K < Values.size(); ++K)
      *Slots[K] = Values[K];
    bool Taken = true;
    Failure F;
    if (Guards && !guardsTaken(C, *Envs[L], Taken, F)) {
      Failed = true;
      return std::nullopt;
    }
    if (!Taken)
      return std::nullopt;
    LaneValue V = evaluateLane(Offset, *Envs[L]);
    if (!V.known()) {
      Failed = true;
      return std::nullopt;
    }
    return V.C; // uniform terms (n, blockIdx) shift every lane alike
  }

private:
  Context &C;
  const SymExpr &Offset;
  std::map<std::string, int64_t> Bound;
  std::map<unsigned, int64_t> Loops;
  std::vector<int64_t *> Slots;
  std::array<std::optional<LaneEnv>, WarpSize> Envs;
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

/// Per lane of warp 0, the range of each loaded value: all values of its
/// type when every draw keeps the address inside the array (the index masks
/// or reduces them), else the linear range. Sets Lanes to the lanes that
/// run the access; false when a lane's address cannot be computed.
bool laneRanges(LaneOffsets &O, const std::vector<unsigned> &Bits, int64_t Limit, std::mt19937_64 &Rng,
                std::vector<std::vector<Range>> &Ranges, uint32_t &Lanes) {
  const unsigned Leaves = unsigned(Bits.size());
  std::vector<Range> AllValues(Leaves); // of the loaded value's type, up to 31 bits
  for (unsigned K = 0; K < Leaves; ++K)
    AllValues[K].Hi = (int64_t(1) << std::min(31u, std::max(1u, Bits[K]))) - 1;
  Ranges.assign(WarpSize, AllValues);
  Lanes = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    bool Failed = false, Runs = false, AllInside = true;
    for (unsigned Try = 0; Try < 16 && AllInside; ++Try) {
      auto Off = O.at(L, draw(AllValues, Rng), Failed);
      if (Failed)
        return false;
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
        return false;
      Ranges[L][K] = *R;
    }
  }
  return Lanes != 0;
}

/// Whether the same loaded values give every running lane the same address.
bool laneIndependent(LaneOffsets &O, uint32_t Lanes, std::mt19937_64 &Rng,
                     const std::vector<std::vector<Range>> &Ranges) {
  if (!std::all_of(Ranges.begin(), Ranges.end(), [&](const std::vector<Range> &R) { return R == Ranges[0]; }))
    return false;
  for (unsigned Try = 0; Try < 8; ++Try) {
    std::vector<int64_t> V = draw(Ranges[0], Rng);
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

/// The worst case: when every lane computes its address from the loaded
/// values alone (LaneIndependent), the lanes may all pick one word (atomics
/// that serve a word's lanes one at a time) or distinct words of the bank
/// that holds the most words they can reach (the other rules): that warp's
/// cost. Otherwise the costliest warp drawn stays the worst, marked as seen
/// rather than reachable.
void collidingWorst(const SharedAccess &A, BankArch Arch, uint32_t Lanes, bool LaneIndependent,
                    const std::set<uint64_t> &Seen, RandomDataCost &Out) {
  Out.WorstReachable = LaneIndependent && !Seen.empty();
  if (!Out.WorstReachable)
    return;
  const bool OneWordSerialises = A.Op == AccessOp::Atomic && A.Atomic != AtomicRule::PopcInc;
  std::map<unsigned, std::vector<uint64_t>> ByBank;
  for (uint64_t Addr : Seen)
    ByBank[bankOf(Addr, BankArch::Sm70Plus)].push_back(Addr);
  const std::vector<uint64_t> *Most = nullptr;
  for (const auto &[Bank, Addrs] : ByBank)
    if (!Most || Addrs.size() > Most->size())
      Most = &Addrs;
  WarpAccess W = worstWarpAccess(A, AccessVerdict{});
  W.ActiveMask = Lanes;
  unsigned Next = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (Lanes >> L & 1)
      W.ByteAddr[L] = OneWordSerialises ? (*Most)[0] : (*Most)[Next++ % Most->size()];
  Out.Worst = costOf(W, Arch);
}

/// Costs Samples warps, each made by Make (std::nullopt: give up), into
/// Out: the mean wavefronts and ideal, and the costliest warp.
template <typename MakeWarp> bool averageCost(BankArch Arch, RandomDataCost &Out, MakeWarp Make) {
  double Wavefronts = 0, Ideal = 0;
  for (unsigned S = 0; S < Samples; ++S) {
    std::optional<WarpAccess> W = Make();
    if (!W)
      return false;
    BankCost Cost = costOf(*W, Arch);
    Wavefronts += Cost.Wavefronts;
    Ideal += Cost.Ideal;
    if (S == 0 || worse(Cost, Out.Worst))
      Out.Worst = Cost;
  }
  Out.Samples = Samples;
  Out.Wavefronts = Wavefronts / Samples;
  Out.Ideal = Ideal / Samples;
  return true;
}

/// Samples warps: each lane's values drawn from its ranges (redrawn when
/// several values together leave the array); the mean cost and the worst.
/// Seen receives the addresses drawn (at most 65,536). False when a lane's
/// address cannot be computed.
bool sampleWarps(const SharedAccess &A, BankArch Arch, LaneOffsets &O, int64_t Limit, uint32_t Lanes,
                 const std::vector<std::vector<Range>> &Ranges, std::mt19937_64 &Rng,
                 std::set<uint64_t> &Seen, RandomDataCost &Out) {
  const WarpAccess Empty = worstWarpAccess(A, AccessVerdict{});
  return averageCost(Arch, Out, [&]() -> std::optional<WarpAccess> {
    WarpAccess W = Empty;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(Lanes >> L & 1))
        continue;
      std::optional<int64_t> Off;
      bool Failed = false;
      for (unsigned Try = 0; Try < 16 && (!Off || *Off < 0 || *Off >= Limit); ++Try) {
        Off = O.at(L, draw(Ranges[L], Rng), Failed, /*Guards=*/false);
        if (Failed)
          return std::nullopt;
      }
      if (!Off || *Off < 0 || *Off >= Limit)
        continue; // leaves the array whatever is drawn: not a run of a correct program
      W.ActiveMask |= 1u << L;
      W.ByteAddr[L] = uint64_t(*Off);
      if (Seen.size() < 65536)
        Seen.insert(uint64_t(*Off));
    }
    return W;
  });
}

/// The unknowns other than the loaded values that enter the address
/// non-linearly ((k + r) & 255, (k >> shift) & 1, k % nb): the cost on random
/// data may depend on them.
std::vector<const SymExpr *> nonLinearUnknowns(const SymExpr &Offset) {
  SymLeaves L = collectLeaves(std::shared_ptr<const SymExpr>(std::shared_ptr<const SymExpr>(), &Offset));
  std::vector<const SymExpr *> Out;
  for (const SymExpr *U : L.Uniforms)
    if (U->Name.rfind(DataLeafPrefix, 0) != 0 && degreeIn(Offset, U->Name) != 1)
      Out.push_back(U);
  for (const SymExpr *U : L.Loops)
    if (!U->LaneVarying && degreeIn(Offset, U->Name) != 1)
      Out.push_back(U);
  return Out;
}

/// One estimate with the unknowns of Fixed at Value (none: as they are).
std::optional<RandomDataCost> estimate(const SharedAccess &A, Context &C, const DataLeaves &D,
                                       const std::vector<const SymExpr *> &Fixed, int64_t Value,
                                       int64_t Limit, BankArch Arch) {
  LaneOffsets O(C, *D.Offset, unsigned(D.Bits.size()));
  std::map<std::string, int64_t> Names;
  std::map<unsigned, int64_t> Counters;
  for (const SymExpr *U : Fixed)
    (U->Kind == ExprKind::LoopVar ? void(Counters[U->LoopId] = Value) : void(Names[U->Name] = Value));
  O.fix(Names, Counters);
  std::mt19937_64 Rng(0x5eed);
  std::vector<std::vector<Range>> Ranges;
  RandomDataCost Out;
  if (!laneRanges(O, D.Bits, Limit, Rng, Ranges, Out.Lanes))
    return std::nullopt;
  const bool Independent = laneIndependent(O, Out.Lanes, Rng, Ranges);
  std::set<uint64_t> Seen;
  if (!sampleWarps(A, Arch, O, Limit, Out.Lanes, Ranges, Rng, Seen, Out))
    return std::nullopt;
  Out.Values = D.Names;
  collidingWorst(A, Arch, Out.Lanes, Independent, Seen, Out);
  return Out;
}

/// Where the address combines more loaded values than are drawn one by one:
/// each running lane's element of the array drawn independently and
/// uniformly, the least the program allows.
std::optional<RandomDataCost> arrayElementCost(const SharedAccess &A, Context &C, const DataLeaves &D,
                                               int64_t Size, BankArch Arch) {
  const int64_t Width = std::max(1u, A.Width);
  if (Size < Width)
    return std::nullopt;
  const SymRef Zero = SymExpr::constant(0, IntType::i64());
  LaneOffsets O(C, *Zero, 0);
  RandomDataCost Out;
  for (unsigned L = 0; L < WarpSize; ++L) {
    bool Failed = false;
    if (O.at(L, {}, Failed))
      Out.Lanes |= 1u << L;
    if (Failed)
      return std::nullopt;
  }
  if (!Out.Lanes)
    return std::nullopt;
  std::mt19937_64 Rng(0x5eed);
  const WarpAccess Empty = worstWarpAccess(A, AccessVerdict{});
  const uint64_t Elements = uint64_t(Size / Width);
  averageCost(Arch, Out, [&]() -> std::optional<WarpAccess> {
    WarpAccess W = Empty;
    W.ActiveMask = Out.Lanes;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (Out.Lanes >> L & 1)
        W.ByteAddr[L] = (Rng() % Elements) * uint64_t(Width);
    return W;
  });
  Out.Values = D.Names;
  Out.Draw = RandomDraw::ArrayElement;
  Out.Elements = Elements;
  return Out;
}

} // namespace

std::optional<RandomDataCost> randomDataCost(const SharedAccess &A, const std::vector<LoopInfo> &Loops,
                                             const std::vector<SharedArray> &Arrays,
                                             const EvalShape &Shape, BankArch Arch) {
  DataLeaves D = dataLeaves(A.ByteOffset);
  if (D.Bits.empty() || A.ArrayId >= Arrays.size())
    return std::nullopt;
  const int64_t Size = int64_t(storageBytes(Arrays[A.ArrayId], 0));
  // An extern buffer: the program's own bound is all there is (the largest
  // shared memory of a block on sm_90).
  const int64_t Limit = (Size ? Size : 227 * 1024) - int64_t(std::max(1u, A.Width)) + 1;

  SharedAccess Copy = A;
  Copy.ByteOffset = D.Offset;
  Context C{Copy, Loops, Arrays, Shape, Arch, {}};
  C.BoundGuards = true; // guards on the data: every lane taken as running it
  // Many loaded values combined (a rank from a scan and key bits): their
  // combination is taken as uniform over the array. Not so for a few values
  // the draw cannot follow (an index moved by comparisons of sorted data):
  // their lanes keep an order the array-wide draw would ignore.
  if (D.Bits.size() > DataLeaves::MaxDataValues)
    return Size ? arrayElementCost(A, C, D, Size, Arch) : std::nullopt;
  if (!D.drawable())
    return std::nullopt;
  std::vector<const SymExpr *> Fixed = nonLinearUnknowns(*D.Offset);
  if (Fixed.empty())
    return estimate(A, C, D, Fixed, 0, Limit, Arch);
  // Other unknowns enter it non-linearly: the estimate stands only if it is
  // the same at each value tried (a loop counter added to a masked key, a
  // shift of random bits), not where it depends on them (k % nb).
  std::optional<RandomDataCost> Out;
  double Lo = 0, Hi = 0;
  for (int64_t Value : {0, 1, 2, 3, 7, 12, 31}) {
    std::optional<RandomDataCost> R = estimate(A, C, D, Fixed, Value, Limit, Arch);
    if (!R)
      return std::nullopt;
    Lo = Out ? std::min(Lo, R->Wavefronts) : R->Wavefronts;
    Hi = Out ? std::max(Hi, R->Wavefronts) : R->Wavefronts;
    if (!Out || worse(R->Worst, Out->Worst))
      Out = R;
  }
  if (Hi > Lo * 1.05)
    return std::nullopt;
  for (const SymExpr *U : Fixed)
    Out->Regardless.push_back(U->Name);
  return Out;
}

/// Lane Env's address, found data-dependent (A): the same address with the
/// terms that read loaded values left out when each is a multiple of a row of
/// the banks (128 bytes on sm_70+: sd_count[bin][tid], the bins of one lane's
/// own column), so that the lane's bank is the same whatever they are. Plain
/// loads and stores no wider than a bank word only; otherwise A, unknown.
LaneValue loadedRowsDropped(Context &C, const LaneEnv &Env, LaneValue A) {
  const int64_t Row = int64_t(bankWordBytes(C.Arch) * bankCount(C.Arch));
  if (C.A.Op == AccessOp::Atomic || C.A.Matrix || C.A.Width > bankWordBytes(C.Arch) ||
      C.Change.swizzles(C.A.ArrayId))
    return A;
  if (!C.Loaded)
    C.Loaded = dataLeaves(C.A.ByteOffset);
  // Other: another lane-varying value not loaded (also what an expression
  // too large to track that hides a loaded value becomes).
  if (C.Loaded->Other || C.Loaded->Bits.empty())
    return A;
  LaneValue D = evaluateLane(*C.Loaded->Offset, Env);
  if (!D.known())
    return A;
  for (auto It = D.Terms.begin(); It != D.Terms.end();) {
    if (It->first.find(DataLeafPrefix) == std::string::npos) {
      ++It;
      continue;
    }
    // A term reading loaded values (in[t], in[t] & 15, in[t] * n) is an
    // integer the lane's data decides; times a multiple of a row, whole rows
    // of the banks whatever it is. In finer steps it moves the bank.
    if (It->second % Row != 0)
      return A;
    It = D.Terms.erase(It);
  }
  return D;
}

bool banksDistinct(const WarpAccess &WA, BankArch Arch) {
  uint64_t Banks = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(WA.ActiveMask >> L & 1))
      continue;
    uint64_t Bit = uint64_t(1) << bankOf(WA.ByteAddr[L], Arch);
    if (Banks & Bit)
      return false;
    Banks |= Bit;
  }
  return true;
}

} // namespace warp
} // namespace cbl
