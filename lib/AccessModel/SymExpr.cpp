//===- SymExpr.cpp - Construction and printing of symbolic expressions ----===//
//
// Builders fold constant operands eagerly (with the C++ semantics of the node's
// type) so that everything the compiler would fold is a single Const by the
// time the symbolic layer sees it.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/AccessModel/SymExpr.h"
#include "cuda-bank-lint/AccessModel/HostFunction.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

namespace cbl {

const char *axisName(Axis A) {
  switch (A) {
  case Axis::X: return "x";
  case Axis::Y: return "y";
  case Axis::Z: return "z";
  }
  return "?";
}

const char *opcodeSpelling(Opcode Op) {
  switch (Op) {
  case Opcode::Neg: return "-";
  case Opcode::Not: return "~";
  case Opcode::LNot: return "!";
  case Opcode::Log2: return "log2";
  case Opcode::Add: return "+";
  case Opcode::Sub: return "-";
  case Opcode::Mul: return "*";
  case Opcode::Div: return "/";
  case Opcode::Rem: return "%";
  case Opcode::Shl: return "<<";
  case Opcode::Shr: return ">>";
  case Opcode::And: return "&";
  case Opcode::Or: return "|";
  case Opcode::Xor: return "^";
  case Opcode::Min: return "min";
  case Opcode::Max: return "max";
  case Opcode::LT: return "<";
  case Opcode::LE: return "<=";
  case Opcode::GT: return ">";
  case Opcode::GE: return ">=";
  case Opcode::EQ: return "==";
  case Opcode::NE: return "!=";
  case Opcode::LAnd: return "&&";
  case Opcode::LOr: return "||";
  }
  return "?";
}

bool isComparison(Opcode Op) {
  switch (Op) {
  case Opcode::LT: case Opcode::LE: case Opcode::GT: case Opcode::GE:
  case Opcode::EQ: case Opcode::NE: case Opcode::LAnd: case Opcode::LOr:
    return true;
  default:
    return false;
  }
}

static std::shared_ptr<SymExpr> make(ExprKind K, IntType T) {
  auto E = std::make_shared<SymExpr>();
  E->Kind = K;
  E->Type = T;
  E->ReadsLaneValue = K == ExprKind::Varying;
  return E;
}

static uint64_t mix(uint64_t H, uint64_t V) {
  return (H ^ (V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2))) * 0x100000001b3ULL;
}

static uint64_t leafHash(const SymExpr &E) {
  uint64_t H = mix(uint64_t(E.Kind) + 1, uint64_t(E.Value));
  H = mix(H, uint64_t(E.Dim) * 31 + E.ArrayId * 7 + E.DimIndex + (uint64_t(E.LoopId) << 20));
  return mix(H, std::hash<std::string>()(E.Name));
}

/// An inner node varies between threads when one of its operands does; its
/// size and hash follow from its operands'.
static void noteOperands(SymExpr &E) {
  uint64_t Size = 1;
  E.Hash = mix(uint64_t(E.Kind) + 101, uint64_t(E.Op) * 131 + E.Type.Bits + (E.Type.Signed ? 7 : 0));
  for (const SymRef &Op : E.Ops) {
    E.ReadsCounter |= Op->ReadsCounter;
    E.ThreadAxes |= Op->ThreadAxes;
    E.ReadsLaneValue |= Op->ReadsLaneValue;
    Size += Op->TreeSize;
    E.Hash = mix(E.Hash, Op->Hash);
  }
  E.TreeSize = uint32_t(std::min<uint64_t>(Size, UINT32_MAX));
}

/// E, or an unknown of its type and uniformity when it is too large to track.
static SymRef bounded(std::shared_ptr<SymExpr> E) {
  if (E->TreeSize <= MaxTreeSize)
    return E;
  char Id[20];
  snprintf(Id, sizeof Id, "%08llx", (unsigned long long)(E->Hash & 0xffffffffULL));
  std::string Name = std::string("(a value too large to track #") + Id + ")";
  std::string Why = "an expression of more than " + std::to_string(MaxTreeSize) +
                    " operations (e.g. a sorting network unrolled into nested selects) is not "
                    "tracked";
  return E->threadVarying() ? SymExpr::varying(Name, Why, E->Type) : SymExpr::uniform(Name, Why, E->Type);
}

