//===- LaneEvaluator.cpp - Per-thread evaluation of symbolic expressions --===//
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "NumberOps.h"
#include "SymbolicText.h"
#include "cuda-bank-lint/AccessModel/HostFunction.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>

namespace cbl {

uint64_t swizzleRowBytes(const SharedArray &A) {
  if (A.Dims.size() < 2 || A.IsExtern)
    return 0;
  uint64_t Row = uint64_t(A.Dims.back()) * A.ElementSize;
  return Row % 128 ? 0 : Row;
}

int64_t rowStrideOf(const SharedArray &A, unsigned Dim, unsigned Padding) {
  int64_t S = 1;
  for (size_t I = Dim + 1; I < A.Dims.size(); ++I)
    S *= int64_t(A.Dims[I] + (I + 1 == A.Dims.size() ? Padding : 0));
  return S;
}

namespace {

LaneValue unknown(UnknownKind K, std::string Why) {
  LaneValue V;
  V.Unknown = K;
  V.Why = std::move(Why);
  return V;
}

LaneValue known(int64_t C, IntType T) {
  LaneValue V;
  V.C = wrapToType(C, T);
  return V;
}

std::string termNames(const LaneValue &V) {
  std::vector<std::string> Names;
  for (const auto &KV : V.Terms)
    Names.push_back(KV.first);
  return quotedList(Names);
}

/// "3*C + 8": a linear form, terms in name order then the constant.
std::string linearText(const LaneValue &V) {
  std::string Out;
  for (const auto &[Name, K] : V.Terms)
    Out += (Out.empty() ? "" : " + ") + (K == 1 ? Name : std::to_string(K) + "*" + Name);
  if (V.C || Out.empty())
    Out += (Out.empty() ? "" : " + ") + std::to_string(V.C);
  return Out;
}

/// A non-linear operation Op (node E) on values with unknown terms. When E
/// is the same for every lane of the warp (n / 2, a & b), the result is
/// still warp-uniform: an opaque unknown named by E's source text, rather
/// than a dead end (decided before any reason text is built: this runs for
/// every lane). When E reads threadIdx only on axes that are the same in
/// every lane of this warp (Axes: threadIdx.y with blockDim.x a multiple of
/// 32), it is uniform in the warp too: the unknown is named by the operands'
/// values in this lane ("(3*C / 4)"), which every lane of the warp shares.
LaneValue nonLinear(const LaneValue &A, const LaneValue &B, const char *Op, const SymExpr &E,
                    unsigned Axes = 0) {
  if (!isThreadVarying(E)) {
    LaneValue U;
    U.Terms["(" + keyText(E) + ")"] = 1;
    return U;
  }
  if (Axes && E.readsThreadOnlyOn(Axes)) {
    LaneValue U;
    std::string Type = E.Type == IntType::i32() ? ""
                       : std::string("(") + (E.Type.Signed ? "i" : "u") +
                             std::to_string(E.Type.Bits) + ")";
    U.Terms[Type + "(" + linearText(A) + " " + Op + " " + linearText(B) + ")"] = 1;
    return U;
  }
  const LaneValue &W = A.Terms.empty() ? B : A;
  return unknown(UnknownKind::NonLinear,
                 "the value of " + termNames(W) + " enters a non-linear operation (" + Op + ")");
}

LaneValue scaled(LaneValue V, int64_t K, IntType T) {
  V.C *= K;
  for (auto It = V.Terms.begin(); It != V.Terms.end();) {
    It->second *= K;
    It = It->second == 0 ? V.Terms.erase(It) : std::next(It);
  }
  if (V.Terms.empty())
    V.C = wrapToType(V.C, T);
  return V;
}

/// A + Sign * B, term by term.
LaneValue sum(const LaneValue &A, const LaneValue &B, int64_t Sign, IntType T) {
  LaneValue R = A;
  R.C = A.C + Sign * B.C;
  for (const auto &KV : B.Terms) {
    R.Terms[KV.first] += Sign * KV.second;
    if (R.Terms[KV.first] == 0)
      R.Terms.erase(KV.first);
  }
  if (R.Terms.empty())
    R.C = wrapToType(R.C, T);
  return R;
}

/// A product of warp-uniform unknowns is itself a warp-uniform unknown: its
/// name lists the factors, sorted, joined by '*' (outside parentheses), so
/// that a*b and b*a are one term. Bounded so that products stay readable.
constexpr size_t MaxFactors = 4, MaxTerms = 32;

std::vector<std::string> factorsOf(const std::string &Name) {
  std::vector<std::string> F;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    Depth += Name[I] == '(' ? 1 : Name[I] == ')' ? -1 : 0;
    if (Name[I] == '*' && Depth == 0) {
      F.push_back(Name.substr(Start, I - Start));
      Start = I + 1;
    }
  }
  F.push_back(Name.substr(Start));
  return F;
}

std::optional<std::string> monomial(const std::string &A, const std::string &B) {
  std::vector<std::string> F = factorsOf(A), G = factorsOf(B);
  F.insert(F.end(), G.begin(), G.end());
  if (F.size() > MaxFactors)
    return std::nullopt;
  std::sort(F.begin(), F.end());
  std::string N;
  for (const auto &X : F)
    N += (N.empty() ? "" : "*") + X;
  return N;
}

/// (a + sum a_i u_i) * (b + sum b_j u_j), expanded into monomials.
LaneValue product(const LaneValue &A, const LaneValue &B, IntType T, const SymExpr &E,
                  unsigned Axes = 0) {
  LaneValue R = scaled(A, B.C, T);
  for (const auto &[N, K] : B.Terms)
    R.Terms[N] += A.C * K;
  for (const auto &[NA, KA] : A.Terms)
    for (const auto &[NB, KB] : B.Terms) {
      auto M = monomial(NA, NB);
      if (!M)
        return nonLinear(A, B, "*", E, Axes);
      R.Terms[*M] += KA * KB;
    }
  for (auto It = R.Terms.begin(); It != R.Terms.end();)
    It = It->second == 0 ? R.Terms.erase(It) : std::next(It);
  if (R.Terms.size() > MaxTerms)
    return nonLinear(A, B, "*", E, Axes);
  R.C = A.C * B.C;
  if (R.Terms.empty())
    R.C = wrapToType(R.C, T);
  return R;
}

/// Whether uniform unknown Name is never negative: the engine's own
/// iteration numbers, the block index and the launch's sizes, and products of
/// them.
bool nonNegativeTerm(const std::string &Name) {
  for (const std::string &F : factorsOf(Name)) {
    llvm::StringRef S(F);
    if (!(S.starts_with("iteration@") || S.starts_with("blockIdx.") ||
          S.starts_with("blockDim.") || S.starts_with("gridDim.")))
      return false;
  }
  return true;
}

/// A / D, A % D, A >> s and A & (2^k - 1) for a linear form A whose every
/// coefficient is a multiple of the constant divisor: the unknowns' part
/// divides exactly (i / 4 with i = 4 * lane + 128 * k: lane + 32 * k) or
/// vanishes (the remainder is the known part's). Division, remainder and
/// shift need the value non-negative (C++ truncates toward zero): a known
/// part >= 0 and non-negative unknowns with coefficients >= 0. A mask is
/// exact for any sign (two's complement).
std::optional<LaneValue> byConstant(Opcode Op, const LaneValue &A, const LaneValue &B, IntType T) {
  if (!B.Terms.empty() || A.Terms.empty())
    return std::nullopt;
  int64_t D = B.C;
  if (Op == Opcode::Shr) {
    if (B.C < 0 || B.C >= 63 || B.C >= int64_t(T.Bits))
      return std::nullopt;
    D = int64_t(1) << B.C;
  } else if (Op == Opcode::And) {
    if (D < 0 || ((D + 1) & D) != 0 || D == INT64_MAX)
      return std::nullopt;
    D = D + 1;
  }
  if (D <= 0)
    return std::nullopt;
  bool NonNegative = A.C >= 0;
  for (const auto &[Name, K] : A.Terms) {
    if (K % D != 0)
      return std::nullopt;
    NonNegative &= K >= 0 && nonNegativeTerm(Name);
  }
  if (Op != Opcode::And && !NonNegative)
    return std::nullopt;
  if (Op == Opcode::Rem || Op == Opcode::And)
    return known(Op == Opcode::And ? (A.C & (D - 1)) : A.C % D, T);
  LaneValue R;
  R.C = A.C / D;
  for (const auto &[Name, K] : A.Terms)
    R.Terms[Name] = K / D;
  return R;
}

LaneValue binary(Opcode Op, const LaneValue &A, const LaneValue &B, const SymExpr &E,
                 unsigned Axes) {
  IntType T = E.Type;
  if (A.Terms.empty() && B.Terms.empty()) {
    int64_t R = 0;
    switch (numberBinary(Op, A.C, B.C, T, E.Ops[0]->Type, R)) {
    case NumberResult::Ok: return known(R, T);
    case NumberResult::DivisionByZero: return unknown(UnknownKind::Undefined, "division by zero");
    case NumberResult::BadShift:
      return unknown(UnknownKind::Undefined, "shift by " + std::to_string(B.C) + " bits");
    case NumberResult::Unsupported: return unknown(UnknownKind::Varying, "unsupported operator");
    }
  }
  // Warp-uniform terms: linear operations keep them, the others make the
  // value opaque (or unknown when it varies between lanes).
  switch (Op) {
  case Opcode::Add:
  case Opcode::Sub:
    return sum(A, B, Op == Opcode::Add ? 1 : -1, T);
  case Opcode::Mul:
    if (A.Terms.empty())
      return scaled(B, A.C, T);
    if (B.Terms.empty())
      return scaled(A, B.C, T);
    return product(A, B, T, E, Axes);
  case Opcode::Shl:
    if (!B.Terms.empty())
      return nonLinear(A, B, "<<", E, Axes);
    if (B.C < 0 || B.C >= int64_t(T.Bits))
      return unknown(UnknownKind::Undefined, "shift by " + std::to_string(B.C) + " bits");
    return scaled(A, int64_t(1) << B.C, T);
  case Opcode::Div:
  case Opcode::Rem:
  case Opcode::Shr:
  case Opcode::And:
    if (std::optional<LaneValue> R = byConstant(Op, A, B, T))
      return *R;
    return nonLinear(A, B, opcodeSpelling(Op), E, Axes);
  default: // comparisons keep their guard's own treatment (thresholds)
    return nonLinear(A, B, opcodeSpelling(Op), E);
  }
}

} // namespace

