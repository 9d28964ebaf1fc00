//===- DeviceModel.cpp - Access models from the optimised device IR -------===//
#include "DeviceModel.h"
#include "CompileErrors.h"
#include "DeviceLowering.h"
#include "IRLocations.h"
#include "IRTranslator.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Passes/PassBuilder.h"

#include <set>

using namespace llvm;

namespace cbl {

namespace {

/// The sources of divergence of a CUDA thread, for UniformityAnalysis:
/// what NVPTX's target says (threadIdx, the lane id, atomics, calls, a
/// device function's parameters), except that a load is divergent only when
/// its address is (every lane that reads one address gets one value) or it
/// reads a thread's own local memory.
class DivergenceTTIImpl : public TargetTransformInfoImplCRTPBase<DivergenceTTIImpl> {
  using Base = TargetTransformInfoImplCRTPBase<DivergenceTTIImpl>;
  const std::set<const Function *> *Kernels;

public:
  DivergenceTTIImpl(const Function &F, const std::set<const Function *> *Kernels)
      : Base(F.getParent()->getDataLayout()), Kernels(Kernels) {}
  bool hasBranchDivergence(const Function * = nullptr) const { return true; }
  /// A block reduction of a barrier (__syncthreads_or/and/count): every
  /// thread of the block gets the same result, whatever its operand.
  bool isAlwaysUniform(const Value *V) const {
    if (const auto *II = dyn_cast<IntrinsicInst>(V))
      return II->getIntrinsicID() == Intrinsic::nvvm_barrier0_and ||
             II->getIntrinsicID() == Intrinsic::nvvm_barrier0_or ||
             II->getIntrinsicID() == Intrinsic::nvvm_barrier0_popc;
    if (const auto *C = dyn_cast<CallBase>(V); C && C->isInlineAsm())
      return cast<InlineAsm>(C->getCalledOperand())->getAsmString().find("bar.red.") != std::string::npos;
    return false;
  }
  bool isSourceOfDivergence(const Value *V) const {
    if (const auto *Arg = dyn_cast<Argument>(V))
      return !Kernels->count(Arg->getParent());
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return false;
    if (const auto *L = dyn_cast<LoadInst>(I))
      return isa<AllocaInst>(getUnderlyingObject(L->getPointerOperand()));
    if (I->isAtomic())
      return true;
    const auto *C = dyn_cast<CallBase>(I);
    if (!C)
      return false;
    if (C->isInlineAsm()) {
      // PTX that reads a thread's own registers or races with other lanes;
      // other asm (ld.acquire at one address, cvta) is as uniform as its inputs.
      StringRef Text = cast<InlineAsm>(C->getCalledOperand())->getAsmString();
      return !C->getType()->isVoidTy() && !Text.contains("bar.red.") &&
             llvm::any_of(std::initializer_list<StringRef>{"%tid", "%laneid", "%lanemask", "%warpid", "%clock",
                                                           "%smid", "atom.", "red.", "shfl", "match.", "vote.",
                                                           "activemask", "ldmatrix", "mma", "ld.local", "ld.param"},
                          [&](StringRef Needle) { return Text.contains(Needle); });
    }
    const auto *II = dyn_cast<IntrinsicInst>(C);
    // libdevice (__nv_umulhi, __nv_expf, ...): a function of its operands.
    if (const Function *Callee = C->getCalledFunction(); !II && Callee && Callee->getName().starts_with("__nv_"))
      return false;
    if (!II)
      return !C->getType()->isVoidTy() && !C->doesNotAccessMemory();
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    case Intrinsic::nvvm_read_ptx_sreg_laneid:
    case Intrinsic::nvvm_read_ptx_sreg_clock:
    case Intrinsic::nvvm_read_ptx_sreg_clock64:
      return true;
    default:
      break;
    }
    // Intrinsics that give each lane its own value: shuffles, matrix
    // fragments, NVVM atomics.
    StringRef Name = Intrinsic::getBaseName(II->getIntrinsicID());
    return Name.contains(".shfl.") || Name.contains(".ldmatrix.") || Name.contains(".wmma.") ||
           Name.contains(".atomic.") || Name.contains(".match.") || Name.contains(".lanemask");
  }
};

} // namespace

TargetTransformInfo divergenceTTI(const Function &F, const std::set<const Function *> &Kernels) {
  return TargetTransformInfo(DivergenceTTIImpl(F, &Kernels));
}

namespace {

/// The analyses of one part's functions, with CUDA's sources of divergence.
struct Analyses : AnalysisManagers {
  explicit Analyses(const std::set<const Function *> &Kernels) {
    FAM.registerPass([&Kernels] {
      return TargetIRAnalysis([&Kernels](const Function &F) { return divergenceTTI(F, Kernels); });
    });
    PassBuilder PB;
    registerWith(PB);
  }
};

/// The files of the unit by path, each looked up once.
class UnitFiles {
public:
  explicit UnitFiles(const clang::SourceManager &SM) : SM(SM) {}
  clang::FileID get(llvm::StringRef Path) {
    auto [It, New] = Ids.try_emplace(Path);
    if (New)
      It->second = fileIdOf(SM, Path);
    return It->second;
  }

private:
  const clang::SourceManager &SM;
  llvm::StringMap<clang::FileID> Ids;
};

std::string nameOfFunction(const clang::FunctionDecl *FD) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, FD->getASTContext().getPrintingPolicy(), /*Qualified=*/true);
  return Name;
}

