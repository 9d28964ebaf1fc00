//===- CompiledAccesses.cpp - Adjacent accesses merged as nvcc does --------===//
#include "cuda-bank-lint/Symbolic/CompiledAccesses.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace cbl {

namespace {

unsigned tzOf(int64_t V) { return V == 0 ? 64u : unsigned(__builtin_ctzll(uint64_t(V))); }

/// Trailing bits of E known to be zero for every value of its leaves (what
/// the compiler can prove about an address's alignment).
unsigned knownTrailingZeros(const SymRef &E, const std::vector<SharedArray> &Arrays,
                            unsigned Depth = 0) {
  if (!E || Depth > 64)
    return 0;
  auto Arg = [&](unsigned I) { return knownTrailingZeros(E->Ops[I], Arrays, Depth + 1); };
  auto ConstArg = [&](unsigned I) -> std::optional<int64_t> {
    if (E->Ops[I]->isConst())
      return E->Ops[I]->Value;
    return std::nullopt;
  };
  switch (E->Kind) {
  case ExprKind::Const:
    return tzOf(E->Value);
  case ExprKind::RowStride:
    return E->ArrayId < Arrays.size() ? tzOf(rowStrideOf(Arrays[E->ArrayId], E->DimIndex, 0)) : 0;
  case ExprKind::Cast:
    return Arg(0);
  case ExprKind::Unary:
    return E->Op == Opcode::Neg ? Arg(0) : 0;
  case ExprKind::Select:
    return std::min(Arg(1), Arg(2));
  case ExprKind::Binary:
    switch (E->Op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Or: case Opcode::Xor:
    case Opcode::Min: case Opcode::Max:
      return std::min(Arg(0), Arg(1));
    case Opcode::Mul:
      return std::min(64u, Arg(0) + Arg(1));
    case Opcode::And:
      return std::max(Arg(0), Arg(1));
    case Opcode::Shl:
      if (auto C = ConstArg(1))
        return unsigned(std::min<int64_t>(64, Arg(0) + *C));
      return Arg(0);
    case Opcode::Shr:
    case Opcode::Div:
      if (auto C = ConstArg(1)) {
        int64_t Shift = E->Op == Opcode::Shr ? *C : (tzOf(*C) < 64 && (*C & (*C - 1)) == 0 ? tzOf(*C) : -1);
        if (Shift >= 0)
          return unsigned(std::max<int64_t>(0, int64_t(Arg(0)) - Shift));
      }
      return 0;
    case Opcode::Rem:
      if (auto C = ConstArg(1))
        if (*C > 0 && (*C & (*C - 1)) == 0)
          return std::min(Arg(0), tzOf(*C));
      return 0;
    default:
      return 0;
    }
  default:
    return 0;
  }
}

/// A byte offset as sum(coefficient * term) + constant, terms named by their
/// text (with the trailing zero bits known for each); Ok is false when it is
/// not linear in its terms.
struct Linear {
  std::map<std::string, int64_t> Terms;
  std::map<std::string, unsigned> TermZeros;
  std::set<unsigned> LoopsInTerms; ///< loop counters inside non-counter terms
  int64_t Const = 0;
  bool Ok = true;
  void add(const Linear &O, int64_t Scale) {
    Ok &= O.Ok;
    Const += Scale * O.Const;
    for (const auto &[T, C] : O.Terms)
      Terms[T] += Scale * C;
    TermZeros.insert(O.TermZeros.begin(), O.TermZeros.end());
    LoopsInTerms.insert(O.LoopsInTerms.begin(), O.LoopsInTerms.end());
  }
};

Linear linearize(const SymRef &E, const std::vector<SharedArray> &Arrays, unsigned Depth = 0) {
  Linear L;
  if (!E || Depth > 64) {
    L.Ok = false;
    return L;
  }
  switch (E->Kind) {
  case ExprKind::Const:
    L.Const = E->Value;
    return L;
  case ExprKind::RowStride:
    L.Const = E->ArrayId < Arrays.size() ? rowStrideOf(Arrays[E->ArrayId], E->DimIndex, 0) : 0;
    return L;
  case ExprKind::Cast:
    // Index arithmetic does not wrap in real code: the value is the same.
    return linearize(E->Ops[0], Arrays, Depth + 1);
  case ExprKind::Unary:
    if (E->Op == Opcode::Neg) {
      L.add(linearize(E->Ops[0], Arrays, Depth + 1), -1);
      return L;
    }
    break;
  case ExprKind::Binary: {
    Linear A = linearize(E->Ops[0], Arrays, Depth + 1);
    Linear B = linearize(E->Ops[1], Arrays, Depth + 1);
    if (E->Op == Opcode::Add || E->Op == Opcode::Sub) {
      L.add(A, 1);
      L.add(B, E->Op == Opcode::Add ? 1 : -1);
      return L;
    }
    if (E->Op == Opcode::Mul && A.Ok && B.Ok && (A.Terms.empty() || B.Terms.empty())) {
      const Linear &K = A.Terms.empty() ? A : B, &V = A.Terms.empty() ? B : A;
      L.add(V, K.Const);
      return L;
    }
    if (E->Op == Opcode::Shl && B.Ok && B.Terms.empty() && B.Const >= 0 && B.Const < 32) {
      L.add(A, int64_t(1) << B.Const);
      return L;
    }
    break;
  }
  default:
    break;
  }
  // Anything else is one term: equal texts are equal values. A loop
  // counter is named by its id (names repeat across loops).
  std::string Text =
      E->Kind == ExprKind::LoopVar ? "loop#" + std::to_string(E->LoopId) : toString(E);
  L.Terms[Text] = 1;
  L.TermZeros[Text] = knownTrailingZeros(E, Arrays);
  if (E->Kind != ExprKind::LoopVar)
    for (const SymExpr *Leaf : collectLeaves(E).Loops)
      L.LoopsInTerms.insert(Leaf->LoopId);
  return L;
}

/// The constant B - A when the two offsets have the same terms.
std::optional<int64_t> constantDifference(const Linear &A, const Linear &B) {
  if (!A.Ok || !B.Ok)
    return std::nullopt;
  for (const auto &[T, C] : A.Terms) {
    auto It = B.Terms.find(T);
    if ((It == B.Terms.end() ? 0 : It->second) != C)
      return std::nullopt;
  }
  for (const auto &[T, C] : B.Terms)
    if (C != 0 && !A.Terms.count(T))
      return std::nullopt;
  return B.Const - A.Const;
}

/// The alignment (log2) ptxas relies on for a shared variable when it
/// merges accesses of Width bytes (SASS of nvcc 13 for sm_90): 16 bytes for
/// 4- and 8-byte accesses (it places the variable so); for 2-byte ones the
/// declared alignment, at least 4 (adjacent shorts at 2t, 2t+1 are one STS);
/// for bytes only the declared alignment (an unaligned char array's four
/// bytes stay four LDS.U8: cuda-samples histogram64, measured 8-bit; with
/// __align__(16), four bytes are one LDS).
unsigned baseAlignBits(const SharedArray &Arr, unsigned Width) {
  unsigned Declared = Arr.Alignment ? tzOf(int64_t(Arr.Alignment)) : 0;
  if (Width >= 4)
    return 4;
  return std::min(4u, Width == 2 ? std::max(Declared, 2u) : Declared);
}

/// Known trailing zero bits of the offset, at most MaxBits (the variable's
/// alignment, baseAlignBits).
unsigned alignmentBits(const Linear &L, int64_t Plus, unsigned MaxBits = 4) {
  unsigned Bits = tzOf(L.Const + Plus);
  for (const auto &[T, C] : L.Terms) {
    auto Z = L.TermZeros.find(T);
    if (C != 0)
      Bits = std::min(Bits, tzOf(C) + (Z == L.TermZeros.end() ? 0 : Z->second));
  }
  return std::min(Bits, MaxBits);
}

bool mergeable(const SharedAccess &A) {
  return A.Unsupported.empty() && A.NotAnalysable.empty() && !A.Volatile &&
         (A.Op == AccessOp::Load || A.Op == AccessOp::Store) && A.Width >= 1 && A.Width <= 8 &&
         A.MergedWith.empty();
}

std::string guardKey(const SharedAccess &A) {
  std::string K;
  for (const Guard &G : A.Guards)
    K += (G.Negated ? "!" : "") + toString(G.Cond) + ";";
  for (unsigned L : A.Loops)
    K += "L" + std::to_string(L) + ";";
  return K;
}

/// The LoopVar leaf of counter Id in E, if any.
SymRef findLoopVar(const SymRef &E, unsigned Id) {
  if (!E)
    return nullptr;
  if (E->Kind == ExprKind::LoopVar && E->LoopId == Id)
    return E;
  for (const SymRef &Op : E->Ops)
    if (SymRef Found = findLoopVar(Op, Id))
      return Found;
  return nullptr;
}

/// Merges the iterations of a fully unrolled loop: an access in a loop of a
/// few constant iterations (counter from a constant, step 1, constant bound)
/// whose offset advances by its width each iteration, the only access to its
/// variable in the loop, becomes one access of 8 or 16 bytes run every
/// k-th iteration (nvcc unrolls such loops and merges the neighbours: the
/// items of a BlockExchange-style blocked store are one STS.128).
bool mergeIterations(SharedAccess &A, size_t Index, const std::vector<SharedAccess> &All,
                     const std::vector<LoopInfo> &Loops, const std::vector<SharedArray> &Arrays) {
  if (A.Loops.empty() || A.Loops.back() >= Loops.size())
    return false;
  const LoopInfo &L = Loops[A.Loops.back()];
  if (L.Counters.size() != 1 || !L.Cond || L.Cond->Kind != ExprKind::Binary ||
      (L.Cond->Op != Opcode::LT && L.Cond->Op != Opcode::LE))
    return false;
  const LoopCounter &C = L.Counters.front();
  std::string Counter = "loop#" + std::to_string(C.Id);
  Linear Init = linearize(C.Init, Arrays), Next = linearize(C.Next, Arrays);
  Linear Left = linearize(L.Cond->Ops[0], Arrays), Bound = linearize(L.Cond->Ops[1], Arrays);
  auto IsCounter = [&](const Linear &X, int64_t Plus) {
    return X.Ok && X.Terms.size() == 1 && X.Terms.count(Counter) && X.Terms.at(Counter) == 1 &&
           X.Const == Plus;
  };
  if (!Init.Ok || !Init.Terms.empty() || !IsCounter(Next, 1) || !IsCounter(Left, 0) ||
      !Bound.Ok || !Bound.Terms.empty())
    return false;
  int64_t Trips = Bound.Const - Init.Const + (L.Cond->Op == Opcode::LE ? 1 : 0);
  if (Trips < 2 || Trips > 64)
    return false;
  Linear Off = linearize(A.ByteOffset, Arrays);
  auto Step = Off.Terms.find(Counter);
  if (!Off.Ok || Step == Off.Terms.end() || Step->second != int64_t(A.Width))
    return false;
  if (Off.LoopsInTerms.count(C.Id))
    return false; // the counter also appears inside another term
  for (size_t J = 0; J < All.size(); ++J)
    if (J != Index && All[J].ArrayId == A.ArrayId &&
        std::find(All[J].Loops.begin(), All[J].Loops.end(), L.Id) != All[J].Loops.end())
      return false;
  Linear Base = Off;
  Base.Terms.erase(Counter);
  unsigned MaxBits = A.ArrayId < Arrays.size() ? baseAlignBits(Arrays[A.ArrayId], A.Width) : 4;
  for (unsigned Size : {16u, 8u, 4u, 2u}) {
    int64_t K = Size / A.Width;
    if (Size <= A.Width || K > Trips || Trips % K != 0 ||
        (1u << alignmentBits(Base, Init.Const * int64_t(A.Width), MaxBits)) < Size)
      continue;
    SymRef Var = findLoopVar(A.ByteOffset, C.Id);
    if (!Var)
      return false;
    IntType T = Var->Type;
    SymRef Phase = SymExpr::binary(
        Opcode::Rem, SymExpr::binary(Opcode::Sub, Var, SymExpr::constant(Init.Const, T), T),
        SymExpr::constant(K, T), T);
    A.Guards.push_back(Guard{SymExpr::binary(Opcode::EQ, Phase, SymExpr::constant(0, T),
                                             IntType::boolean()),
                             false, L.Where, GuardKind::Unrolled});
    A.MergedWith.push_back({L.Where, "each " + std::to_string(K) + " consecutive iterations of "
                                         "the loop (unrolled by the compiler)"});
    A.Width = Size;
    return true;
  }
  return false;
}

} // namespace

