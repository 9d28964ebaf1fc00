//===- SymbolicText.cpp - Rendering symbolic facts as text -----------------===//
//
// Byte offsets as C (array strides resolved) and parameter residue classes
// as words; kept apart from the analysis passes of WarpAnalysis.cpp.
//
//===----------------------------------------------------------------------===//
#include "SymbolicText.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

#include <numeric>

namespace cbl {

/// "'stride' is even", "'stride' mod 8 is 2 or 6": the residues (mod 32) in
/// Set, described with the smallest modulus that captures them.
std::string quotedList(const std::vector<std::string> &Names) {
  std::string S;
  for (const auto &N : Names)
    S += (S.empty() ? "'" : ", '") + N + "'";
  return S;
}

std::string boundByReason(const std::vector<std::string> &BoundBy) {
  return "which threads run it depends on " + quotedList(BoundBy) +
         "; the cost shown is the worst case, when every lane passes the condition";
}

std::string boundaryNote(const std::vector<std::string> &ThresholdBy) {
  if (ThresholdBy.empty())
    return "";
  return "the cost of the warps whose lanes all pass the conditions on " + quotedList(ThresholdBy) +
         "; a warp at the boundary runs it with fewer lanes and costs at most this";
}

std::string dependsOnValueReason(const std::string &Name, const std::string &Cases) {
  return "the cost depends on the value of '" + Name + "': " + Cases;
}

std::string describeResidues(const std::string &Name, const std::vector<bool> &Set) {
  const unsigned N = unsigned(Set.size());
  for (unsigned M = 1; M <= N; M *= 2) {
    std::vector<bool> Classes(M, false);
    for (unsigned R = 0; R < N; ++R)
      if (Set[R])
        Classes[R % M] = true;
    bool Exact = true;
    for (unsigned R = 0; R < N; ++R)
      Exact &= Classes[R % M] == Set[R];
    if (!Exact)
      continue;
    if (M == 1)
      return "for every value of '" + Name + "'";
    if (M == 2)
      return "when '" + Name + "' is " + (Classes[0] ? "even" : "odd");
    std::vector<unsigned> In, Out;
    for (unsigned R = 0; R < M; ++R)
      (Classes[R] ? In : Out).push_back(R);
    if (In.size() == 1 && In[0] == 0)
      return "when '" + Name + "' is a multiple of " + std::to_string(M);
    if (Out.size() == 1 && Out[0] == 0)
      return "when '" + Name + "' is not a multiple of " + std::to_string(M);
    bool Negate = Out.size() < In.size();
    if (Negate)
      In = Out;
    std::string S = "when '" + Name + "' mod " + std::to_string(M) + (Negate ? " is not " : " is ");
    for (size_t I = 0; I < In.size(); ++I)
      S += (I ? (I + 1 == In.size() ? (Negate ? " nor " : " or ") : ", ") : "") + std::to_string(In[I]);
    return S;
  }
  return "";
}


static SymRef resolveStrides(const SymRef &E, const std::vector<SharedArray> &Arrays) {
  if (E->Kind == ExprKind::RowStride)
    return SymExpr::constant(rowStrideOf(Arrays[E->ArrayId], E->DimIndex, 0), E->Type);
  if (E->Ops.empty())
    return E;
  std::vector<SymRef> Ops;
  for (const SymRef &Op : E->Ops)
    Ops.push_back(resolveStrides(Op, Arrays));
  return withOperands(E, Ops);
}

std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays) {
  return toString(resolveStrides(Offset, Arrays));
}

