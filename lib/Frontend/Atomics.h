//===- Atomics.h - What a shared-memory atomic compiles to (private) ------===//
//
// Maps an atomic as written (a CUDA function such as atomicAdd, a compiler
// builtin such as __nv_atomic_fetch_add or __atomic_compare_exchange_n, or an
// inline-PTX atom/red.shared opcode) and its value type to the instruction
// class the bank model has a measured rule for (BankModel.h, AtomicRule), or
// to the reason it has none.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_ATOMICS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_ATOMICS_H

#include "cuda-bank-lint/BankModel/BankModel.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace cbl {

/// The operation of an atomic, whatever its spelling.
enum class AtomicOp { Add, Sub, Exch, Min, Max, Inc, Dec, Cas, And, Or, Xor, Load, Store, Other };

/// The kind of value an atomic works on.
enum class AtomicValue { Integer, Float, PackedHalf, Other };

struct AtomicInstruction {
  AccessOp Op = AccessOp::Atomic; ///< Load/Store for atomic loads and stores
  AtomicRule Rule = AtomicRule::Native;
  unsigned Width = 4;
  /// Set when there is no measured rule for this operation and width: why.
  std::string Unmodelled;
};

/// The operation a CUDA atomic function or compiler builtin names (atomicAdd,
/// atomicCAS_block, __nv_atomic_fetch_add, __atomic_compare_exchange_n, ...);
/// std::nullopt when Name is not an atomic.
std::optional<AtomicOp> atomicOpOfName(llvm::StringRef Name);

/// The operation, value kind and width of an inline-PTX atom/red opcode on
/// shared memory ("atom.shared.add.u32", "red.shared::cta.add.f32",
/// "atom.shared.cas.b64"); std::nullopt when it is not one.
struct PtxAtomic {
  AtomicOp Op;
  AtomicValue Value;
  unsigned Width;
};
std::optional<PtxAtomic> ptxAtomic(llvm::StringRef Opcode);

/// The instruction an atomic compiles to for sm_70+.
AtomicInstruction classifyAtomic(AtomicOp Op, AtomicValue Value, unsigned Width,
                                 llvm::StringRef Spelling);

/// The same for the generic-address atom libcu++ issues (cuda::atomic_ref):
/// measured (fetch_add on int) to cost what the native ATOMS does; other
/// value types and CAS were not measured.
AtomicInstruction classifyGenericAtomic(AtomicOp Op, AtomicValue Value, unsigned Width,
                                        llvm::StringRef Spelling);

} // namespace cbl

#endif