int degreeIn(const SymExpr &E, const std::string &Name) {
  switch (E.Kind) {
  case ExprKind::Uniform:
  case ExprKind::LoopVar:
    return E.Name == Name ? 1 : 0;
  case ExprKind::Unary: {
    int D = degreeIn(*E.Ops[0], Name);
    return E.Op == Opcode::Neg || D == 0 ? D : -1;
  }
  case ExprKind::Cast:
    return degreeIn(*E.Ops[0], Name);
  case ExprKind::Binary: {
    int A = degreeIn(*E.Ops[0], Name), B = degreeIn(*E.Ops[1], Name);
    if (A < 0 || B < 0)
      return -1;
    switch (E.Op) {
    case Opcode::Add: case Opcode::Sub: return std::max(A, B);
    case Opcode::Mul: return A + B;
    case Opcode::Shl: return B == 0 ? A : -1;
    default: return A == 0 && B == 0 ? 0 : -1;
    }
  }
  case ExprKind::Select: {
    int C = degreeIn(*E.Ops[0], Name), A = degreeIn(*E.Ops[1], Name), B = degreeIn(*E.Ops[2], Name);
    return C == 0 && A >= 0 && B >= 0 ? std::max(A, B) : -1;
  }
  case ExprKind::Call:
    for (const SymRef &Op : E.Ops)
      if (degreeIn(*Op, Name) != 0)
        return -1;
    return 0;
  default:
    return 0;
  }
}