namespace {

/// A sum of terms, each an expression that is no sum times a constant, and
/// a constant: how an offset reads once its constant factors are multiplied
/// out and its constants added up.
struct LinearForm {
  std::vector<std::pair<SymRef, int64_t>> Terms;
  int64_t Constant = 0;
  unsigned Constants = 0; ///< constants written in the sum (factors included)
  bool Ok = true;         ///< false: a constant too large to combine safely
};

const SymRef &uncast(const SymRef &E) { return E->Kind == ExprKind::Cast ? uncast(E->Ops[0]) : E; }

/// Whether E (casts aside) is a sum, a difference or a product by a constant.
bool additive(const SymRef &Given) {
  const SymRef &E = uncast(Given);
  if (E->Kind != ExprKind::Binary)
    return false;
  if (E->Op == Opcode::Add || E->Op == Opcode::Sub)
    return true;
  return E->Op == Opcode::Mul && (uncast(E->Ops[0])->isConst() || uncast(E->Ops[1])->isConst());
}

SymRef tidied(const SymRef &E);

/// Adds K * E to L.
void linearise(const SymRef &Given, int64_t K, LinearForm &L) {
  constexpr int64_t Big = int64_t(1) << 31;
  const SymRef &E = uncast(Given);
  if (K >= Big * Big || K <= -Big * Big) {
    L.Ok = false;
    return;
  }
  if (E->isConst()) {
    ++L.Constants;
    L.Ok &= E->Value < Big && E->Value > -Big;
    L.Constant += K * E->Value;
    return;
  }
  if (additive(E)) {
    if (E->Op != Opcode::Mul) {
      linearise(E->Ops[0], K, L);
      linearise(E->Ops[1], E->Op == Opcode::Sub ? -K : K, L);
      return;
    }
    bool ConstFirst = uncast(E->Ops[0])->isConst();
    int64_t C = uncast(E->Ops[ConstFirst ? 0 : 1])->Value;
    ++L.Constants;
    L.Ok &= C < Big && C > -Big;
    if (L.Ok)
      linearise(E->Ops[ConstFirst ? 1 : 0], K * C, L);
    return;
  }
  SymRef Atom = tidied(E);
  int64_t Factor = 1;
  if (E->Kind == ExprKind::Binary && E->Op == Opcode::Mul) {
    // A product of two monomials is one, its constants multiplied out:
    // 's * 2 * threadIdx.x * 4' is 's * threadIdx.x * 8'.
    LinearForm X, Y;
    linearise(E->Ops[0], 1, X);
    linearise(E->Ops[1], 1, Y);
    if (X.Ok && Y.Ok && X.Terms.size() == 1 && Y.Terms.size() == 1 && !X.Constant &&
        !Y.Constant && X.Terms[0].second > -Big && X.Terms[0].second < Big &&
        Y.Terms[0].second > -Big && Y.Terms[0].second < Big) {
      L.Constants += X.Constants + Y.Constants;
      Factor = X.Terms[0].second * Y.Terms[0].second;
      Atom = SymExpr::binary(Opcode::Mul, X.Terms[0].first, Y.Terms[0].first, E->Type);
      L.Ok &= Factor > -Big && Factor < Big;
    }
  }
  K *= Factor;
  std::string Key = keyText(*Atom);
  for (auto &[A, C] : L.Terms)
    if (keyText(*A) == Key) {
      C += K;
      return;
    }
  L.Terms.push_back({Atom, K});
}

/// E written back from its linear form, in the order of its terms; null
/// when it does not read as a sum (a leading negative term).
SymRef fromLinear(const LinearForm &L, IntType T) {
  SymRef Sum;
  for (const auto &[A, C] : L.Terms) {
    if (C == 0)
      continue;
    SymRef Term = SymExpr::binary(Opcode::Mul, A, SymExpr::constant(C < 0 ? -C : C, A->Type), A->Type);
    if (!Sum && C < 0)
      return nullptr;
    Sum = Sum ? SymExpr::binary(C < 0 ? Opcode::Sub : Opcode::Add, Sum, Term, T) : Term;
  }
  if (!Sum)
    return SymExpr::constant(L.Constant, T);
  if (L.Constant)
    Sum = SymExpr::binary(L.Constant < 0 ? Opcode::Sub : Opcode::Add, Sum,
                          SymExpr::constant(L.Constant < 0 ? -L.Constant : L.Constant, T), T);
  return Sum;
}

/// How many constants E's form L writes: its constant and the factors of
/// its terms other than 1.
unsigned constantsOf(const LinearForm &L) {
  unsigned N = L.Constant != 0;
  for (const auto &[A, C] : L.Terms)
    N += C != 0 && C != 1 && C != -1;
  return N;
}

/// E as a reader would simplify it, where that writes fewer constants: the
/// factor common to its terms taken out once (`C * 4 + i * 2 * 4` is
/// `(C + i * 2) * 4`), else constant factors multiplied out and the
/// constants of a sum added up (`2 + (x - 1) * 2` is `x * 2`); `(x * 32 +
/// 31) * 4` stays. For display only: equal to E modulo its type's
/// wrap-around.
SymRef tidied(const SymRef &E) {
  if (!additive(E)) {
    if (E->Ops.empty())
      return E;
    std::vector<SymRef> Ops;
    for (const SymRef &Op : E->Ops)
      Ops.push_back(tidied(Op));
    return withOperands(E, Ops);
  }
  LinearForm L;
  linearise(E, 1, L);
  if (!L.Ok)
    return E;
  uint64_t G = uint64_t(L.Constant < 0 ? -L.Constant : L.Constant);
  for (const auto &[A, C] : L.Terms)
    G = std::gcd(G, uint64_t(C < 0 ? -C : C));
  IntType T = uncast(E)->Type;
  SymRef Written;
  if (G > 1) {
    LinearForm Inner = L;
    Inner.Constant /= int64_t(G);
    for (auto &[A, C] : Inner.Terms)
      C /= int64_t(G);
    if (constantsOf(Inner) + 1 < L.Constants)
      if (SymRef Sum = fromLinear(Inner, T))
        Written = SymExpr::binary(Opcode::Mul, Sum, SymExpr::constant(int64_t(G), T), T);
  } else if (constantsOf(L) < L.Constants) {
    Written = fromLinear(L, T);
  }
  return Written ? Written : E;
}

} // namespace

std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays,
                         const BlockShape &Shape) {
  if (!Shape.known())
    return toString(tidied(resolveStrides(Offset, Arrays)));
  SymRef At = replaceLeaves(resolveStrides(Offset, Arrays), [&](const SymRef &E) -> SymRef {
    unsigned D = unsigned(E->Dim);
    if (E->Kind == ExprKind::BlockDim)
      return SymExpr::constant(Shape.Dim[D], E->Type);
    if (E->Kind == ExprKind::ThreadIdx && D > 0 && Shape.Dim[D] == 1)
      return SymExpr::constant(0, E->Type);
    return nullptr;
  });
  return toString(tidied(At));
}

} // namespace cbl