SymRef SymExpr::constant(int64_t V, IntType T) {
  auto E = make(ExprKind::Const, T);
  E->Value = wrapToType(V, T);
  E->Hash = leafHash(*E);
  return E;
}

SymRef SymExpr::threadIdx(Axis A) {
  auto E = make(ExprKind::ThreadIdx, IntType::u32());
  E->Dim = A;
  E->ThreadAxes = uint8_t(1u << unsigned(A));
  E->Hash = leafHash(*E);
  return E;
}

SymRef SymExpr::blockDim(Axis A) {
  auto E = make(ExprKind::BlockDim, IntType::u32());
  E->Dim = A;
  E->Hash = leafHash(*E);
  return E;
}

SymRef SymExpr::rowStride(unsigned ArrayId, unsigned DimIndex) {
  auto E = make(ExprKind::RowStride, IntType::i64());
  E->ArrayId = ArrayId;
  E->DimIndex = DimIndex;
  E->Hash = leafHash(*E);
  return E;
}

SymRef SymExpr::uniform(std::string Name, std::string Reason, IntType T) {
  auto E = make(ExprKind::Uniform, T);
  E->Name = std::move(Name);
  E->Reason = std::move(Reason);
  E->Hash = leafHash(*E);
  return E;
}

SymRef SymExpr::varying(std::string Name, std::string Reason, IntType T) {
  auto E = make(ExprKind::Varying, T);
  E->Name = std::move(Name);
  E->Reason = std::move(Reason);
  E->Hash = leafHash(*E);
  return E;
}

SymRef SymExpr::loopVar(unsigned LoopId, std::string Name, std::string Reason, bool LaneVarying,
                        IntType T) {
  auto E = make(ExprKind::LoopVar, T);
  E->LoopId = LoopId;
  E->Name = std::move(Name);
  E->Reason = std::move(Reason);
  E->LaneVarying = LaneVarying;
  E->ReadsLaneValue = LaneVarying;
  E->ReadsCounter = true;
  E->Hash = leafHash(*E);
  return E;
}

SymRef SymExpr::unary(Opcode Op, SymRef A, IntType T) {
  if (A->isConst()) {
    int64_t V = A->Value;
    switch (Op) {
    case Opcode::Neg: return constant(-V, T);
    case Opcode::Not: return constant(~V, T);
    case Opcode::LNot: return constant(V == 0, T);
    case Opcode::Log2:
      if (V >= 1)
        return constant(floorLog2(uint64_t(V)), T);
      break;
    default: break;
    }
  }
  auto E = make(ExprKind::Unary, T);
  E->Op = Op;
  E->Ops = {std::move(A)};
  noteOperands(*E);
  return bounded(std::move(E));
}

/// Folds an operation on two constants with C++ semantics in type T; returns
/// nullptr where the result is undefined (division by zero, bad shift).
static SymRef foldConstants(Opcode Op, const SymExpr &A, const SymExpr &B, IntType T) {
  int64_t X = A.Value, Y = B.Value;
  bool OpSigned = A.Type.Signed;
  auto Less = [&](int64_t P, int64_t Q) { return OpSigned ? P < Q : uint64_t(P) < uint64_t(Q); };
  switch (Op) {
  case Opcode::Add: return SymExpr::constant(int64_t(uint64_t(X) + uint64_t(Y)), T);
  case Opcode::Sub: return SymExpr::constant(int64_t(uint64_t(X) - uint64_t(Y)), T);
  case Opcode::Mul: return SymExpr::constant(int64_t(uint64_t(X) * uint64_t(Y)), T);
  case Opcode::And: return SymExpr::constant(X & Y, T);
  case Opcode::Or: return SymExpr::constant(X | Y, T);
  case Opcode::Xor: return SymExpr::constant(X ^ Y, T);
  case Opcode::Div:
  case Opcode::Rem:
    if (Y == 0 || (T.Signed && Y == -1))
      return nullptr;
    if (T.Signed)
      return SymExpr::constant(Op == Opcode::Div ? X / Y : X % Y, T);
    return SymExpr::constant(int64_t(Op == Opcode::Div ? uint64_t(X) / uint64_t(Y)
                                                       : uint64_t(X) % uint64_t(Y)), T);
  case Opcode::Shl:
    if (Y < 0 || Y >= int64_t(T.Bits))
      return nullptr;
    return SymExpr::constant(int64_t(uint64_t(X) << Y), T);
  case Opcode::Shr:
    if (Y < 0 || Y >= int64_t(T.Bits))
      return nullptr;
    return SymExpr::constant(T.Signed ? X >> Y : int64_t(uint64_t(wrapToType(X, T)) >> Y), T);
  case Opcode::Min: return SymExpr::constant(Less(X, Y) ? X : Y, T);
  case Opcode::Max: return SymExpr::constant(Less(X, Y) ? Y : X, T);
  case Opcode::LT: return SymExpr::constant(Less(X, Y), T);
  case Opcode::LE: return SymExpr::constant(!Less(Y, X), T);
  case Opcode::GT: return SymExpr::constant(Less(Y, X), T);
  case Opcode::GE: return SymExpr::constant(!Less(X, Y), T);
  case Opcode::EQ: return SymExpr::constant(X == Y, T);
  case Opcode::NE: return SymExpr::constant(X != Y, T);
  case Opcode::LAnd: return SymExpr::constant(X && Y, T);
  case Opcode::LOr: return SymExpr::constant(X || Y, T);
  default: return nullptr;
  }
}

