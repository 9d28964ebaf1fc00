//===- HostFunction.h - A pure integer function of the host program -------===//
//
// Host code often computes a launch argument with a small helper of its own:
//
//   int log2(int n) { int res = 0; while (n > 1) { n >>= 1; res++; } return res; }
//   int iterations = log2(system_size / 2);
//   k<<<grid, system_size / 2>>>(..., iterations);
//
// The front end compiles such a function (integer parameters and locals,
// assignments, if, loops, return; no memory, no calls but to other such
// functions) into this small program over numbered slots, independent of
// Clang, and the access model calls it (an ExprKind::Call node) once its
// arguments are known: here iterations = log2(blockDim.x) at every block
// width the analysis considers. A run is bounded: it gives no value when
// it takes more than MaxSteps steps, reads a local never assigned, or
// divides by zero.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_ACCESSMODEL_HOSTFUNCTION_H
#define CUDA_BANK_LINT_ACCESSMODEL_HOSTFUNCTION_H

#include "cuda-bank-lint/AccessModel/SymExpr.h"

#include <map>
#include <mutex>
#include <optional>

namespace cbl {

struct HostFunction {
  enum class StmtKind { Assign, If, Loop, Return, Break, Continue };
  struct Stmt {
    StmtKind Kind = StmtKind::Assign;
    unsigned Slot = 0;      ///< Assign: the local assigned
    SymRef Value;           ///< Assign, Return: the value; If, Loop: the condition (null: true)
    std::vector<Stmt> Body; ///< If: the then branch; Loop: the body
    std::vector<Stmt> Else; ///< If: the else branch; Loop: the step (a for's increment)
    bool TestFirst = true;  ///< Loop: while and for (true), do-while (false)
  };

  /// Steps (statements and expression nodes evaluated) one call may take.
  static constexpr unsigned MaxSteps = 200000;

  std::string Name;
  IntType Result;
  unsigned Params = 0;            ///< slots 0 .. Params-1 are the parameters
  std::vector<IntType> SlotTypes; ///< every local's type, parameters first
  std::vector<Stmt> Body;

  /// The leaf that reads slot I in the function's expressions.
  static SymRef slot(unsigned I, IntType T);

  /// The function's value for Args (one per parameter, converted to its
  /// type); nullopt when the run gives none (see above). Memoised.
  std::optional<int64_t> call(const std::vector<int64_t> &Args) const;

private:
  mutable std::mutex CacheMutex;
  mutable std::map<std::vector<int64_t>, std::optional<int64_t>> Cache;
};

} // namespace cbl

#endif
