//===- NvccUnrolling.cpp - Which loops are unrolled, as nvcc unrolls them --===//
//
// The model runs a loop as a counter over its iterations, so loops keep
// their source form: no run-time unrolling (a main loop stepping by several
// iterations and a remainder loop counting a per-lane trip count, which the
// model cannot run), and a `#pragma unroll N` loop with a run-time trip
// count is kept whole; only constant trip counts are unrolled, as far as
// NVVM unrolls them (the threshold, DeviceLowering.cpp; the nests it keeps,
// KeepRuntimeLoops below).
//
// One exception, because it changes the instructions nvcc issues: NVVM
// unrolls a small loop whose trip count is a run-time value by 4 (epilogue
// remainder), and ptxas merges the main loop's four loads (or stores) of
// consecutive words at an address the whole warp shares into one LDS.128
// (STS.128) when the first is 16-byte aligned (utils/oracles/loop-merges.cu,
// test/data/h100-loop-merges.csv: `if (tid == 0) for (i = 0; i < n; i++) v +=
// s[i];`, a warp-uniform loop, a single lane's stores). Such a loop is
// unrolled by 4 here too, the merge step (NvccMerges.cpp) makes the wide
// accesses. The remainder stays a loop, as in nvcc's SASS (its loads are not
// merged); it starts where the main loop stopped, so the model costs it per
// iteration without counting its iterations (JSON `block_iterations` 0). Per-lane rows (`s[tid * 64 + i]`) are left alone:
// nvcc makes LDS.64 of those, or nothing.
//
//===----------------------------------------------------------------------===//
#include "DeviceLowering.h"

#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

