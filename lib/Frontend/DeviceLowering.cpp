//===- DeviceLowering.cpp - Clang's device code generation, optimised -----===//
#include "DeviceLowering.h"
#include "IRTranslator.h"
#include "PtxInstructions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <mutex>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();

using namespace clang;

namespace cbl {

namespace {

/// Collects the code generator's errors; its warnings are of no interest.
class CodeGenDiagnostics : public DiagnosticConsumer {
public:
  std::vector<std::string> Errors;
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Errors.push_back(std::string(Text));
  }
};

const llvm::Target *nvptxTarget(std::string &Error) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    // The same statement on both sides of a branch (x_top = v; else
    // x_bottom = v) stays two instructions at their own lines, as in nvcc's
    // line tables: SimplifyCFG does not sink or hoist them into one.
    llvm::StringMap<llvm::cl::Option *> &Options = llvm::cl::getRegisteredOptions();
    for (const char *Name : {"sink-common-insts", "hoist-common-insts"})
      if (llvm::cl::Option *O = Options.lookup(Name))
        O->addOccurrence(0, Name, "false");
    // Loops of a constant trip count are unrolled whole as far as NVVM
    // does (utils/oracles/full-unroll.cu: about twice LLVM's -O3 default of
    // 300); a loop holding a loop with a computable trip count is not
    // (NvccUnrolling.cpp).
    if (llvm::cl::Option *O = Options.lookup("unroll-threshold"))
      O->addOccurrence(0, "unroll-threshold", "600");
  });
  return llvm::TargetRegistry::lookupTarget("nvptx64-nvidia-cuda", Error);
}

/// Code generation options for an optimised build with line tables.
CodeGenOptions codeGenOptions(const CodeGenOptions &From) {
  CodeGenOptions O = From;
  O.OptimizationLevel = 3;
  O.setInlining(CodeGenOptions::NormalInlining);
  O.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
  O.DebugColumnInfo = true;
  if (!O.DwarfVersion)
    O.DwarfVersion = 2;
  O.DisableLLVMPasses = false;
  O.DisableO0ImplyOptNone = true;
  O.DiscardValueNames = false;
  O.UnrollLoops = true; // else every loop is marked llvm.loop.unroll.disable
  return O;
}

/// Every call of a device function is inlined into the function analysed,
/// as nvcc does with all but explicitly noinline or recursive functions:
/// the inliner decides by cost (with a threshold that takes everything but
/// the huge), so user attributes are dropped.
void inlineByCost(llvm::Module &M) {
  for (llvm::Function &F : M) {
    F.removeFnAttr(llvm::Attribute::AlwaysInline);
    F.removeFnAttr(llvm::Attribute::NoInline);
    F.removeFnAttr(llvm::Attribute::OptimizeNone);
  }
}

/// Every access to shared memory is kept: a variable the code only writes
/// (the reader is another kernel's copy, an asynchronous copy, a test), or
/// only reads, is still what the source does with it.
void keepSharedAccesses(llvm::Module &M) {
  std::vector<llvm::GlobalValue *> Shared;
  for (llvm::GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == 3) {
      G.setExternallyInitialized(true);
      Shared.push_back(&G);
    }
  if (!Shared.empty())
    llvm::appendToCompilerUsed(M, Shared);
}

