//===- NumberOps.h - Integer operations of the lane evaluators -----------===//
//
// C++'s integer operations on numbers of a given type, shared by the
// symbolic and numeric evaluators (LaneEvaluator.cpp, WarpNumbers.cpp).
// Private to lib/Symbolic.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_NUMBEROPS_H
#define CUDA_BANK_LINT_SYMBOLIC_NUMBEROPS_H

#include "cuda-bank-lint/AccessModel/SymExpr.h"

#include <cstdint>

namespace cbl {

/// The value Values gives Key (a counter's id, an unknown's name), if any.
template <class Map, class Key>
inline bool valueIn(const Map *Values, const Key &K, IntType T, int64_t &Out) {
  if (!Values)
    return false;
  auto It = Values->find(K);
  if (It == Values->end())
    return false;
  Out = wrapToType(It->second, T);
  return true;
}

inline bool lessThan(int64_t A, int64_t B, IntType T) {
  if (T.Signed)
    return A < B;
  return uint64_t(A) < uint64_t(B);
}

/// Op on two numbers of operand type OT, result of type T (not yet wrapped):
/// the one definition of the integer operations, for every evaluation path
/// (symbolic, one lane's numbers, a warp's numbers).
enum class NumberResult { Ok, DivisionByZero, BadShift, Unsupported };
inline NumberResult numberBinary(Opcode Op, int64_t X, int64_t Y, IntType T, IntType OT, int64_t &R) {
  switch (Op) {
  // Two's-complement wrap-around in 64 bits (the caller wraps to T): done
  // in unsigned arithmetic, where it is defined.
  case Opcode::Add: R = int64_t(uint64_t(X) + uint64_t(Y)); return NumberResult::Ok;
  case Opcode::Sub: R = int64_t(uint64_t(X) - uint64_t(Y)); return NumberResult::Ok;
  case Opcode::Mul: R = int64_t(uint64_t(X) * uint64_t(Y)); return NumberResult::Ok;
  case Opcode::Shl:
    if (Y < 0 || Y >= int64_t(T.Bits))
      return NumberResult::BadShift;
    R = int64_t(uint64_t(X) << Y);
    return NumberResult::Ok;
  case Opcode::Div:
  case Opcode::Rem:
    if (Y == 0)
      return NumberResult::DivisionByZero;
    if (T.Signed && X == INT64_MIN && Y == -1)
      R = Op == Opcode::Div ? X : 0; // wraps, as the hardware does
    else if (T.Signed)
      R = Op == Opcode::Div ? X / Y : X % Y;
    else
      R = int64_t(Op == Opcode::Div ? uint64_t(X) / uint64_t(Y) : uint64_t(X) % uint64_t(Y));
    return NumberResult::Ok;
  case Opcode::Shr:
    if (Y < 0 || Y >= int64_t(T.Bits))
      return NumberResult::BadShift;
    R = T.Signed ? X >> Y : int64_t(uint64_t(wrapToType(X, T)) >> Y);
    return NumberResult::Ok;
  case Opcode::And: R = X & Y; return NumberResult::Ok;
  case Opcode::Or: R = X | Y; return NumberResult::Ok;
  case Opcode::Xor: R = X ^ Y; return NumberResult::Ok;
  case Opcode::Min: R = lessThan(X, Y, T) ? X : Y; return NumberResult::Ok;
  case Opcode::Max: R = lessThan(X, Y, T) ? Y : X; return NumberResult::Ok;
  case Opcode::LT: R = lessThan(X, Y, OT); return NumberResult::Ok;
  case Opcode::LE: R = !lessThan(Y, X, OT); return NumberResult::Ok;
  case Opcode::GT: R = lessThan(Y, X, OT); return NumberResult::Ok;
  case Opcode::GE: R = !lessThan(X, Y, OT); return NumberResult::Ok;
  case Opcode::EQ: R = X == Y; return NumberResult::Ok;
  case Opcode::NE: R = X != Y; return NumberResult::Ok;
  case Opcode::LAnd: R = X && Y; return NumberResult::Ok;
  case Opcode::LOr: R = X || Y; return NumberResult::Ok;
  default: return NumberResult::Unsupported;
  }
}

} // namespace cbl

#endif