SymRef SymExpr::binary(Opcode Op, SymRef A, SymRef B, IntType T) {
  if (A->isConst() && B->isConst())
    if (SymRef Folded = foldConstants(Op, *A, *B, T))
      return Folded;
  // Identities that keep printed expressions short; exact in every type.
  if (B->isConst() && B->Value == 0 &&
      (Op == Opcode::Add || Op == Opcode::Sub || Op == Opcode::Or ||
       Op == Opcode::Xor || Op == Opcode::Shl || Op == Opcode::Shr) &&
      A->Type == T)
    return A;
  if (A->isConst() && A->Value == 0 && (Op == Opcode::Add) && B->Type == T)
    return B;
  if (B->isConst() && B->Value == 1 && (Op == Opcode::Mul || Op == Opcode::Div) &&
      A->Type == T)
    return A;
  if (A->isConst() && A->Value == 1 && Op == Opcode::Mul && B->Type == T)
    return B;
  auto E = make(ExprKind::Binary, T);
  E->Op = Op;
  E->Ops = {std::move(A), std::move(B)};
  noteOperands(*E);
  return bounded(std::move(E));
}

SymRef SymExpr::select(SymRef C, SymRef A, SymRef B, IntType T) {
  if (C->isConst())
    return cast(C->Value ? A : B, T);
  auto E = make(ExprKind::Select, T);
  E->Ops = {std::move(C), std::move(A), std::move(B)};
  noteOperands(*E);
  return bounded(std::move(E));
}

SymRef SymExpr::cast(SymRef A, IntType T) {
  if (A->Type == T)
    return A;
  if (A->isConst())
    return constant(A->Value, T);
  // Widening a value that never holds a negative number changes nothing
  // observable; we still keep the node so evaluation stays exact.
  auto E = make(ExprKind::Cast, T);
  E->Ops = {std::move(A)};
  noteOperands(*E);
  return bounded(std::move(E));
}

SymRef SymExpr::call(std::shared_ptr<const HostFunction> Fn, std::vector<SymRef> Args, IntType T) {
  std::vector<int64_t> Values;
  for (const SymRef &A : Args)
    if (A->isConst())
      Values.push_back(A->Value);
  if (Fn && Values.size() == Args.size())
    if (std::optional<int64_t> V = Fn->call(Values))
      return constant(*V, T);
  auto E = make(ExprKind::Call, T);
  E->Ops = std::move(Args);
  noteOperands(*E);
  E->Name = Fn ? Fn->Name : "";
  E->Hash = mix(E->Hash, std::hash<std::string>()(E->Name));
  E->Fn = std::move(Fn);
  return bounded(std::move(E));
}

const SymExpr &stripCasts(const SymExpr &E) {
  return E.Kind == ExprKind::Cast ? stripCasts(*E.Ops[0]) : E;
}

SymRef withOperands(const SymRef &E, const std::vector<SymRef> &Ops) {
  switch (E->Kind) {
  case ExprKind::Unary: return SymExpr::unary(E->Op, Ops[0], E->Type);
  case ExprKind::Binary: return SymExpr::binary(E->Op, Ops[0], Ops[1], E->Type);
  case ExprKind::Select: return SymExpr::select(Ops[0], Ops[1], Ops[2], E->Type);
  case ExprKind::Cast: return SymExpr::cast(Ops[0], E->Type);
  case ExprKind::Call: return SymExpr::call(E->Fn, Ops, E->Type);
  default: return E;
  }
}