/// A struct or vector assignment is one copy in nvcc's code: a 16-byte
/// Packed128 moves as ld/st.shared.v4.u32 even when its elements are
/// 2-byte bfloat16s (PTX of nvcc 13), where LLVM's SROA would split it into
/// the elements. Each aligned constant-size copy (what Clang emits for an
/// aggregate assignment) becomes loads and stores of whole 4-byte words,
/// as wide as the alignment allows (at most 16 bytes), before optimisation.
void widenAggregateCopies(llvm::Module &M) {
  std::vector<llvm::MemTransferInst *> Copies;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *MT = llvm::dyn_cast<llvm::MemTransferInst>(&I))
        Copies.push_back(MT);
  for (llvm::MemTransferInst *MT : Copies) {
    auto *Len = llvm::dyn_cast<llvm::ConstantInt>(MT->getLength());
    uint64_t Align = std::min(MT->getDestAlign().valueOrOne().value(),
                              MT->getSourceAlign().valueOrOne().value());
    if (!Len || MT->isVolatile() || Align < 4 || Len->getZExtValue() % 4 ||
        Len->getZExtValue() > 64 || Len->getZExtValue() == 0)
      continue;
    uint64_t Size = Len->getZExtValue(), Chunk = std::min<uint64_t>(16, Align);
    while (Size % Chunk)
      Chunk /= 2;
    llvm::IRBuilder<> B(MT);
    llvm::Type *Word = B.getInt32Ty();
    llvm::Type *T = Chunk == 4 ? Word : llvm::FixedVectorType::get(Word, unsigned(Chunk / 4));
    // The loads first, then the stores: the copy's words are read together
    // (and merged further where ptxas can, NvccMerges.cpp).
    std::vector<llvm::LoadInst *> Words;
    for (uint64_t K = 0; K < Size; K += Chunk) {
      llvm::Value *Src = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), MT->getRawSource(), K);
      llvm::LoadInst *V = B.CreateAlignedLoad(T, Src, llvm::Align(Chunk));
      Words.push_back(V);
      // The load is where the source operand is written (the right side).
      if (auto *From = llvm::dyn_cast<llvm::Instruction>(MT->getRawSource()))
        if (From->getDebugLoc() && MT->getDebugLoc() &&
            From->getDebugLoc()->getInlinedAt() == MT->getDebugLoc()->getInlinedAt())
          V->setDebugLoc(From->getDebugLoc());
    }
    for (uint64_t K = 0; K < Size; K += Chunk) {
      llvm::Value *Dst = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), MT->getRawDest(), K);
      B.CreateAlignedStore(Words[K / Chunk], Dst, llvm::Align(Chunk));
    }
    MT->eraseFromParent();
  }
}

/// `t = a[i]; a[i] = a[j]; a[j] += t;` (the down-sweep of a Blelloch
/// scan): LLVM's GVN reuses the value of a[j] read on the second line for
/// the third, because the store between writes that same value wherever it
/// lands (MemoryDependence's canSkipClobberingStore, LLVM 17); nvcc reads
/// a[j] again (scan_bcao in HeCBench, measured). That rule needs the stored
/// value to be the load itself, so a store (outside local variables) of a
/// value loaded in the same block stores it through a freeze for the
/// pipeline; the freezes go afterwards (dropReloadFreezes).
constexpr llvm::StringLiteral ReloadKind = "cbl.keep-reload";

bool isLocal(const llvm::Value *Ptr) {
  return llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(Ptr));
}

void keepReloadsAfterWriteBack(llvm::Module &M) {
  llvm::LLVMContext &C = M.getContext();
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F)) {
      auto *SI = llvm::dyn_cast<llvm::StoreInst>(&I);
      auto *LI = SI ? llvm::dyn_cast<llvm::LoadInst>(SI->getValueOperand()) : nullptr;
      if (!LI || LI->getParent() != SI->getParent() || isLocal(SI->getPointerOperand()) ||
          isLocal(LI->getPointerOperand()))
        continue;
      auto *Fr = new llvm::FreezeInst(LI, "", SI);
      Fr->setMetadata(ReloadKind, llvm::MDNode::get(C, {}));
      SI->setOperand(0, Fr);
    }
}

void dropReloadFreezes(llvm::Module &M) {
  std::vector<llvm::FreezeInst *> Marked;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *Fr = llvm::dyn_cast<llvm::FreezeInst>(&I); Fr && Fr->getMetadata(ReloadKind))
        Marked.push_back(Fr);
  for (llvm::FreezeInst *Fr : Marked) {
    Fr->replaceAllUsesWith(Fr->getOperand(0));
    Fr->eraseFromParent();
  }
}

