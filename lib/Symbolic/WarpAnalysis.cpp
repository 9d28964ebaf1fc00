//===- WarpAnalysis.cpp - Worst warp of one shared access ------------------===//
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"

#include <algorithm>
#include <numeric>

namespace cbl {

const char *verdictStatusName(VerdictStatus S) {
  switch (S) {
  case VerdictStatus::Exact: return "exact";
  case VerdictStatus::Unknown: return "unknown";
  case VerdictStatus::DataDependent: return "data-dependent";
  }
  return "unknown";
}

EvalShape evalShapeFor(const BlockShape &Shape) {
  EvalShape E;
  if (Shape.known()) {
    E.Dim = Shape.Dim;
    E.Warps = (Shape.threads() + WarpSize - 1) / WarpSize;
  } else {
    E.Dim = {{0, 1, 1}};
    E.Warps = 1024 / WarpSize;
  }
  return E;
}

namespace {

/// Splits non-negated conjunctions so that a uniform part (n > 0) does not
/// hide an exact lane part (tid < 16).
void conjuncts(const SymRef &C, std::vector<SymRef> &Out) {
  if (C->Kind == ExprKind::Binary && C->Op == Opcode::LAnd) {
    conjuncts(C->Ops[0], Out);
    conjuncts(C->Ops[1], Out);
    return;
  }
  Out.push_back(C);
}

struct GuardResult {
  bool Active = true;
  LaneValue Failure; ///< set when the guard cannot be decided for this lane
};

GuardResult evaluateGuards(const std::vector<Guard> &Guards, const LaneEnv &Env,
                           std::vector<std::string> &AssumedUniform) {
  GuardResult R;
  for (const Guard &G : Guards) {
    std::vector<SymRef> Parts;
    if (G.Negated)
      Parts.push_back(G.Cond);
    else
      conjuncts(G.Cond, Parts);
    for (const SymRef &P : Parts) {
      if (!isThreadVarying(P)) {
        // Uniform: every lane of the warp agrees, so the access either runs
        // with these lanes or not at all; we report the case where it runs.
        std::string S = toString(P);
        if (G.Negated)
          S = "!(" + S + ")";
        if (std::find(AssumedUniform.begin(), AssumedUniform.end(), S) == AssumedUniform.end())
          AssumedUniform.push_back(S);
        continue;
      }
      LaneValue V = evaluateLane(*P, Env);
      if (!V.exact()) {
        if (V.known())
          V = LaneValue{0, {}, UnknownKind::NonLinear,
                        "which threads run it depends on the value of " +
                            V.Terms.begin()->first};
        R.Failure = V;
        return R;
      }
      bool Taken = (V.C != 0) != G.Negated;
      if (!Taken) {
        R.Active = false;
        return R;
      }
    }
  }
  return R;
}

VerdictStatus statusFor(UnknownKind K) {
  return K == UnknownKind::DataDependent ? VerdictStatus::DataDependent : VerdictStatus::Unknown;
}

} // namespace

AccessVerdict analyseAccess(const SharedAccess &Access, const std::vector<SharedArray> &Arrays,
                            const EvalShape &Shape, BankArch Arch, int PaddedArray,
                            unsigned Padding) {
  AccessVerdict Best;
  if (!Access.NotAnalysable.empty()) {
    Best.Reason = Access.NotAnalysable;
    return Best;
  }
  bool Any = false;
  bool Unknown = false;
  AccessVerdict UnknownVerdict;
  std::vector<std::string> AssumedUniform;
  std::vector<std::string> Params;
  unsigned Threads = Shape.Dim[0] ? Shape.Dim[0] * Shape.Dim[1] * Shape.Dim[2] : 1024;
  for (unsigned W = 0; W < Shape.Warps; ++W) {
    WarpAccess WA;
    WA.Width = Access.Width;
    WA.Op = Access.Op;
    WA.ActiveMask = 0;
    std::array<std::array<unsigned, 3>, WarpSize> Tids{};
    std::map<std::string, int64_t> Offset; // common uniform offset
    bool First = true;
    for (unsigned L = 0; L < WarpSize; ++L) {
      unsigned T = W * WarpSize + L;
      if (T >= Threads)
        break;
      LaneEnv Env;
      Env.Arrays = &Arrays;
      Env.PaddedArray = PaddedArray;
      Env.Padding = Padding;
      if (Shape.Dim[0]) {
        Env.Tid[0] = T % Shape.Dim[0];
        Env.Tid[1] = (T / Shape.Dim[0]) % Shape.Dim[1];
        Env.Tid[2] = T / (Shape.Dim[0] * Shape.Dim[1]);
        for (int D = 0; D < 3; ++D)
          Env.BlockDim[D] = Shape.Dim[D];
      } else {
        Env.Tid[0] = T;
        Env.BlockDim[1] = 1;
        Env.BlockDim[2] = 1;
      }
      Tids[L] = {{Env.Tid[0], Env.Tid[1], Env.Tid[2]}};
      GuardResult G = evaluateGuards(Access.Guards, Env, AssumedUniform);
      if (!G.Failure.known()) {
        Unknown = true;
        UnknownVerdict.Status = statusFor(G.Failure.Unknown);
        UnknownVerdict.Reason = G.Failure.Why;
        break;
      }
      if (!G.Active)
        continue;
      LaneValue A = evaluateLane(*Access.ByteOffset, Env);
      if (!A.known()) {
        Unknown = true;
        UnknownVerdict.Status = statusFor(A.Unknown);
        UnknownVerdict.Reason = A.Why;
        break;
      }
      if (First) {
        Offset = A.Terms;
        First = false;
      } else if (A.Terms != Offset) {
        Unknown = true;
        UnknownVerdict.Status = VerdictStatus::Unknown;
        std::string Names;
        for (const auto &KV : A.Terms)
          Names += (Names.empty() ? "'" : ", '") + KV.first + "'";
        UnknownVerdict.Reason = "the address depends on " + Names + " differently in different threads";
        break;
      }
      WA.ActiveMask |= 1u << L;
      WA.ByteAddr[L] = uint64_t(A.C);
    }
    if (Unknown)
      break;
    if (!WA.ActiveMask)
      continue;
    // A common offset sum(c_i * u_i) can take any multiple of gcd(c_i); the
    // bank model is exact for it when that gcd is a multiple of the shift
    // granularity it is invariant under.
    if (!Offset.empty()) {
      uint64_t G = 0;
      for (const auto &KV : Offset)
        G = std::gcd(G, uint64_t(KV.second < 0 ? -KV.second : KV.second));
      if (!costInvariantUnderUniformShift(Access.Width, G, Arch)) {
        Unknown = true;
        UnknownVerdict.Status = VerdictStatus::Unknown;
        std::string Names;
        for (const auto &KV : Offset)
          Names += (Names.empty() ? "'" : ", '") + KV.first + "'";
        UnknownVerdict.Reason = "the address has an offset of " + std::to_string(G) +
                                "-byte steps that depends on " + Names;
        break;
      }
      for (const auto &KV : Offset)
        if (std::find(Params.begin(), Params.end(), KV.first) == Params.end())
          Params.push_back(KV.first);
    }
    BankCost C = costOf(WA, Arch);
    Best.BlockWavefronts += C.Wavefronts;
    Best.BlockIdeal += C.Ideal;
    bool Worse = !Any || C.Wavefronts - C.Ideal > Best.Cost.Wavefronts - Best.Cost.Ideal ||
                 (C.Wavefronts - C.Ideal == Best.Cost.Wavefronts - Best.Cost.Ideal &&
                  C.Degree > Best.Cost.Degree);
    if (Worse) {
      Best.Cost = C;
      Best.Warp = W;
      Best.Mask = WA.ActiveMask;
      Best.Addr = WA.ByteAddr;
      Best.Tid = Tids;
    }
    Any = true;
  }
  if (Unknown) {
    UnknownVerdict.AssumedUniform = AssumedUniform;
    UnknownVerdict.WarpsEvaluated = Shape.Warps;
    return UnknownVerdict;
  }
  Best.Status = VerdictStatus::Exact;
  Best.WarpsEvaluated = Shape.Warps;
  Best.Parameters = Params;
  Best.AssumedUniform = AssumedUniform;
  Best.NeverExecuted = !Any;
  return Best;
}

} // namespace cbl

namespace cbl {

static SymRef resolveStrides(const SymRef &E, const std::vector<SharedArray> &Arrays) {
  if (E->Kind == ExprKind::RowStride)
    return SymExpr::constant(rowStrideOf(Arrays[E->ArrayId], E->DimIndex, 0), E->Type);
  if (E->Ops.empty())
    return E;
  std::vector<SymRef> Ops;
  for (const SymRef &Op : E->Ops)
    Ops.push_back(resolveStrides(Op, Arrays));
  switch (E->Kind) {
  case ExprKind::Unary: return SymExpr::unary(E->Op, Ops[0], E->Type);
  case ExprKind::Binary: return SymExpr::binary(E->Op, Ops[0], Ops[1], E->Type);
  case ExprKind::Select: return SymExpr::select(Ops[0], Ops[1], Ops[2], E->Type);
  case ExprKind::Cast: return SymExpr::cast(Ops[0], E->Type);
  default: return E;
  }
}

std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays) {
  return toString(resolveStrides(Offset, Arrays));
}

} // namespace cbl
