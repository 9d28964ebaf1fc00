//===- DeviceLowering.h - Clang's device code generation, optimised (private) ===//
//
// Lowers the device functions the analysis starts from (kernels, and device
// functions no kernel calls) to LLVM IR with Clang's own code generator, on
// the AST the front end already built, then runs LLVM's -O3 pipeline for
// the NVPTX target on it, as `clang -O3 --cuda-device-only` would, with line
// tables (the same attribution Nsight Compute uses). Every call is inlined
// into its root (nvcc inlines device functions; the analysis wants the
// kernel's context), and loops are not unrolled at run time (only loops whose
// trip count is a constant are unrolled, and those nvcc unrolls by 4 for the
// wide accesses ptxas makes of them: NvccUnrolling.cpp), so the IR keeps the
// source's loops.
//
// The code generator gets its own diagnostics: errors elsewhere in the file
// (host code, kernels left out) do not stop it; errors it raises itself are
// returned with the function they concern.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_DEVICELOWERING_H
#define CUDA_BANK_LINT_LIB_FRONTEND_DEVICELOWERING_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"

namespace llvm {
class PassBuilder;
class TargetMachine;
class TargetTransformInfo;
}

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cbl {

/// An access merged into a wider one: where it was, its byte offset in it.
struct MergedPart {
  const llvm::DILocation *At;
  uint64_t Offset;
};
/// For each merged instruction, the accesses merged into it, in program order.
using MergedAccesses = llvm::DenseMap<const llvm::Instruction *, std::vector<MergedPart>>;

/// A root the code generator is not handed, and why.
struct NotLoweredRoot {
  const clang::FunctionDecl *Decl = nullptr;
  std::string Why;              ///< a sentence: "it uses an expression Clang rejects"
  clang::SourceLocation Where;  ///< what stopped it; invalid: the root itself
  SkippedFunction::Cause Cause = SkippedFunction::Cause::Tool;
};

struct LoweredDevice {
  std::unique_ptr<llvm::LLVMContext> Context;
  std::unique_ptr<llvm::Module> Module;
  /// The IR function of each root that was lowered and that no other
  /// function calls (kept whole through the optimiser).
  llvm::DenseMap<const clang::FunctionDecl *, llvm::Function *> Functions;
  /// Roots that another lowered function calls (before inlining): their
  /// accesses are analysed inside their callers.
  llvm::DenseSet<const clang::FunctionDecl *> Called;
  /// The shared variables the AST knows, by their IR global.
  llvm::DenseMap<const llvm::GlobalVariable *, const clang::VarDecl *> SharedVars;
  /// Roots not lowered because their code (or a callee's) holds what Sema
  /// rejected: why.
  std::vector<NotLoweredRoot> Unsafe;
  /// Set when nothing could be lowered: why.
  std::string Error;
  /// The IR functions of the kernels among them.
  std::set<const llvm::Function *> Kernels;
  /// The merged shared accesses (NvccMerges.cpp).
  MergedAccesses Merged;
  /// Errors the code generator raised (message; none expected).
  std::vector<std::string> CodeGenErrors;
};

/// Lowers Roots (device function definitions without errors) and optimises
/// the module. Shared lists the __shared__ variables to map to IR globals.
/// DumpTo, when set, is a file the optimised module is appended to
/// (--debug-dump-device-ir).
/// Loops keep their source form (NvccUnrolling.cpp): marks every loop of M
/// not to be unrolled at run time, before the pipeline.
void keepLoops(llvm::Module &M);
/// The pipeline's part of that policy, and the loops nvcc does unroll at
/// run time (by 4, for the wide accesses ptxas makes of them). Kernels: the
/// kernels among M's functions (their parameters are uniform).
void registerLoopPolicy(llvm::PassBuilder &PB, const std::set<const llvm::Function *> &Kernels);
/// The shared variable Ptr points into (through address-space casts and
/// offsets: shared pointers are still generic during the pipeline), or null.
inline const llvm::GlobalVariable *sharedVariableOf(const llvm::Value *Ptr) {
  auto *G = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(Ptr));
  return G && G->getAddressSpace() == 3 ? G : nullptr;
}
/// The sources of divergence of a CUDA thread, as a TTI for LLVM's
/// UniformityAnalysis (DeviceModel.cpp): the one home of what varies
/// between the lanes of a warp.
llvm::TargetTransformInfo divergenceTTI(const llvm::Function &F, const std::set<const llvm::Function *> &Kernels);

/// Merges adjacent shared accesses of a thread into the wider ones nvcc's
/// ptxas makes of them (NvccMerges.cpp, measured on an H100).
MergedAccesses mergeAsNvcc(llvm::Module &M, llvm::TargetMachine &TM,
                           const std::set<const llvm::Function *> &Kernels);

LoweredDevice lowerDevice(clang::CompilerInstance &CI, clang::ASTContext &Ctx,
                          const std::vector<const clang::FunctionDecl *> &Roots,
                          const std::vector<const clang::VarDecl *> &Shared,
                          const std::string &DumpTo = "");

} // namespace cbl

#endif
