//===- IslConditions.h - Conflict conditions over parameters, with isl ----===//
//
// For an access whose per-lane word address is linear in warp-uniform
// unknowns (w(l) = c_l + sum_p a_{l,p} * p, e.g. s[ty * pitch + tx * stride]),
// two active lanes conflict exactly when their words differ and are equal
// modulo 32. For each pair of lanes that is a Presburger condition on the
// parameters; their union is the set of parameter values with a conflict.
// isl decides whether it is empty (conflict-free for all values) and
// simplifies it for the message. Bounded by the context's operations budget.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_ISLCONDITIONS_H
#define CUDA_BANK_LINT_SYMBOLIC_ISLCONDITIONS_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// A lane's word address: C + sum of coefficient * parameter.
struct LinearWord {
  int64_t C = 0;
  std::map<std::string, int64_t> Terms;
};

struct ParameterConflicts {
  bool ConflictFree = false;   ///< no parameter value gives a conflict
  std::string Condition;       ///< isl's simplified set of values with a conflict
};

/// Lanes: the active lanes' words, one vector per warp. std::nullopt when isl
/// fails or exceeds its budget.
std::optional<ParameterConflicts>
conflictingParameters(const std::vector<std::vector<LinearWord>> &Warps, unsigned Banks = 32);

} // namespace cbl

#endif