/// The function definitions a root reaches (calls, constructors,
/// destructors of locals and temporaries), for the code generator, which
/// emits a definition only once it has been handed it; and why the root
/// cannot be handed over: it (or a function it reaches) uses an expression
/// or declaration Sema rejected (an error nvcc does not make, left in the
/// AST). What a safe root reached is not traversed again for later roots
/// (template-heavy files have hundreds of roots over one library).
class DeviceReach : public RecursiveASTVisitor<DeviceReach> {
public:
  /// Why Root cannot be handed over (Why empty: it can).
  struct Problem {
    std::string Why;
    SourceLocation Where;
    SkippedFunction::Cause Cause = SkippedFunction::Cause::Tool;
  };
  Problem check(const FunctionDecl *Root) {
    Stop = {};
    Seen.clear();
    Found.clear();
    visit(Root);
    if (Stop.Why.empty()) {
      Reached.insert(Reached.end(), Found.begin(), Found.end());
      Clean.insert(Found.begin(), Found.end());
    }
    return Stop;
  }
  /// Every definition the safe roots reach.
  std::vector<const FunctionDecl *> Reached;
  llvm::SetVector<const VarDecl *> Vars; ///< namespace-scope variables they use

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitExpr(Expr *E) {
    if (!E->containsErrors())
      return Stop.Why.empty();
    // Sema wraps each use of a declaration it rejected in a RecoveryExpr.
    if (const VarDecl *VD = constructedSharedIn(E))
      stop("it uses '" + VD->getNameAsString() + "', " + SharedConstructorText, VD->getLocation(),
           SkippedFunction::Cause::SharedConstructor);
    else
      stop("it uses an expression Clang rejects", E->getBeginLoc());
    return false;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) { return use(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return use(E->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) { return use(E->getConstructor()); }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E) {
    return use(E->getTemporary()->getDestructor());
  }
  /// A structured binding of a tuple-like object reads a holding variable
  /// whose initialiser calls get<I>: not a child in the AST.
  bool VisitBindingDecl(BindingDecl *B) {
    if (VarDecl *H = B->getHoldingVar())
      if (H->getInit())
        TraverseStmt(H->getInit());
    return Stop.Why.empty();
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->isInvalidDecl() && !sharedWithoutConstructor(VD)) {
      stop("it declares '" + VD->getNameAsString() + "', which Clang rejects", VD->getLocation());
      return false;
    }
    if (const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl())
      if (RD->hasDefinition())
        return use(RD->getDestructor());
    return true;
  }

private:
  /// `__shared__ cuda::barrier<...> bar;`: Clang rejects a __shared__ object
  /// whose constructor does something (err_shared_var_init); nvcc accepts it
  /// and does not run the constructor (the code initialises it, with init()).
  /// The declaration is taken as nvcc takes it: no initialiser.
  bool sharedWithoutConstructor(VarDecl *VD) {
    if (Constructed.count(VD))
      return true;
    if (!VD->isInvalidDecl())
      return false;
    const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
    if (!VD->hasAttr<CUDASharedAttr>() || VD->getType()->isDependentType() || !RD ||
        !RD->hasDefinition() || RD->isInvalidDecl() || !isa_and_nonnull<CXXConstructExpr>(VD->getInit()))
      return false;
    VD->setInit(nullptr);
    VD->setInvalidDecl(false);
    Constructed.insert(VD);
    return true;
  }
  /// Such an object that an expression Sema rejected names (each of its uses).
  const VarDecl *constructedSharedIn(const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(const_cast<ValueDecl *>(DRE->getDecl())))
        if (sharedWithoutConstructor(VD))
          return VD;
    // `&bar`: Sema left the name of a declaration it rejected as an empty
    // RecoveryExpr.
    if (const auto *RE = dyn_cast<RecoveryExpr>(S); RE && RE->subExpressions().empty())
      return constructedNamed(RE->getBeginLoc());
    for (const Stmt *Child : S->children())
      if (const VarDecl *VD = Child ? constructedSharedIn(Child) : nullptr)
        return VD;
    return nullptr;
  }
  /// An extern "C" function declared inside a namespace is the global one
  /// (the toolkit's `namespace __pipeline_internal { extern "C" uint32_t
  /// __nvvm_get_smem_pointer(void *); }`), but Clang does not chain that
  /// declaration to the definition in its CUDA headers.
  static const FunctionDecl *externCDefinition(const FunctionDecl *FD) {
    if (!FD->isExternC() || !FD->getDeclContext()->getRedeclContext()->isNamespace())
      return nullptr;
    const TranslationUnitDecl *TU = FD->getASTContext().getTranslationUnitDecl();
    for (const NamedDecl *ND : TU->lookup(FD->getDeclName())) {
      const FunctionDecl *Def = nullptr;
      if (const auto *G = dyn_cast<FunctionDecl>(ND); G && G->isExternC() && G->hasBody(Def))
        return Def;
    }
    return nullptr;
  }
  llvm::DenseSet<const FunctionDecl *> Seen;
  llvm::DenseSet<const VarDecl *> Constructed; ///< taken as nvcc takes them
  /// The latest such object named as Loc spells, declared before it in a
  /// function this root reaches.
  const VarDecl *constructedNamed(SourceLocation Loc) const {
    if (Loc.isInvalid() || Seen.empty())
      return nullptr;
    const ASTContext &Ctx = (*Seen.begin())->getASTContext();
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::StringRef Name =
        Lexer::getSourceText(CharSourceRange::getTokenRange(Loc), SM, Ctx.getLangOpts());
    const VarDecl *Best = nullptr;
    for (const VarDecl *VD : Constructed) {
      const auto *In = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
      if (VD->getName() == Name && In && Seen.count(In) &&
          SM.isBeforeInTranslationUnit(VD->getLocation(), Loc) &&
          (!Best || SM.isBeforeInTranslationUnit(Best->getLocation(), VD->getLocation())))
        Best = VD;
    }
    return Best;
  }
  std::vector<const FunctionDecl *> Found;
  Problem Stop;
  void stop(std::string Why, SourceLocation Where,
            SkippedFunction::Cause Cause = SkippedFunction::Cause::Tool) {
    Stop = {std::move(Why), Where, Cause};
  }
  bool use(const Decl *D) {
    if (!D)
      return true;
    auto *VD = dyn_cast<VarDecl>(const_cast<Decl *>(D));
    if (D->isInvalidDecl() && !(VD && sharedWithoutConstructor(VD))) {
      const auto *ND = dyn_cast<NamedDecl>(D);
      stop("it uses '" + (ND ? ND->getNameAsString() : std::string("?")) +
               "', a declaration Clang rejects",
           D->getLocation());
      return false;
    }
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      visit(FD);
    // A namespace-scope variable (a __constant__ table): its definition is
    // handed to the code generator too, or only a declaration is emitted.
    if (VD && VD->hasGlobalStorage() && !VD->isStaticLocal())
      if (const VarDecl *Def = VD->getDefinition(); Def && !Def->isInvalidDecl() &&
                                                    !Def->hasAttr<CUDASharedAttr>() &&
                                                    !Def->getDeclContext()->isDependentContext())
        Vars.insert(Def);
    return Stop.Why.empty();
  }
  void visit(const FunctionDecl *FD) {
    const FunctionDecl *Def = nullptr;
    if (FD && !FD->hasBody(Def))
      Def = externCDefinition(FD);
    if (!Stop.Why.empty() || !Def)
      return;
    if (!Traversing.empty())
      Callees[Traversing.back()].push_back(Def);
    if (Clean.count(Def))
      return seeReach(Def);
    if (!Seen.insert(Def).second)
      return;
    if (Def->isInvalidDecl()) {
      stop("it calls '" + Def->getNameAsString() + "', which Clang rejects", Def->getLocation());
      return;
    }
    Found.push_back(Def);
    Callees[Def].clear();
    Traversing.push_back(Def);
    TraverseDecl(const_cast<FunctionDecl *>(Def));
    Traversing.pop_back();
  }
  /// A function an earlier root reached without a problem: so is everything
  /// it reaches (traversing it again finds nothing, and its definitions were
  /// handed over then), which this root now reaches too.
  void seeReach(const FunctionDecl *Def) {
    llvm::SmallVector<const FunctionDecl *, 16> Work{Def};
    while (!Work.empty()) {
      const FunctionDecl *F = Work.pop_back_val();
      if (Seen.insert(F).second)
        Work.append(Callees[F].begin(), Callees[F].end());
    }
  }
  /// Those a safe root reached: each was traversed whole, with what it calls.
  llvm::DenseSet<const FunctionDecl *> Clean;
  /// What each traversed function calls (the last traversal's), for seeReach.
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> Callees;
  std::vector<const FunctionDecl *> Traversing;
};