namespace {
bool mentionsLoop(const SymExpr &E, const LoopInfo &L) {
  if (E.Kind == ExprKind::LoopVar)
    for (const LoopCounter &C : L.Counters)
      if (C.Id == E.LoopId)
        return true;
  for (const SymRef &Op : E.Ops)
    if (mentionsLoop(*Op, L))
      return true;
  return false;
}
} // namespace

std::optional<AffineCounter> affineCounterOf(const LoopInfo &L, const LoopCounter &LC) {
  if (!LC.Init || !LC.Next)
    return std::nullopt;
  const SymExpr &N = stripCasts(*LC.Next);
  if (N.Kind != ExprKind::Binary || (N.Op != Opcode::Add && N.Op != Opcode::Sub))
    return std::nullopt;
  auto IsSelf = [&](const SymExpr &X) {
    const SymExpr &S = stripCasts(X);
    return S.Kind == ExprKind::LoopVar && S.LoopId == LC.Id;
  };
  SymRef Step;
  if (IsSelf(*N.Ops[0]))
    Step = N.Op == Opcode::Add ? N.Ops[1] : SymExpr::unary(Opcode::Neg, N.Ops[1], N.Ops[1]->Type);
  else if (N.Op == Opcode::Add && IsSelf(*N.Ops[1]))
    Step = N.Ops[0];
  if (!Step || isThreadVarying(*Step) || mentionsLoop(*Step, L) || mentionsLoop(*LC.Init, L))
    return std::nullopt;
  return AffineCounter{LC.Init, Step, "iteration@" + std::to_string(L.Where.Line)};
}

