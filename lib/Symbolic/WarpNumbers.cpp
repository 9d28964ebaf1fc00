//===- WarpNumbers.cpp - One expression's numbers in every lane of a warp -===//
//
// evaluateLane's numeric path for the 32 lanes of a warp at once: each node
// is visited once per warp, not once per lane, and its operation applied to
// every lane that needs it. The values are exactly the numeric path's (the
// same operations and wrap-arounds, the same short-circuits per lane); a
// lane whose value is not a plain number makes the whole call fail, and the
// caller evaluates lane by lane.
//
//===----------------------------------------------------------------------===//
#include "NumberOps.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "cuda-bank-lint/AccessModel/HostFunction.h"

namespace cbl {

namespace {

using Numbers = std::array<int64_t, WarpLanes::Size>;

template <class F> void forLanes(uint32_t Mask, F Body) {
  while (Mask) {
    unsigned L = unsigned(__builtin_ctz(Mask));
    Mask &= Mask - 1;
    Body(L);
  }
}

void broadcast(int64_t V, Numbers &Out) { Out.fill(V); }


class Evaluator {
public:
  explicit Evaluator(const WarpLanes &W) : W(W), Env(*W.Common) {}

  bool eval(const SymExpr &E, uint32_t Mask, Numbers &Out) {
    IntType T = E.Type;
    int64_t V;
    if (valueIn(Env.NodeValues, &E, T, V))
      return broadcast(V, Out), true;
    switch (E.Kind) {
    case ExprKind::Const:
      return broadcast(wrapToType(E.Value, T), Out), true;
    case ExprKind::ThreadIdx:
      forLanes(Mask, [&](unsigned L) { Out[L] = wrapToType(W.Tid[L][unsigned(E.Dim)], T); });
      return true;
    case ExprKind::BlockDim:
      if (!Env.BlockDim[unsigned(E.Dim)])
        return false;
      return broadcast(wrapToType(*Env.BlockDim[unsigned(E.Dim)], T), Out), true;
    case ExprKind::RowStride: {
      const SharedArray &A = (*Env.Arrays)[E.ArrayId];
      return broadcast(wrapToType(rowStrideOf(A, E.DimIndex, Env.Change.paddingOf(E.ArrayId)), T), Out),
             true;
    }
    case ExprKind::LoopVar:
      return counter(E, Mask, Out);
    case ExprKind::Uniform:
      if (!valueIn(Env.UniformValues, E.Name, T, V))
        return false;
      return broadcast(V, Out), true;
    case ExprKind::Varying:
      return false;
    case ExprKind::Unary:
      return unary(E, Mask, Out);
    case ExprKind::Binary:
      return binary(E, Mask, Out);
    case ExprKind::Select:
      return select(E, Mask, Out);
    case ExprKind::Cast:
      if (!eval(*E.Ops[0], Mask, Out))
        return false;
      forLanes(Mask, [&](unsigned L) { Out[L] = wrapToType(Out[L], T); });
      return true;
    case ExprKind::Call:
      return call(E, Mask, Out);
    }
    return false;
  }

private:
  bool counter(const SymExpr &E, uint32_t Mask, Numbers &Out) {
    if (W.SameLoops) {
      int64_t V;
      if (!valueIn(W.Loops[unsigned(__builtin_ctz(Mask))], E.LoopId, E.Type, V))
        return false;
      return broadcast(V, Out), true;
    }
    bool Ok = true;
    forLanes(Mask, [&](unsigned L) { Ok = Ok && valueIn(W.Loops[L], E.LoopId, E.Type, Out[L]); });
    return Ok;
  }

  bool unary(const SymExpr &E, uint32_t Mask, Numbers &Out) {
    if (!eval(*E.Ops[0], Mask, Out))
      return false;
    bool Ok = true;
    forLanes(Mask, [&](unsigned L) {
      int64_t A = Out[L];
      if (E.Op == Opcode::Log2 && A < 1)
        Ok = false;
      Out[L] = wrapToType(E.Op == Opcode::Neg    ? A * -1
                          : E.Op == Opcode::Not  ? ~A
                          : E.Op == Opcode::Log2 ? (A < 1 ? 0 : floorLog2(uint64_t(A)))
                                                 : int64_t(A == 0),
                          E.Type);
    });
    return Ok;
  }

  bool binary(const SymExpr &E, uint32_t Mask, Numbers &Out) {
    Numbers X;
    if (!eval(*E.Ops[0], Mask, X))
      return false;
    // && and || decide without the right operand in the lanes where the
    // left one does.
    uint32_t Rest = Mask;
    if (E.Op == Opcode::LAnd || E.Op == Opcode::LOr)
      forLanes(Mask, [&](unsigned L) {
        if ((X[L] != 0) == (E.Op == Opcode::LOr)) {
          Out[L] = wrapToType(E.Op == Opcode::LOr, E.Type);
          Rest &= ~(1u << L);
        }
      });
    if (!Rest)
      return true;
    Numbers Y;
    if (!eval(*E.Ops[1], Rest, Y))
      return false;
    bool Ok = true;
    IntType OT = E.Ops[0]->Type;
    forLanes(Rest, [&](unsigned L) {
      int64_t R = 0;
      Ok &= numberBinary(E.Op, X[L], Y[L], E.Type, OT, R) == NumberResult::Ok;
      Out[L] = wrapToType(R, E.Type);
    });
    return Ok;
  }

  bool select(const SymExpr &E, uint32_t Mask, Numbers &Out) {
    Numbers C;
    if (!eval(*E.Ops[0], Mask, C))
      return false;
    uint32_t Then = 0;
    forLanes(Mask, [&](unsigned L) { Then |= uint32_t(C[L] != 0) << L; });
    uint32_t Else = Mask & ~Then;
    if (Then && !eval(*E.Ops[1], Then, Out))
      return false;
    if (Else) {
      Numbers V;
      if (!eval(*E.Ops[2], Else, V))
        return false;
      forLanes(Else, [&](unsigned L) { Out[L] = V[L]; });
    }
    forLanes(Mask, [&](unsigned L) { Out[L] = wrapToType(Out[L], E.Type); });
    return true;
  }

  bool call(const SymExpr &E, uint32_t Mask, Numbers &Out) {
    if (!E.Fn)
      return false;
    std::vector<Numbers> Args(E.Ops.size());
    for (size_t I = 0; I < E.Ops.size(); ++I)
      if (!eval(*E.Ops[I], Mask, Args[I]))
        return false;
    bool Ok = true;
    std::vector<int64_t> Lane(E.Ops.size());
    forLanes(Mask, [&](unsigned L) {
      if (!Ok)
        return;
      for (size_t I = 0; I < Args.size(); ++I)
        Lane[I] = Args[I][L];
      std::optional<int64_t> V = E.Fn->call(Lane);
      Ok = V.has_value();
      Out[L] = V ? wrapToType(*V, E.Type) : 0;
    });
    return Ok;
  }

  const WarpLanes &W;
  const LaneEnv &Env;
};

} // namespace

bool evaluateWarpNumbers(const SymExpr &E, const WarpLanes &W, uint32_t Mask,
                         std::array<int64_t, WarpLanes::Size> &Out) {
  return !Mask || Evaluator(W).eval(E, Mask, Out);
}

} // namespace cbl
