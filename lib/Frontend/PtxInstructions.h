//===- PtxInstructions.h - Shared-memory instructions of inline PTX (private) ===//
//
// What an inline-PTX string does to shared memory, from its text: which
// instruction (atom/red, ldmatrix/stmatrix, cp.async, ld/st.shared), the
// bytes per lane of an ld/st, the lanes that give ldmatrix row addresses,
// and why a copy is not costed. IRSites reads inline assembly through these.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_PTXINSTRUCTIONS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_PTXINSTRUCTIONS_H

#include "cuda-bank-lint/BankModel/BankModel.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cbl {

struct PtxClass {
  const char *Opcode;
  AccessOp Op;
};
/// The shared-memory instruction of an inline-PTX string, most specific first.
std::optional<PtxClass> ptxClass(llvm::StringRef Text);

/// The full opcode at the first occurrence of Prefix ("ldmatrix.sync.aligned.m8n8.x4.shared.b16").
std::string opcodeAt(llvm::StringRef Text, llvm::StringRef Prefix);

/// ldmatrix / stmatrix m8n8 .b16: the lanes that give row addresses.
std::optional<uint32_t> matrixAddressLanes(llvm::StringRef Opcode);

/// The bytes per lane of an inline-PTX ld/st on shared memory.
std::optional<unsigned> sharedLoadStoreWidth(llvm::StringRef Opcode);

/// Whether the text is a block barrier: bar.sync / barrier.sync with no
/// thread count (bar.sync 0;), which every thread of the block must reach.
bool isBlockBarrierPtx(llvm::StringRef Text);

/// Why a cp.async / cp.async.bulk is recorded but not costed (measured).
std::string copyReason(llvm::StringRef Opcode);

} // namespace cbl

#endif