void setThread(LaneEnv &Env, unsigned T, const std::array<unsigned, 3> &Dim) {
  Env.Tid[0] = T % Dim[0];
  Env.Tid[1] = (T / Dim[0]) % Dim[1];
  Env.Tid[2] = T / (Dim[0] * Dim[1]);
  for (int D = 0; D < 3; ++D)
    Env.BlockDim[D] = Dim[D];
}

namespace {

/// The common case, every leaf a number (a lane with its loop counters and
/// block shape known): the value without building term maps or reasons.
/// False when some part is not a plain number; the symbolic evaluation then
/// decides (and says why). Each node wraps to its type exactly as there.
bool evaluateNumber(const SymExpr &E, const LaneEnv &Env, int64_t &Out) {
  IntType T = E.Type;
  if (valueIn(Env.NodeValues, &E, T, Out))
    return true;
  switch (E.Kind) {
  case ExprKind::Const:
    Out = wrapToType(E.Value, T);
    return true;
  case ExprKind::ThreadIdx:
    Out = wrapToType(Env.Tid[unsigned(E.Dim)], T);
    return true;
  case ExprKind::BlockDim:
    if (!Env.BlockDim[unsigned(E.Dim)])
      return false;
    Out = wrapToType(*Env.BlockDim[unsigned(E.Dim)], T);
    return true;
  case ExprKind::RowStride: {
    const SharedArray &A = (*Env.Arrays)[E.ArrayId];
    unsigned Pad = Env.Change.paddingOf(E.ArrayId);
    Out = wrapToType(rowStrideOf(A, E.DimIndex, Pad), T);
    return true;
  }
  case ExprKind::LoopVar:
    return valueIn(Env.LoopValues, E.LoopId, T, Out);
  case ExprKind::Uniform:
    return valueIn(Env.UniformValues, E.Name, T, Out);
  case ExprKind::Varying:
    return false;
  case ExprKind::Unary: {
    int64_t A;
    if (!evaluateNumber(*E.Ops[0], Env, A))
      return false;
    if (E.Op == Opcode::Log2 && A < 1)
      return false;
    Out = wrapToType(E.Op == Opcode::Neg   ? A * -1
                     : E.Op == Opcode::Not ? ~A
                     : E.Op == Opcode::Log2 ? floorLog2(uint64_t(A))
                                            : int64_t(A == 0),
                     T);
    return true;
  }
  case ExprKind::Binary: {
    int64_t X, Y;
    if (!evaluateNumber(*E.Ops[0], Env, X))
      return false;
    if (E.Op == Opcode::LAnd && X == 0) {
      Out = 0;
      return true;
    }
    if (E.Op == Opcode::LOr && X != 0) {
      Out = wrapToType(1, T);
      return true;
    }
    if (!evaluateNumber(*E.Ops[1], Env, Y))
      return false;
    int64_t R = 0;
    if (numberBinary(E.Op, X, Y, T, E.Ops[0]->Type, R) != NumberResult::Ok)
      return false;
    Out = wrapToType(R, T);
    return true;
  }
  case ExprKind::Select: {
    int64_t C;
    if (!evaluateNumber(*E.Ops[0], Env, C) || !evaluateNumber(*E.Ops[C ? 1 : 2], Env, Out))
      return false;
    Out = wrapToType(Out, T);
    return true;
  }
  case ExprKind::Cast: {
    int64_t A;
    if (!evaluateNumber(*E.Ops[0], Env, A))
      return false;
    Out = wrapToType(A, T);
    return true;
  }
  case ExprKind::Call: {
    std::vector<int64_t> Args(E.Ops.size());
    for (size_t I = 0; I < E.Ops.size(); ++I)
      if (!evaluateNumber(*E.Ops[I], Env, Args[I]))
        return false;
    std::optional<int64_t> V = E.Fn ? E.Fn->call(Args) : std::nullopt;
    if (!V)
      return false;
    Out = wrapToType(*V, T);
    return true;
  }
  }
  return false;
}

} // namespace