/// What the roots' keys take from the AST and the source text.
ReuseContext reuseContext(DeviceModelMemo &Memo, const clang::SourceManager &SM, UnitFiles &Files,
                          const std::vector<DeviceRoot> &Roots, const SharedArrayTable &Table,
                          const std::vector<std::string> &ToolkitDirs) {
  ReuseContext C;
  C.Memo = &Memo;
  C.Base = "toolkit " + llvm::join(ToolkitDirs, ":");
  std::map<const clang::FunctionDecl *, const DeviceRoot *> ByDecl;
  for (const DeviceRoot &R : Roots)
    ByDecl[R.Decl] = &R;
  C.RootInputs = [ByDecl](const clang::FunctionDecl *FD, llvm::raw_ostream &OS) {
    auto It = ByDecl.find(FD);
    if (It == ByDecl.end())
      return;
    for (const auto &[I, Fx] : It->second->Fixed) {
      const LaunchArgument &T = Fx.Text;
      OS << "argument " << I << ' ' << (Fx.Constant ? std::to_string(*Fx.Constant) : "-") << ' '
         << (Fx.BlockAxis ? std::to_string(*Fx.BlockAxis) : "-") << ' ' << (Fx.Value ? toString(Fx.Value) : "-")
         << " | " << T.Value << " | " << T.Spelling << " | " << T.Launches << '\n'; // where: keptModel
    }
  };
  C.ArrayId = [&Table](const clang::VarDecl *VD) { return Table.lookup(VD); };
  std::vector<std::string> Toolkit;
  for (const std::string &D : ToolkitDirs)
    Toolkit.push_back(withoutDots(D));
  C.SourceLines = [&SM, &Files, Toolkit](llvm::StringRef Path, unsigned First,
                                         unsigned Last) -> std::optional<llvm::StringRef> {
    // The toolkit's headers do not change, and no text of theirs is read.
    if (inToolkit(withoutDots(Path), Toolkit))
      return llvm::StringRef();
    clang::FileID ID = Files.get(Path);
    std::optional<llvm::StringRef> Text = ID.isValid() ? SM.getBufferDataOrNone(ID) : std::nullopt;
    if (!Text)
      return std::nullopt;
    // Past the last line, translateLineCol gives the file's end.
    unsigned B = SM.getFileOffset(SM.translateLineCol(ID, First, 1));
    unsigned E = SM.getFileOffset(SM.translateLineCol(ID, Last + 1, 1));
    return Text->slice(B, std::max(B, E));
  };
  return C;
}

/// A model kept from an earlier version of the text: its lines and columns
/// are the same (they are in its key), its byte offsets follow the text, and
/// its launch arguments are where the launches are now (IRTranslator takes
/// them from Fixed, in its order, with the parameter's name).
FunctionModel keptModel(FunctionModel M, const DeviceRoot &R, const clang::SourceManager &SM, UnitFiles &Files) {
  auto Fx = R.Fixed.begin();
  for (LaunchArgument &A : M.LaunchArguments) {
    std::string Param = std::move(A.Param);
    A = (Fx++)->second.Text;
    A.Param = std::move(Param);
  }
  forEachPosition(M, [&](SourcePos &P) {
    clang::FileID ID = P.valid() ? Files.get(P.File) : clang::FileID();
    if (ID.isValid())
      if (clang::SourceLocation L = SM.translateLineCol(ID, P.Line, P.Column); L.isValid())
        P.Offset = SM.getFileOffset(L);
  });
  return M;
}

} // namespace