std::vector<SharedAccess> asCompiled(const std::vector<SharedAccess> &Accesses,
                                     const std::vector<SharedArray> &Arrays,
                                     const std::vector<LoopInfo> &Loops) {
  std::vector<SharedAccess> Out;
  std::vector<bool> Consumed(Accesses.size(), false);
  // Merged accesses, keyed by the index of the access whose place they take.
  std::map<size_t, SharedAccess> Merged;
  for (size_t I = 0; I < Accesses.size(); ++I) {
    const SharedAccess &A = Accesses[I];
    if (Consumed[I] || !mergeable(A))
      continue;
    // Partners: same region, variable, direction, width and guards, until an
    // access of the other direction to the variable intervenes.
    std::string Key = guardKey(A);
    Linear Base = linearize(A.ByteOffset, Arrays);
    std::vector<std::pair<int64_t, size_t>> Members{{0, I}};
    for (size_t J = I + 1; J < Accesses.size(); ++J) {
      const SharedAccess &B = Accesses[J];
      if (B.Region != A.Region)
        break;
      if (B.ArrayId != A.ArrayId)
        continue;
      // The other direction, a volatile or atomic access: nothing moves across.
      if (B.Op != A.Op || !B.Unsupported.empty() || B.Volatile)
        break;
      if (Consumed[J] || !mergeable(B) || B.Width != A.Width || guardKey(B) != Key)
        continue;
      if (auto D = constantDifference(Base, linearize(B.ByteOffset, Arrays)))
        Members.push_back({*D, J});
    }
    if (Members.size() < 2)
      continue;
    std::sort(Members.begin(), Members.end());
    // Chunks from the lowest offset up: the widest aligned, contiguous one.
    for (size_t M = 0; M < Members.size();) {
      int64_t Start = Members[M].first;
      size_t Taken = 0;
      unsigned MaxBits = A.ArrayId < Arrays.size() ? baseAlignBits(Arrays[A.ArrayId], A.Width) : 4;
      for (unsigned Size : {16u, 8u, 4u, 2u}) {
        if (Size <= A.Width || (1u << alignmentBits(Base, Start, MaxBits)) < Size)
          continue;
        size_t Need = Size / A.Width, K = M;
        int64_t Next = Start;
        std::vector<size_t> Chunk;
        while (K < Members.size() && Chunk.size() < Need) {
          if (Members[K].first == Next) {
            Chunk.push_back(Members[K].second);
            Next += A.Width;
          } else if (Members[K].first > Next) {
            break;
          }
          ++K; // a duplicate offset is skipped
        }
        if (Chunk.size() != Need)
          continue;
        std::sort(Chunk.begin(), Chunk.end()); // program order
        const SharedAccess &Low = Accesses[Members[M].second];
        size_t At = A.Op == AccessOp::Load ? Chunk.front() : Chunk.back();
        SharedAccess W = Accesses[At];
        W.Width = Size;
        W.ByteOffset = Low.ByteOffset;
        for (size_t C : Chunk) {
          Consumed[C] = true;
          if (C != At)
            W.MergedWith.push_back({Accesses[C].Where, Accesses[C].Spelling});
        }
        Merged.emplace(At, std::move(W));
        Taken = K;
        break;
      }
      M = Taken ? Taken : M + 1;
    }
  }
  for (size_t I = 0; I < Accesses.size(); ++I) {
    auto It = Merged.find(I);
    if (It != Merged.end()) {
      Out.push_back(std::move(It->second));
    } else if (!Consumed[I]) {
      Out.push_back(Accesses[I]);
      if (mergeable(Out.back()))
        mergeIterations(Out.back(), I, Accesses, Loops, Arrays);
    }
  }
  return Out;
}

} // namespace cbl