/// What LLVM's passes say of this compile ("loop not unrolled: the
/// optimizer was unable to ...") is about the tool's own pipeline, not the
/// user's build (nvcc's optimiser is another): not shown.
struct QuietOptimiser : llvm::DiagnosticHandler {
  bool handleDiagnostics(const llvm::DiagnosticInfo &) override { return true; }
};

/// Removes from M the roots among Roots that no kernel runs: template
/// instances (not kernels) that nothing in M uses, since Clang emitted them
/// only because the AST references them, in code it leaves out; then those
/// only the removed ones used. Returns them.
std::vector<const FunctionDecl *> dropNeverRun(llvm::Module &M, CodeGenerator &CG,
                                               const std::vector<const FunctionDecl *> &Roots) {
  std::vector<const FunctionDecl *> Dropped;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const FunctionDecl *FD : Roots) {
      if (FD->hasAttr<CUDAGlobalAttr>() || FD->getTemplateSpecializationKind() != TSK_ImplicitInstantiation)
        continue;
      llvm::Function *F = M.getFunction(CG.GetMangledName(GlobalDecl(FD)));
      if (!F || F->isDeclaration() || !F->use_empty())
        continue; // dropped already, or used
      F->eraseFromParent();
      Dropped.push_back(FD);
      Changed = true;
    }
  }
  return Dropped;
}