namespace {

DeviceModels buildOnce(clang::CompilerInstance &CI, clang::ASTContext &Ctx, const std::vector<DeviceRoot> &Roots,
                       const std::vector<const clang::VarDecl *> &Shared, const SharedArrayTable &Table,
                       std::vector<SharedArray> &Arrays, const std::vector<std::string> &ToolkitDirs,
                       const LoweringOptions &Lowering) {
  DeviceModels Out;
  std::vector<const clang::FunctionDecl *> Decls;
  for (const DeviceRoot &R : Roots)
    Decls.push_back(R.Decl);
  const clang::SourceManager &SM = Ctx.getSourceManager();
  UnitFiles Files(SM);
  std::optional<ReuseContext> Reuse;
  LoweringOptions Opts = Lowering;
  if (Lowering.Memo)
    Opts.Reuse = &Reuse.emplace(reuseContext(*Lowering.Memo, SM, Files, Roots, Table, ToolkitDirs));
  LoweredDevice L = lowerDevice(CI, Ctx, Decls, Shared, Opts);
  Out.NotLowered = L.Unsafe;
  Out.NeverRun = L.NeverRun;
  if (L.Parts.empty() && L.Reused.Kept.empty()) {
    for (const DeviceRoot &R : Roots)
      Out.NotLowered.push_back({R.Decl, L.Error});
    return Out;
  }
  IRLocations Locs(Ctx.getSourceManager(), Ctx.getLangOpts(), ToolkitDirs);
  // Per part: its arrays (IR types are of its context) and analyses.
  llvm::StringMap<unsigned> Unlisted;
  std::vector<std::unique_ptr<IRArrays>> PartArrays;
  std::vector<std::unique_ptr<Analyses>> PartAnalyses;
  llvm::DenseMap<const clang::FunctionDecl *, size_t> PartOf;
  for (size_t P = 0; P < L.Parts.size(); ++P) {
    const LoweredPart &Part = L.Parts[P];
    PartArrays.push_back(std::make_unique<IRArrays>(Arrays, Locs, Unlisted));
    for (const auto &[G, VD] : Part.SharedVars)
      if (int Id = Table.lookup(VD); Id >= 0)
        PartArrays.back()->add(G, unsigned(Id));
    PartAnalyses.push_back(std::make_unique<Analyses>(Part.Kernels));
    for (const auto &[FD, F] : Part.Functions)
      PartOf[FD] = P;
  }
  for (const DeviceRoot &R : Roots) {
    if (L.Called.count(R.Decl) || llvm::is_contained(L.NeverRun, R.Decl) || L.NothingShared.count(R.Decl))
      continue; // analysed inside the functions that call it, never run, or nothing to analyse
    if (auto K = L.Reused.Kept.find(R.Decl); K != L.Reused.Kept.end()) {
      Out.Functions.push_back({R.Decl, keptModel(std::move(K->second), R, SM, Files)});
      continue;
    }
    auto In = PartOf.find(R.Decl);
    if (In == PartOf.end()) {
      if (llvm::none_of(L.Unsafe, [&](const NotLoweredRoot &U) { return U.Decl == R.Decl; }))
        Out.NotLowered.push_back({R.Decl, L.Error.empty() ? "Clang generated no code for it" : L.Error});
      continue;
    }
    const LoweredPart &Part = L.Parts[In->second];
    Function *F = Part.Functions.lookup(R.Decl);
    Locs.setMerged(&Part.Merged);
    FunctionModel M;
    M.Name = nameOfFunction(R.Decl);
    M.Where = toSourcePos(Ctx.getSourceManager(), R.Decl->getLocation());
    M.IsKernel = R.Decl->hasAttr<clang::CUDAGlobalAttr>();
    FunctionAnalysisManager &FAM = PartAnalyses[In->second]->FAM;
    IRAnalyses A{FAM.getResult<DominatorTreeAnalysis>(*F), FAM.getResult<PostDominatorTreeAnalysis>(*F),
                 FAM.getResult<LoopAnalysis>(*F), FAM.getResult<UniformityInfoAnalysis>(*F),
                 FAM.getResult<ScalarEvolutionAnalysis>(*F)};
    size_t ArraysBefore = Arrays.size();
    IRTranslator T(*F, A, *PartArrays[In->second], Locs, R.Fixed, M);
    T.translate();
    // Kept for the next version, unless it added a variable the table lacks.
    if (auto Key = L.Reused.Keys.find(R.Decl); Key != L.Reused.Keys.end() && Arrays.size() == ArraysBefore)
      storeModel(*Lowering.Memo, Key->second, M);
    Out.Functions.push_back({R.Decl, std::move(M)});
  }
  return Out;
}

} // namespace

DeviceModels buildDeviceModels(clang::CompilerInstance &CI, clang::ASTContext &Ctx,
                               const std::vector<DeviceRoot> &Roots,
                               const std::vector<const clang::VarDecl *> &Shared,
                               const SharedArrayTable &Table, std::vector<SharedArray> &Arrays,
                               const std::vector<std::string> &ToolkitDirs,
                               const LoweringOptions &Lowering) {
  if (Lowering.Memo || !DeviceModelMemo::analysingTwice())
    return buildOnce(CI, Ctx, Roots, Shared, Table, Arrays, ToolkitDirs, Lowering);
  std::unique_ptr<DeviceModelMemo> Memo = everyOtherMemo();
  LoweringOptions Twice = Lowering;
  Twice.Memo = Memo.get();
  size_t Listed = Arrays.size(); // the first analysis's variables the table lacks go
  buildOnce(CI, Ctx, Roots, Shared, Table, Arrays, ToolkitDirs, Twice);
  Arrays.resize(Listed);
  return buildOnce(CI, Ctx, Roots, Shared, Table, Arrays, ToolkitDirs, Twice);
}

} // namespace cbl