LaneValue evaluateLane(const SymExpr &E, const LaneEnv &Env) {
  int64_t N;
  if (evaluateNumber(E, Env, N)) {
    LaneValue V;
    V.C = N;
    return V;
  }
  return evaluateSymbolically(E, Env);
}

namespace {
LaneValue evaluateNode(const SymExpr &E, const LaneEnv &Env);

/// Whether E's value is worth keeping in a UniformMemo: an inner node that
/// reads neither threadIdx.x nor a lane-varying value.
bool memoisable(const SymExpr &E) { return E.readsThreadOnlyOn(UniformMemo::RowAxes) && E.TreeSize >= 4; }

} // namespace

const std::vector<unsigned> &UniformMemo::countersOf(const SymExpr &E) {
  if (Shared)
    return Shared->countersOf(E);
  auto [It, New] = Counters.try_emplace(&E);
  if (New && E.ReadsCounter) {
    std::set<unsigned> Ids;
    addLoopCounters(E, Ids);
    It->second.assign(Ids.begin(), Ids.end());
  }
  return It->second;
}

UniformMemo::Key UniformMemo::keyOf(const SymExpr &E, const LaneEnv &Env) {
  auto Dim = [&](int D) { return Env.BlockDim[D] ? int64_t(*Env.BlockDim[D]) : -1; };
  auto Tid = [&](int D) { return E.ThreadAxes >> D & 1 ? int64_t(Env.Tid[D]) : -1; };
  Key K{&E,  Env.NodeValues, Env.UniformValues, {Dim(0), Dim(1), Dim(2)},
        {Tid(1), Tid(2)}, Env.WarpUniformAxes, {}};
  const std::vector<unsigned> &Ids = countersOf(E);
  K.Counters.reserve(Ids.size());
  for (unsigned Id : Ids)
    K.Counters.push_back(counterValue(Env, Id));
  return K;
}

