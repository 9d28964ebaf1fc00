//===- SharedPlacement.h - where ptxas places shared variables (private) --===//
//
// ptxas, not the PTX, decides where each static shared variable lies, and so
// which accesses it can prove aligned and adjacent (measured on nvcc 13.0's
// SASS: utils/oracles/merges.cu, docs/bank-model.md): in PTX declaration
// order (namespace-scope variables first, then each function's in
// declaration order), each at its natural alignment, from offset 0; dynamic
// (`extern`) shared memory after them, 16-byte aligned.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_SHAREDPLACEMENT_H
#define CUDA_BANK_LINT_LIB_FRONTEND_SHAREDPLACEMENT_H

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"

#include <map>
#include <utility>
#include <vector>

namespace cbl {

/// The widest access ptxas makes, and the alignment that needs.
constexpr uint64_t MaxMergedBytes = 16;

/// A shared variable's alignment as declared and where ptxas places it (the
/// smallest over the functions that use it).
struct Alignments {
  llvm::MaybeAlign Original; ///< Clang's, restored afterwards
  uint64_t Declared;         ///< in nvcc's PTX: dynamic shared memory is .align 16
  uint64_t Placed = MaxMergedBytes;
};

/// A function's static shared variables, each at its offset, in order.
using SharedLayout = std::vector<std::pair<llvm::GlobalVariable *, uint64_t>>;

struct SharedPlacement {
  std::map<llvm::GlobalVariable *, Alignments> Alignment;
  /// Per function, the static shared variables it uses directly.
  std::map<llvm::Function *, SharedLayout> Layouts;
};

SharedPlacement placeShared(llvm::Module &M);

/// A function's static shared variables read as the one block of memory
/// ptxas makes of them, while it lives: each load and store of one of them
/// at a constant address becomes one at an offset into a single shared
/// array, so that LLVM's vectoriser sees accesses to neighbouring variables
/// as adjacent (ptxas merges `x = a; y = b;` of two floats it placed side by
/// side into one STS.64, and their loads into one LDS.64: HeCBench adamw on
/// an H100, utils/oracles/merges.cu, scalar_pair_store and the kernels after
/// it, on an H200). undo() puts every access back, the merged ones too (at
/// an offset into the variable they start in).
class SideBySide {
public:
  SideBySide(llvm::Function &F, const SharedLayout &Layout);
  SideBySide(const SideBySide &) = delete;
  SideBySide &operator=(const SideBySide &) = delete;
  ~SideBySide() { undo(); }
  void undo();
  /// Whether I (before undo) reaches from one variable into the next.
  bool spansVariables(const llvm::Instruction &I) const;

private:
  struct Rewritten {
    llvm::WeakVH User;
    unsigned Operand;
    llvm::Constant *Was, *Now;
  };
  /// The first variable of the layout that starts after byte At.
  SharedLayout::const_iterator firstAfter(uint64_t At) const;
  /// The variable holding byte At of the block, and At's offset in it.
  llvm::Constant *variableAt(uint64_t At) const;

  llvm::Function &F;
  SharedLayout Layout;
  llvm::GlobalVariable *Block = nullptr;
  std::vector<Rewritten> Uses;
};

} // namespace cbl

#endif