/// Whether F's own code may hold an access or a barrier (IRSites.cpp): it
/// names a shared variable (through any constant expression: every shared
/// address the translator follows starts at one, inline PTX's operands
/// too), holds a block or grid barrier (also as inline PTX), or an indirect
/// call (which may call anything). The functions it names go to Named.
bool namesSharedOrSyncs(const llvm::Function &F, llvm::SmallVectorImpl<const llvm::Function *> &Named) {
  llvm::SmallVector<const llvm::Constant *, 8> Work;
  llvm::SmallPtrSet<const llvm::Constant *, 32> Seen;
  for (const llvm::Instruction &I : llvm::instructions(F)) {
    if (const auto *C = llvm::dyn_cast<llvm::CallBase>(&I)) {
      if (C->isInlineAsm()) {
        if (isBlockBarrierPtx(llvm::cast<llvm::InlineAsm>(C->getCalledOperand())->getAsmString()))
          return true;
      } else if (const llvm::Function *Callee = C->getCalledFunction()) {
        // Every barrier intrinsic, whatever its id: before inlining, that of
        // __barrier_sync(0) is still a parameter.
        if (Callee->isIntrinsic() ? Callee->getName().starts_with("llvm.nvvm.bar")
                                  : Callee->isDeclaration() && isGridSync(Callee->getName()))
          return true;
      } else {
        return true;
      }
    }
    for (const llvm::Value *Op : I.operands())
      if (const auto *K = llvm::dyn_cast<llvm::Constant>(Op))
        Work.push_back(K);
    while (!Work.empty()) {
      const llvm::Constant *K = Work.pop_back_val();
      if (!Seen.insert(K).second)
        continue;
      if (const auto *G = llvm::dyn_cast<llvm::GlobalVariable>(K)) {
        if (G->getAddressSpace() == 3)
          return true;
        continue; // what is stored in it is loaded, and a loaded pointer is no shared address
      }
      if (const auto *Fn = llvm::dyn_cast<llvm::Function>(K)) {
        Named.push_back(Fn);
        continue;
      }
      if (const auto *GA = llvm::dyn_cast<llvm::GlobalAlias>(K)) {
        Work.push_back(GA->getAliasee());
        continue;
      }
      for (const llvm::Value *Sub : K->operands())
        if (const auto *SK = llvm::dyn_cast<llvm::Constant>(Sub))
          Work.push_back(SK);
    }
  }
  return false;
}