SymRef replaceLeaves(const SymRef &E, const std::function<SymRef(const SymRef &)> &Leaf) {
  if (!E)
    return E;
  if (E->Ops.empty()) {
    SymRef New = Leaf(E);
    return New ? New : E;
  }
  std::vector<SymRef> Ops;
  bool Changed = false;
  for (const SymRef &Op : E->Ops) {
    Ops.push_back(replaceLeaves(Op, Leaf));
    Changed |= Ops.back() != Op;
  }
  return Changed ? withOperands(E, Ops) : E;
}

static int precedence(const SymExpr &E) {
  if (E.Kind == ExprKind::Cast) // casts are not printed
    return precedence(*E.Ops[0]);
  if (E.Kind != ExprKind::Binary)
    return E.Kind == ExprKind::Select ? 1 : 100;
  switch (E.Op) {
  case Opcode::Mul: case Opcode::Div: case Opcode::Rem: return 13;
  case Opcode::Add: case Opcode::Sub: return 12;
  case Opcode::Shl: case Opcode::Shr: return 11;
  case Opcode::LT: case Opcode::LE: case Opcode::GT: case Opcode::GE: return 9;
  case Opcode::EQ: case Opcode::NE: return 8;
  case Opcode::And: return 7;
  case Opcode::Xor: return 6;
  case Opcode::Or: return 5;
  case Opcode::LAnd: return 4;
  case Opcode::LOr: return 3;
  case Opcode::Min: case Opcode::Max: return 100;
  default: return 100;
  }
}

static void print(const SymExpr &E, std::string &Out, bool Copies);

static void printOperand(const SymExpr &E, int ParentPrec, bool Right, std::string &Out, bool Copies) {
  int P = precedence(E);
  bool Paren = P < ParentPrec || (Right && P == ParentPrec);
  if (Paren)
    Out += '(';
  print(E, Out, Copies);
  if (Paren)
    Out += ')';
}

static void print(const SymExpr &E, std::string &Out, bool Copies) {
  switch (E.Kind) {
  case ExprKind::Const:
    Out += std::to_string(E.Value);
    return;
  case ExprKind::ThreadIdx:
    Out += std::string("threadIdx.") + axisName(E.Dim);
    return;
  case ExprKind::BlockDim:
    Out += std::string("blockDim.") + axisName(E.Dim);
    return;
  case ExprKind::RowStride:
    Out += "rowstride(#" + std::to_string(E.ArrayId) + "," + std::to_string(E.DimIndex) + ")";
    return;
  case ExprKind::Uniform:
  case ExprKind::Varying:
  case ExprKind::LoopVar: {
    // Copies of one source expression (unrolled iterations) are told apart
    // by a '#2' suffix in their names; they read as the source wrote them
    // (keyText keeps the suffix).
    size_t Hash = E.Name.rfind('#');
    bool Copy = !Copies && Hash != std::string::npos && Hash > 0 && Hash + 1 < E.Name.size() &&
                E.Name.find_first_not_of("0123456789", Hash + 1) == std::string::npos;
    Out += E.Name.empty() ? std::string("<unknown>") : Copy ? E.Name.substr(0, Hash) : E.Name;
    return;
  }
  case ExprKind::Unary:
    Out += opcodeSpelling(E.Op);
    if (E.Op == Opcode::Log2) {
      Out += '(';
      print(*E.Ops[0], Out, Copies);
      Out += ')';
      return;
    }
    printOperand(*E.Ops[0], 14, false, Out, Copies);
    return;
  case ExprKind::Binary:
    if (E.Op == Opcode::Min || E.Op == Opcode::Max) {
      Out += opcodeSpelling(E.Op);
      Out += '(';
      print(*E.Ops[0], Out, Copies);
      Out += ", ";
      print(*E.Ops[1], Out, Copies);
      Out += ')';
      return;
    }
  {
    // A comparison with its constant on the right, as people write it:
    // '0 < n' reads 'n > 0'.
    bool Mirror = E.Op >= Opcode::LT && E.Op <= Opcode::NE && stripCasts(*E.Ops[0]).isConst() &&
                  !stripCasts(*E.Ops[1]).isConst();
    Opcode Op = !Mirror              ? E.Op
                : E.Op == Opcode::LT ? Opcode::GT
                : E.Op == Opcode::GT ? Opcode::LT
                : E.Op == Opcode::LE ? Opcode::GE
                : E.Op == Opcode::GE ? Opcode::LE
                                     : E.Op;
    printOperand(*E.Ops[Mirror], precedence(E), false, Out, Copies);
    Out += ' ';
    Out += opcodeSpelling(Op);
    Out += ' ';
    printOperand(*E.Ops[!Mirror], precedence(E), true, Out, Copies);
    return;
  }
  case ExprKind::Select:
    printOperand(*E.Ops[0], 2, false, Out, Copies);
    Out += " ? ";
    printOperand(*E.Ops[1], 2, false, Out, Copies);
    Out += " : ";
    printOperand(*E.Ops[2], 2, false, Out, Copies);
    return;
  case ExprKind::Cast:
    // Casts are invisible in the rendering: users think in source values.
    print(*E.Ops[0], Out, Copies);
    return;
  case ExprKind::Call:
    Out += E.Fn ? E.Fn->Name : std::string("<function>");
    Out += '(';
    for (size_t I = 0; I < E.Ops.size(); ++I) {
      if (I)
        Out += ", ";
      print(*E.Ops[I], Out, Copies);
    }
    Out += ')';
    return;
  }
}

