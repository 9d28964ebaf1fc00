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

#include "DeviceReuse.h"
#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/PassManager.h"
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

/// One module of a unit's device code, in a context of its own: a group of
/// roots and what they reach, optimised on its own (DeviceParts.cpp).
struct LoweredPart {
  std::unique_ptr<llvm::LLVMContext> Context;
  std::unique_ptr<llvm::Module> Module;
  /// The IR function of each root of the part that was lowered and that no
  /// other function calls (kept whole through the optimiser).
  llvm::DenseMap<const clang::FunctionDecl *, llvm::Function *> Functions;
  /// The shared variables the AST knows, by their IR global.
  llvm::DenseMap<const llvm::GlobalVariable *, const clang::VarDecl *> SharedVars;
  /// The IR functions of the kernels among them.
  std::set<const llvm::Function *> Kernels;
  /// The merged shared accesses (NvccMerges.cpp).
  MergedAccesses Merged;
};

struct LoweredDevice {
  /// The optimised device code: one part, or several where the module is
  /// large (each root in exactly one).
  std::vector<LoweredPart> Parts;
  /// Roots that another lowered function calls (before inlining): their
  /// accesses are analysed inside their callers.
  llvm::DenseSet<const clang::FunctionDecl *> Called;
  /// Roots not lowered because their code (or a callee's) holds what Sema
  /// rejected: why.
  std::vector<NotLoweredRoot> Unsafe;
  /// Device functions no kernel of the unit runs: template instances that no
  /// code Clang generates uses (every call of them is in code it leaves out,
  /// such as what follows a return under a constant condition). nvcc
  /// compiles no code for them; they are not optimised or analysed.
  std::vector<const clang::FunctionDecl *> NeverRun;
  /// Roots whose code (with every function it may call) names no shared
  /// variable and holds no barrier: nothing in them can be an access or a
  /// barrier, so they are not optimised or analysed.
  llvm::DenseSet<const clang::FunctionDecl *> NothingShared;
  /// Set when nothing could be lowered: why.
  std::string Error;
  /// Errors the code generator raised (message; none expected).
  std::vector<std::string> CodeGenErrors;
  /// The language server: the roots whose models were kept (not in Parts),
  /// and the keys of the others.
  ReuseOutcome Reused;
};

/// How the device code is optimised: ModelOptions' part of it (which has
/// the defaults).
struct LoweringOptions {
  unsigned Threads;          ///< for LLVM's pipeline on a large unit
  unsigned PartInstructions; ///< the least a part holds (optimiseInParts)
  unsigned MaxParts;         ///< the most parts
  std::string DumpTo;        ///< a file the optimised IR is appended to
  /// The language server: the memo of the document's models (null: none)
  /// and, set by buildDeviceModels, what the roots' keys take from the AST.
  DeviceModelMemo *Memo = nullptr;
  const ReuseContext *Reuse = nullptr;
};

/// The defined functions each defined function of M names through the
/// operands of its instructions (calls, and functions whose address it
/// takes): one pass over the module for all roots (NamedFunctions:
/// DeviceReuse.h).
NamedFunctions namedFunctions(const llvm::Module &M);
/// The defined functions F reaches, F included.
std::vector<const llvm::Function *> reachOf(const llvm::Function &F, const NamedFunctions &Named);
/// Removes the functions and variables nothing uses any more (GlobalDCE;
/// roots left as declarations): the pipeline would simplify them first.
void dropUnused(llvm::Module &M);

/// LLVM's four analysis managers, registered with a PassBuilder's analyses
/// and proxied to one another: the one set-up of the pipelines and analyses
/// run on device code. An analysis registered on FAM before (a TTI, an AA)
/// stays in place of the PassBuilder's.
struct AnalysisManagers {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  void registerWith(llvm::PassBuilder &PB);
};

/// A context for device code: value names kept (the analysis spells values
/// by them), the optimiser's remarks not shown.
std::unique_ptr<llvm::LLVMContext> deviceContext();
/// LLVM's -O3 pipeline for the NVPTX target on M, then nvcc's merges into
/// Merged. Kernels: M's kernels. Empty, or why it could not run.
std::string optimise(llvm::Module &M, const clang::TargetOptions &Target,
                     const std::set<const llvm::Function *> &Kernels, MergedAccesses &Merged);
/// Optimises Whole (its Module and maps set, not yet optimised): as one
/// module, or, where its roots reach Opts.PartInstructions instructions or
/// more for each of two groups, as up to Opts.MaxParts groups of its roots
/// balanced by the code
/// each reaches, each group a module of its own (the other groups' roots
/// left as declarations) in a context of its own, on up to Opts.Threads
/// threads. The groups depend on the module only, never on the threads:
/// every thread count gives the same IR. Error: why nothing was optimised.
/// With Opts.Reuse, the clusters of roots the memo holds are left out first
/// (keepModels; their models in Reused), and only the groups with roots left
/// are optimised (none: no part, no error).
std::vector<LoweredPart> optimiseInParts(LoweredPart Whole, const clang::TargetOptions &Target,
                                         const LoweringOptions &Opts, std::string &Error,
                                         ReuseOutcome *Reused = nullptr);

/// Lowers Roots (device function definitions without errors) and optimises
/// the module (optimiseInParts). Shared lists the __shared__ variables to
/// map to IR globals. Opts.DumpTo, when set, is a file the optimised modules
/// are appended to (--debug-dump-device-ir).
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

/// A variable of internal linkage that some code writes stays one whose
/// value is not known, also where the code that writes it is left out of
/// the module (GlobalOpt and IPSCCP would take it for its initialiser).
void keepWrittenVariables(llvm::Module &M);

LoweredDevice lowerDevice(clang::CompilerInstance &CI, clang::ASTContext &Ctx,
                          const std::vector<const clang::FunctionDecl *> &Roots,
                          const std::vector<const clang::VarDecl *> &Shared,
                          const LoweringOptions &Opts);

} // namespace cbl

#endif