/// The roots among Functions that, with every function they may call (in
/// the code as generated, before the optimiser), name no shared variable
/// and hold no barrier: neither an access nor a barrier can come out of
/// them (ggml's element-wise kernels).
llvm::DenseSet<const FunctionDecl *>
nothingShared(const llvm::DenseMap<const FunctionDecl *, llvm::Function *> &Functions) {
  llvm::DenseMap<const llvm::Function *, bool> Own;
  llvm::DenseMap<const llvm::Function *, llvm::SmallVector<const llvm::Function *, 4>> Named;
  llvm::DenseSet<const llvm::Function *> Clean; // all they reach was looked at: nothing
  llvm::DenseSet<const FunctionDecl *> Out;
  for (const auto &[FD, Root] : Functions) {
    llvm::SmallVector<const llvm::Function *, 16> Stack{Root};
    llvm::DenseSet<const llvm::Function *> Visited{Root};
    bool Found = false;
    while (!Stack.empty() && !Found) {
      const llvm::Function *G = Stack.pop_back_val();
      if (Clean.count(G))
        continue;
      auto [It, New] = Own.try_emplace(G, false);
      if (New)
        It->second = namesSharedOrSyncs(*G, Named[G]);
      Found = It->second;
      for (const llvm::Function *Callee : Named[G])
        if (Visited.insert(Callee).second)
          Stack.push_back(Callee);
    }
    if (Found)
      continue;
    Clean.insert(Visited.begin(), Visited.end());
    Out.insert(FD);
  }
  return Out;
}

} // namespace

void AnalysisManagers::registerWith(llvm::PassBuilder &PB) {
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
}

std::unique_ptr<llvm::LLVMContext> deviceContext() {
  auto C = std::make_unique<llvm::LLVMContext>();
  C->setDiscardValueNames(false);
  C->setDiagnosticHandler(std::make_unique<QuietOptimiser>());
  return C;
}

std::string optimise(llvm::Module &M, const TargetOptions &Target,
                     const std::set<const llvm::Function *> &Kernels, MergedAccesses &Merged) {
  std::string Error;
  const llvm::Target *T = nvptxTarget(Error);
  if (!T)
    return "the NVPTX target is not available: " + Error;
  std::string CPU = Target.CPU.empty() ? "sm_90" : Target.CPU;
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      M.getTargetTriple(), CPU, "", llvm::TargetOptions(), std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!TM)
    return "no NVPTX target machine for " + CPU;
  M.setDataLayout(TM->createDataLayout());
  keepSharedAccesses(M);
  widenAggregateCopies(M);
  keepReloadsAfterWriteBack(M);
  inlineByCost(M);
  keepLoops(M);
  llvm::PipelineTuningOptions PTO;
  PTO.LoopVectorization = false;
  PTO.SLPVectorization = false;
  PTO.LoopInterleaving = false;
  // Everything that is not huge is inlined, bottom-up, each callee
  // simplified first (CuTe: 26,000 functions for one kernel; forcing them
  // all inline with alwaysinline took 6x longer).
  PTO.InlinerThreshold = 100000;
  AnalysisManagers AM;
  llvm::PassBuilder PB(TM.get(), PTO);
  registerLoopPolicy(PB, Kernels);
  AM.registerWith(PB);
  llvm::ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  MPM.run(M, AM.MAM);
  dropReloadFreezes(M);
  Merged = mergeAsNvcc(M, *TM, Kernels);
  return "";
}