std::string toString(const SymRef &E) { return E ? toString(*E) : std::string(); }

std::string toString(const SymExpr &E) {
  auto Make = [&] {
    std::string Out;
    print(E, Out, /*Copies=*/false);
    return Out;
  };
  return E.TreeSize < 8 ? Make() : E.Text.get(Make);
}

std::string keyText(const SymExpr &E) {
  auto Make = [&] {
    std::string Out;
    print(E, Out, /*Copies=*/true);
    return Out;
  };
  return E.TreeSize < 8 ? Make() : E.Key.get(Make);
}

namespace {

/// Gathers the leaves of an expression DAG, visiting each shared node once
/// (the order of first appearance is that of a walk of the whole tree).
struct LeafCollector {
  SymLeaves &L;
  llvm::SmallPtrSet<const SymExpr *, 32> Visited;
  std::set<std::string> SeenU, SeenV;

  void collect(const SymExpr &E) {
    if (!Visited.insert(&E).second)
      return;
    if (E.Kind == ExprKind::LoopVar &&
        std::find_if(L.Loops.begin(), L.Loops.end(),
                     [&](const SymExpr *X) { return X->LoopId == E.LoopId; }) == L.Loops.end())
      L.Loops.push_back(&E);
    switch (E.Kind) {
    case ExprKind::ThreadIdx:
      L.UsesThreadIdx[unsigned(E.Dim)] = true;
      break;
    case ExprKind::BlockDim:
      L.UsesBlockDim[unsigned(E.Dim)] = true;
      break;
    case ExprKind::Uniform:
      if (SeenU.insert(E.Name).second)
        L.Uniforms.push_back(&E);
      break;
    case ExprKind::Varying:
      if (SeenV.insert(E.Name + "\n" + E.Reason).second)
        L.Varyings.push_back(&E);
      break;
    default:
      break;
    }
    for (const SymRef &Op : E.Ops)
      collect(*Op);
  }
};

void addCounters(const SymExpr &E, std::set<unsigned> &Ids,
                 llvm::SmallPtrSetImpl<const SymExpr *> &Visited) {
  if (!E.ReadsCounter || !Visited.insert(&E).second)
    return;
  if (E.Kind == ExprKind::LoopVar)
    Ids.insert(E.LoopId);
  for (const SymRef &Op : E.Ops)
    addCounters(*Op, Ids, Visited);
}

} // namespace

void addLoopCounters(const SymExpr &E, std::set<unsigned> &Ids) {
  llvm::SmallPtrSet<const SymExpr *, 32> Visited;
  addCounters(E, Ids, Visited);
}

SymLeaves collectLeaves(const SymRef &E) {
  SymLeaves L;
  if (E)
    LeafCollector{L}.collect(*E);
  return L;
}

bool isThreadVarying(const SymExpr &E) { return E.threadVarying(); }

bool isThreadVarying(const SymRef &E) { return E && isThreadVarying(*E); }

} // namespace cbl