int64_t counterValue(const LaneEnv &Env, unsigned Id) {
  int64_t V = INT64_MIN;
  if (Env.LoopValues)
    if (auto It = Env.LoopValues->find(Id); It != Env.LoopValues->end())
      V = It->second;
  return V;
}

LaneValue evaluateSymbolically(const SymExpr &E, const LaneEnv &Env) {
  if (int64_t N; valueIn(Env.NodeValues, &E, E.Type, N))
    return known(N, E.Type);
  if (!Env.Memo || !memoisable(E))
    return evaluateNode(E, Env);
  UniformMemo &M = Env.Memo->Shared && !E.ThreadAxes && !Env.NodeValues ? *Env.Memo->Shared : *Env.Memo;
  UniformMemo::Key K = M.keyOf(E, Env);
  auto It = M.Values.find(K);
  if (It == M.Values.end())
    It = M.Values.emplace(std::move(K), evaluateNode(E, Env)).first;
  return It->second;
}

namespace {

/// A block-uniform value: its number when the environment binds it, else
/// a term of its own.
LaneValue uniformOf(const SymExpr &E, const LaneEnv &Env) {
  if (Env.UniformValues) {
    auto It = Env.UniformValues->find(E.Name);
    if (It != Env.UniformValues->end())
      return known(It->second, E.Type);
  }
  LaneValue V;
  V.Terms[E.Name] = 1;
  return V;
}

/// A loop counter: bound, affine in its iteration (a lane-varying start
/// or step), lane-varying and unknown, or uniform like any other value.
LaneValue loopCounterOf(const SymExpr &E, const LaneEnv &Env) {
  if (Env.LoopValues) {
    auto It = Env.LoopValues->find(E.LoopId);
    if (It != Env.LoopValues->end())
      return known(It->second, E.Type);
  }
  if (E.LaneVarying && Env.AffineCounters) {
    auto It = Env.AffineCounters->find(E.LoopId);
    if (It != Env.AffineCounters->end()) {
      LaneValue Init = evaluateSymbolically(*It->second.Init, Env);
      LaneValue Step = evaluateSymbolically(*It->second.Step, Env);
      if (!Init.known())
        return Init;
      if (!Step.known())
        return Step;
      LaneValue K;
      K.Terms[It->second.Iteration] = 1;
      LaneValue KSteps = product(Step, K, E.Type, E);
      return KSteps.known() ? sum(Init, KSteps, 1, E.Type) : KSteps;
    }
  }
  if (E.LaneVarying)
    return unknown(UnknownKind::Varying, E.Reason);
  return uniformOf(E, Env); // an unbound uniform counter
}

LaneValue unaryOf(const SymExpr &E, const LaneEnv &Env) {
  LaneValue A = evaluateSymbolically(*E.Ops[0], Env);
  if (!A.known())
    return A;
  if (E.Op == Opcode::Neg)
    return scaled(A, -1, E.Type);
  if (!A.Terms.empty())
    return nonLinear(A, A, opcodeSpelling(E.Op), E);
  if (E.Op == Opcode::Not)
    return known(~A.C, E.Type);
  if (E.Op == Opcode::Log2)
    return A.C >= 1 ? known(floorLog2(uint64_t(A.C)), E.Type)
                    : unknown(UnknownKind::Undefined,
                              "the logarithm of " + std::to_string(A.C) + " converted to an integer");
  return known(A.C == 0, E.Type);
}

/// A host function called on numbers (HostFunction).
LaneValue hostCallOf(const SymExpr &E, const LaneEnv &Env) {
  std::vector<int64_t> Args;
  for (const SymRef &Op : E.Ops) {
    LaneValue A = evaluateSymbolically(*Op, Env);
    if (!A.known())
      return A;
    if (!A.Terms.empty())
      return nonLinear(A, A, E.Name.c_str(), E);
    Args.push_back(A.C);
  }
  if (std::optional<int64_t> V = E.Fn ? E.Fn->call(Args) : std::nullopt)
    return known(*V, E.Type);
  std::string Text;
  for (int64_t A : Args)
    Text += (Text.empty() ? "" : ", ") + std::to_string(A);
  return unknown(UnknownKind::Undefined, "the host function '" + E.Name + "' gives no value for (" + Text +
                                             ") within " + std::to_string(HostFunction::MaxSteps) + " steps");
}

LaneValue evaluateNode(const SymExpr &E, const LaneEnv &Env) {
  switch (E.Kind) {
  case ExprKind::Const:
    return known(E.Value, E.Type);
  case ExprKind::ThreadIdx:
    return known(Env.Tid[unsigned(E.Dim)], E.Type);
  case ExprKind::BlockDim: {
    const auto &D = Env.BlockDim[unsigned(E.Dim)];
    if (D)
      return known(*D, E.Type);
    LaneValue V;
    V.Terms[std::string("blockDim.") + axisName(E.Dim)] = 1;
    return V;
  }
  case ExprKind::RowStride: {
    const SharedArray &A = (*Env.Arrays)[E.ArrayId];
    unsigned Pad = Env.Change.paddingOf(E.ArrayId);
    return known(rowStrideOf(A, E.DimIndex, Pad), E.Type);
  }
  case ExprKind::LoopVar:
    return loopCounterOf(E, Env);
  case ExprKind::Uniform:
    return uniformOf(E, Env);
  case ExprKind::Varying:
    return unknown(E.Reason.find("loaded from") != std::string::npos ? UnknownKind::DataDependent
                                                                     : UnknownKind::Varying,
                   E.Reason.empty() ? "'" + E.Name + "' is not known" : E.Reason);
  case ExprKind::Unary:
    return unaryOf(E, Env);
  case ExprKind::Binary: {
    LaneValue A = evaluateSymbolically(*E.Ops[0], Env);
    // && and || short-circuit exactly as C++ does, per lane.
    if ((E.Op == Opcode::LAnd || E.Op == Opcode::LOr) && A.exact()) {
      if (E.Op == Opcode::LAnd && A.C == 0)
        return known(0, E.Type);
      if (E.Op == Opcode::LOr && A.C != 0)
        return known(1, E.Type);
    }
    if (!A.known())
      return A;
    LaneValue B = evaluateSymbolically(*E.Ops[1], Env);
    if (!B.known())
      return B;
    return binary(E.Op, A, B, E, Env.WarpUniformAxes);
  }
  case ExprKind::Select: {
    LaneValue C = evaluateSymbolically(*E.Ops[0], Env);
    if (!C.known())
      return C;
    if (!C.Terms.empty())
      return nonLinear(C, C, "?:", E);
    LaneValue V = evaluateSymbolically(*E.Ops[C.C ? 1 : 2], Env);
    if (V.exact())
      V.C = wrapToType(V.C, E.Type);
    return V;
  }
  case ExprKind::Cast: {
    LaneValue A = evaluateSymbolically(*E.Ops[0], Env);
    if (!A.known())
      return A;
    if (A.Terms.empty())
      return known(A.C, E.Type);
    // Widening keeps a linear form exact provided nothing overflowed; so
    // does narrowing to an int of 32 bits or more (the int of an index
    // computed in 64 bits: i = (int)(i + warp.size())). Narrower types
    // (char, short) wrap on purpose.
    if (E.Type.Bits >= E.Ops[0]->Type.Bits || E.Type.Bits >= 32)
      return A;
    return nonLinear(A, A, "narrowing conversion", E);
  }
  case ExprKind::Call:
    return hostCallOf(E, Env);
  }
  return unknown(UnknownKind::Varying, "unsupported expression");
}
} // namespace

} // namespace cbl