LoweredDevice lowerDevice(CompilerInstance &CI, ASTContext &Ctx,
                          const std::vector<const FunctionDecl *> &Roots,
                          const std::vector<const VarDecl *> &Shared, const LoweringOptions &Opts) {
  LoweredDevice Out;
  LoweredPart Whole;
  Whole.Context = deviceContext();
  CodeGenDiagnostics Collector;
  DiagnosticsEngine Diags(new DiagnosticIDs, new DiagnosticOptions, &Collector, false);
  Diags.setSourceManager(&Ctx.getSourceManager());
  CodeGenOptions CGO = codeGenOptions(CI.getCodeGenOpts());
  std::unique_ptr<CodeGenerator> CG(CreateLLVMCodeGen(
      Diags, "cuda-bank-lint-device", &CI.getVirtualFileSystem(), CI.getHeaderSearchOpts(),
      CI.getPreprocessorOpts(), CGO, *Whole.Context));
  CG->Initialize(Ctx);
  std::vector<const FunctionDecl *> Lowered;
  DeviceReach Reach;
  for (const FunctionDecl *FD : Roots) {
    DeviceReach::Problem P = Reach.check(FD);
    if (!P.Why.empty()) {
      Out.Unsafe.push_back({FD, std::move(P.Why), P.Where, P.Cause});
      continue;
    }
    Lowered.push_back(FD);
  }
  // Each definition once; the code generator defers what is not used.
  llvm::DenseSet<const FunctionDecl *> Handed;
  for (const FunctionDecl *FD : Reach.Reached)
    if (Handed.insert(FD).second && !FD->getDescribedFunctionTemplate())
      CG->HandleTopLevelDecl(DeclGroupRef(const_cast<FunctionDecl *>(FD)));
  for (const VarDecl *VD : Reach.Vars)
    CG->HandleTopLevelDecl(DeclGroupRef(const_cast<VarDecl *>(VD)));
  // Referenced, so that instantiations the code generator defers are emitted.
  for (const FunctionDecl *FD : Lowered)
    CG->GetAddrOfGlobal(GlobalDecl(FD), /*isForDefinition=*/false);
  CG->HandleTranslationUnit(Ctx);
  Out.CodeGenErrors = Collector.Errors;
  Whole.Module.reset(CG->ReleaseModule());
  if (!Whole.Module) {
    Out.Error = Collector.Errors.empty() ? "Clang generated no device code"
                                         : "Clang's code generation failed: " + Collector.Errors[0];
    return Out;
  }
  Out.NeverRun = dropNeverRun(*Whole.Module, *CG, Lowered);
  for (const FunctionDecl *FD : Lowered) {
    std::string Name(CG->GetMangledName(GlobalDecl(FD)));
    llvm::Function *F = Whole.Module->getFunction(Name);
    if (!F || F->isDeclaration())
      continue;
    // A root another function calls is analysed inside its callers: its own
    // copy keeps the linkage Clang gave it, so that the optimiser drops it
    // once it is inlined everywhere.
    if (llvm::any_of(F->users(), [F](const llvm::User *U) {
          const auto *C = llvm::dyn_cast<llvm::CallBase>(U);
          return C && C->getFunction() != F;
        })) {
      Out.Called.insert(FD);
      continue;
    }
    Whole.Functions[FD] = F;
    if (FD->hasAttr<CUDAGlobalAttr>())
      Whole.Kernels.insert(F);
    // Kept whole: a root nothing calls any more is not dropped.
    F->setLinkage(llvm::GlobalValue::ExternalLinkage);
  }
  // Roots with nothing to analyse are not optimised: their callees go with
  // their bodies.
  Out.NothingShared = nothingShared(Whole.Functions);
  if (!Out.NothingShared.empty())
    keepWrittenVariables(*Whole.Module); // what they write is not known elsewhere
  for (const FunctionDecl *FD : Out.NothingShared) {
    llvm::Function *F = Whole.Functions.lookup(FD);
    Whole.Kernels.erase(F);
    Whole.Functions.erase(FD);
    F->deleteBody();
    F->setComdat(nullptr); // a declaration is in none (template instances are)
  }
  for (const VarDecl *VD : Shared) {
    std::string Name(CG->GetMangledName(GlobalDecl(VD)));
    if (llvm::GlobalVariable *G = Whole.Module->getNamedGlobal(Name))
      Whole.SharedVars[G] = VD;
  }
  CG.reset();
  Out.Parts = optimiseInParts(std::move(Whole), CI.getTargetOpts(), Opts, Out.Error, &Out.Reused);
  if (!Opts.DumpTo.empty()) {
    static std::mutex DumpLock;
    std::lock_guard<std::mutex> Lock(DumpLock);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Opts.DumpTo, EC, llvm::sys::fs::OF_Append);
    for (const LoweredPart &P : Out.Parts)
      if (!EC)
        P.Module->print(OS, nullptr);
  }
  return Out;
}

} // namespace cbl