namespace cbl {

namespace {

constexpr const char *RuntimeDisable = "llvm.loop.unroll.runtime.disable";
constexpr const char *UnrollDisable = "llvm.loop.unroll.disable";
constexpr const char *UnrollCount = "llvm.loop.unroll.count";
/// Marks a loop unrolled as nvcc does (KeepRuntimeLoops leaves it be).
constexpr const char *AsNvcc = "cbl.loop.unroll.as_nvcc";
constexpr unsigned NvccRuntimeCount = 4;
/// Instructions of the loop body NVVM still unrolls by 4 (LLVM's NVPTX
/// partial-unroll threshold, 75, over the count).
constexpr unsigned MaxUnrolledBody = 18;

/// L's loop metadata with the attributes Drop removed and Add appended
/// (an attribute is an MDString, or a node whose first operand is one).
void setLoopAttributes(llvm::Loop &L, llvm::ArrayRef<llvm::StringRef> Drop,
                       llvm::ArrayRef<llvm::Metadata *> Add) {
  llvm::LLVMContext &C = L.getHeader()->getContext();
  llvm::SmallVector<llvm::Metadata *, 8> Ops{nullptr};
  if (llvm::MDNode *Old = L.getLoopID())
    for (unsigned I = 1; I < Old->getNumOperands(); ++I) {
      llvm::Metadata *Op = Old->getOperand(I);
      const llvm::MDString *Name = llvm::dyn_cast_or_null<llvm::MDString>(Op);
      if (auto *N = llvm::dyn_cast_or_null<llvm::MDNode>(Op); N && N->getNumOperands())
        Name = llvm::dyn_cast_or_null<llvm::MDString>(N->getOperand(0));
      if (!Name || !llvm::is_contained(Drop, Name->getString()))
        Ops.push_back(Op);
    }
  Ops.append(Add.begin(), Add.end());
  llvm::MDNode *ID = llvm::MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  L.setLoopID(ID);
}

/// Adds the attribute Name (no value: "llvm.loop.unroll.disable" with a
/// value 0 would read as false) to L's loop metadata.
void addLoopAttribute(llvm::Loop &L, llvm::StringRef Name) {
  setLoopAttributes(L, {}, {llvm::MDNode::get(L.getHeader()->getContext(),
                                              llvm::MDString::get(L.getHeader()->getContext(), Name))});
}

bool hasAttribute(const llvm::Loop &L, llvm::StringRef Name) {
  return L.getLoopID() && llvm::findOptionMDForLoopID(L.getLoopID(), Name);
}

/// `#pragma unroll N` on a loop whose trip count is known only at run time
/// (a block-stride loop): unrolled, it would become several exits per
/// iteration or a remainder loop counting a per-lane trip count, neither of
/// which the model can run. Such a loop is kept whole (the same accesses,
/// the same costs per line); a constant trip count is still unrolled as
/// asked. Runs just before the loop unroller of the simplification pipeline
/// (which also unrolls by a pragma's count).
///
/// A loop that still holds a loop with a trip count ScalarEvolution can
/// compute (one the outer loop's counter sets: a triangular nest) is not
/// unrolled either: NVVM unrolls such an inner loop at run time first and
/// keeps the outer loop whatever its trip count, where LLVM would unroll it
/// whole and forward stored values to loads nvcc issues
/// (utils/oracles/full-unroll.cu, tri_nest; HeCBench lud). Inner loops come
/// first here, so one unrolled whole leaves its outer loop innermost (a
/// constant nest is unrolled whole, as by NVVM), and an outer loop whose
/// inner trip count is not computable (a bitonic sort's `stride >>= 1`) is
/// unrolled whole, as by NVVM.
struct KeepRuntimeLoops : llvm::PassInfoMixin<KeepRuntimeLoops> {
  llvm::PreservedAnalyses run(llvm::Loop &L, llvm::LoopAnalysisManager &, llvm::LoopStandardAnalysisResults &AR,
                              llvm::LPMUpdater &) {
    auto Counted = [&](const llvm::Loop *Sub) {
      return Sub != &L && !llvm::isa<llvm::SCEVCouldNotCompute>(AR.SE.getBackedgeTakenCount(Sub));
    };
    if (!L.isInnermost() && !hasAttribute(L, UnrollDisable) &&
        llvm::any_of(L.getLoopsInPreorder(), Counted))
      addLoopAttribute(L, UnrollDisable);
    else if (L.getLoopID() && llvm::GetUnrollMetadata(L.getLoopID(), UnrollCount) && !hasAttribute(L, AsNvcc) &&
             !AR.SE.getSmallConstantTripCount(&L))
      addLoopAttribute(L, UnrollDisable);
    return llvm::PreservedAnalyses::all();
  }
};

/// A 4-byte shared access of L at an address every active lane shares,
/// one word further each iteration, from a 16-byte boundary of its
/// variable.
bool uniformConsecutive(const llvm::Instruction &I, const llvm::Loop &L, llvm::ScalarEvolution &SE,
                        const llvm::UniformityInfo &UI) {
  const llvm::Value *P = llvm::getLoadStorePointerOperand(&I);
  const llvm::Type *T = llvm::getLoadStoreType(const_cast<llvm::Instruction *>(&I));
  const llvm::GlobalVariable *G = P ? sharedVariableOf(P) : nullptr;
  if (!G || !T->isSized() || I.getModule()->getDataLayout().getTypeStoreSize(const_cast<llvm::Type *>(T)) != 4 ||
      !UI.isUniform(P))
    return false;
  auto *AR = llvm::dyn_cast<llvm::SCEVAddRecExpr>(SE.getSCEV(const_cast<llvm::Value *>(P)));
  if (!AR || AR->getLoop() != &L || !AR->isAffine())
    return false;
  auto *Step = llvm::dyn_cast<llvm::SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || Step->getAPInt() != 4)
    return false;
  const llvm::SCEV *Offset = SE.getMinusSCEV(AR->getStart(), SE.getPointerBase(AR->getStart()));
  return !llvm::isa<llvm::SCEVCouldNotCompute>(Offset) && SE.getMinTrailingZeros(Offset) >= 4;
}

/// A call that is arithmetic: an intrinsic that writes no memory and is not
/// convergent (blockDim, max, fma). Calls of libdevice (`__nv_fmaxf`, not
/// linked here) are convergent declarations, which LLVM does not unroll at
/// run time: such loops stay whole (nvcc, which links libdevice, unrolls
/// them).
bool arithmetic(const llvm::CallBase &C) {
  return llvm::isa<llvm::IntrinsicInst>(C) && !C.mayWriteToMemory() && !C.isConvergent();
}

/// Whether nvcc unrolls L by 4 with its consecutive uniform accesses merged
/// (the file comment): innermost, a run-time trip count the whole warp
/// shares, a small body, no barrier, call or volatile access, such an access
/// that the merge rules let merge across the copies of the body. Lanes
/// gives the uniformity of the function, asked for only when the loop's
/// form and body qualify.
bool unrolledByNvcc(llvm::Loop &L, llvm::ScalarEvolution &SE,
                    llvm::function_ref<const llvm::UniformityInfo &()> Lanes) {
  if (!L.isInnermost() || !L.getExitingBlock() || L.getExitingBlock() != L.getLoopLatch() ||
      SE.getSmallConstantTripCount(&L) || llvm::isa<llvm::SCEVCouldNotCompute>(SE.getBackedgeTakenCount(&L)))
    return false;
  auto *Br = llvm::dyn_cast<llvm::BranchInst>(L.getLoopLatch()->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  unsigned Size = 0, SharedLoads = 0, SharedStores = 0;
  std::vector<const llvm::Instruction *> Shared;
  for (llvm::BasicBlock *B : L.blocks())
    for (llvm::Instruction &I : *B) {
      if (llvm::isa<llvm::PHINode>(I) || I.isTerminator() || I.isDebugOrPseudoInst())
        continue;
      if (const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I); Call && !arithmetic(*Call))
        return false;
      if (++Size > MaxUnrolledBody || I.isVolatile())
        return false;
      const llvm::Value *P = llvm::getLoadStorePointerOperand(&I);
      if (!P || !sharedVariableOf(P))
        continue;
      ++(llvm::isa<llvm::LoadInst>(I) ? SharedLoads : SharedStores);
      Shared.push_back(&I);
    }
  // What stands between the copies of the unrolled body keeps them apart
  // (as between any two accesses): a shared store between loads, any other
  // shared access between stores. Unrolled without a merge, the loop would
  // only lose the model its trip count.
  bool LoadsMerge = SharedLoads && !SharedStores, StoreMerges = SharedStores == 1 && !SharedLoads;
  if (!LoadsMerge && !StoreMerges)
    return false;
  const llvm::UniformityInfo &UI = Lanes();
  return UI.isUniform(Br->getCondition()) &&
         llvm::any_of(Shared, [&](const llvm::Instruction *I) { return uniformConsecutive(*I, L, SE, UI); });
}

/// Marks the loops nvcc unrolls by 4 (the file comment) for LoopUnrollPass:
/// the count, run-time unrolling allowed. Runs after the simplification
/// pipeline's loop passes, before the optimisation pipeline's unroller.
struct UnrollAsNvcc : llvm::PassInfoMixin<UnrollAsNvcc> {
  const std::set<const llvm::Function *> &Kernels;
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM) {
    auto &LI = FAM.getResult<llvm::LoopAnalysis>(F);
    if (LI.empty())
      return llvm::PreservedAnalyses::all();
    auto &SE = FAM.getResult<llvm::ScalarEvolutionAnalysis>(F);
    // Uniform among the lanes of a warp by the tool's own sources of
    // divergence (NVPTX's take every intrinsic call, blockDim too, as
    // divergent), computed for the first loop that needs it.
    llvm::FunctionAnalysisManager Lanes;
    Lanes.registerPass([&] {
      return llvm::TargetIRAnalysis([&](const llvm::Function &Fn) { return divergenceTTI(Fn, Kernels); });
    });
    Lanes.registerPass([] { return llvm::DominatorTreeAnalysis(); });
    Lanes.registerPass([] { return llvm::CycleAnalysis(); });
    Lanes.registerPass([] { return llvm::UniformityInfoAnalysis(); });
    Lanes.registerPass([] { return llvm::PassInstrumentationAnalysis(); });
    auto UI = [&]() -> const llvm::UniformityInfo & { return Lanes.getResult<llvm::UniformityInfoAnalysis>(F); };
    llvm::LLVMContext &C = F.getContext();
    for (llvm::Loop *L : LI.getLoopsInPreorder())
      if (!hasAttribute(*L, AsNvcc) && unrolledByNvcc(*L, SE, UI)) {
        llvm::Metadata *Count[] = {
            llvm::MDString::get(C, UnrollCount),
            llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(C), NvccRuntimeCount))};
        setLoopAttributes(*L, {RuntimeDisable, UnrollCount},
                          {llvm::MDNode::get(C, Count), llvm::MDNode::get(C, llvm::MDString::get(C, AsNvcc))});
      }
    return llvm::PreservedAnalyses::all();
  }
};

} // namespace

void keepLoops(llvm::Module &M) {
  for (llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    llvm::DominatorTree DT(F);
    llvm::LoopInfo LI(DT);
    for (llvm::Loop *L : LI.getLoopsInPreorder())
      addLoopAttribute(*L, RuntimeDisable);
  }
}

void registerLoopPolicy(llvm::PassBuilder &PB, const std::set<const llvm::Function *> &Kernels) {
  PB.registerLateLoopOptimizationsEPCallback(
      [](llvm::LoopPassManager &LPM, llvm::OptimizationLevel) { LPM.addPass(KeepRuntimeLoops()); });
  PB.registerScalarOptimizerLateEPCallback([&Kernels](llvm::FunctionPassManager &FPM, llvm::OptimizationLevel) {
    FPM.addPass(UnrollAsNvcc{{}, Kernels});
  });
}

} // namespace cbl
