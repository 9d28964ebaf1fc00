//===- ModelBuilder.cpp - Device-side parse and access-model construction --===//
#include "cuda-bank-lint/Frontend/ModelBuilder.h"
#include "BlockShapes.h"
#include "CompileErrors.h"
#include "DeviceModel.h"
#include "Preambles.h"
#include "PtxInstructions.h"
#include "SharedArrays.h"
#include "SkippedKernels.h"
#include "UserCodeVisitor.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

using namespace clang;

namespace cbl {

namespace {

bool isDeviceFunction(const FunctionDecl *FD) {
  return FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>();
}

/// Every function definition the analysis cares about, instantiations included.
struct FunctionCollector : UserCodeVisitor<FunctionCollector> {
  using UserCodeVisitor::UserCodeVisitor;
  std::vector<const FunctionDecl *> Device;
  std::vector<const FunctionDecl *> Host;
  std::vector<const VarDecl *> Shared;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
      return true;
    // An explicitly instantiated template is met twice (as an instantiation
    // and at its `template __global__ void k<2>(...);`): collected once.
    if (!Seen.insert(FD).second)
      return true;
    (isDeviceFunction(FD) ? Device : Host).push_back(FD);
    return true;
  }
  llvm::DenseSet<const FunctionDecl *> Seen;
  bool VisitVarDecl(VarDecl *VD) {
    if (isSharedVar(VD) && !VD->getDeclContext()->isDependentContext())
      Shared.push_back(VD);
    return true;
  }
};

/// Is Call a block-level barrier: __syncthreads and its variants, their NVVM
/// builtins, or sync() of a cooperative_groups thread_block, grid_group or
/// cluster_group (tiles, coalesced groups and dynamic thread_groups are
/// warp-level or partial and are not)?
bool isBlockBarrierCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  StringRef Name = Callee->getName();
  if (Name == "__syncthreads" || Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or" || Name == "__barrier_sync" || Name == "__nvvm_bar_sync" ||
      Name == "__nvvm_barrier0" || Name == "__nvvm_bar0_popc" || Name == "__nvvm_bar0_and" ||
      Name == "__nvvm_bar0_or")
    return true;
  if (Name != "sync")
    return false;
  auto IsBlockGroup = [](QualType T) {
    T = T.getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    std::string N = RD ? RD->getNameAsString() : std::string();
    return N == "thread_block" || N == "grid_group" || N == "cluster_group";
  };
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee)) {
    // The CUDA headers declare thread_block::sync() static (called through an
    // object, so no CXXMemberCallExpr); the prelude inherits it from
    // thread_group, so the object's own type decides.
    if (IsBlockGroup(QualType(MD->getParent()->getTypeForDecl(), 0)))
      return true;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const Expr *Obj = MC->getImplicitObjectArgument())
        if (IsBlockGroup(Obj->IgnoreImpCasts()->getType()))
          return true;
    if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      return IsBlockGroup(ME->getBase()->IgnoreImpCasts()->getType());
    return false;
  }
  return Call->getNumArgs() == 1 && IsBlockGroup(Call->getArg(0)->IgnoreImpCasts()->getType());
}

/// Who calls whom among the device functions of the unit (launches aside).
using DeviceCalls = std::vector<std::pair<const FunctionDecl *, std::vector<const FunctionDecl *>>>;

/// A function's callees, or its callers.
using CallEdges = llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>>;

/// Marks in Seen every function reachable from those in Work through Next,
/// each once; Take is told of each newly marked one and says whether to go
/// on through it.
void walkCalls(const CallEdges &Next, std::vector<const FunctionDecl *> Work,
               llvm::DenseSet<const FunctionDecl *> &Seen, llvm::function_ref<bool(const FunctionDecl *)> Take) {
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    if (Seen.insert(F).second && Take(F))
      if (auto It = Next.find(F); It != Next.end())
        llvm::append_range(Work, It->second);
  }
}

/// The device functions lowered on their own, besides kernels: those that
/// execute a block barrier or name a __shared__ variable, or call one that
/// does (on its own, a helper that takes the tile as a parameter has no
/// place in shared memory to analyse). Calls gets the call graph.
llvm::DenseSet<const FunctionDecl *> ownRoots(const std::vector<const FunctionDecl *> &Fns, DeviceCalls &Calls) {
  struct Scan : RecursiveASTVisitor<Scan> {
    bool Found = false; ///< a barrier or a __shared__ variable
    std::vector<const FunctionDecl *> Callees;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()); VD && isSharedVar(VD))
        Found = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      // A launch (k<<<g, b>>>(...)) runs the kernel's barriers in a grid of
      // its own, not in the caller.
      if (isa<CUDAKernelCallExpr>(C))
        return true;
      if (isBlockBarrierCall(C))
        Found = true;
      else if (const FunctionDecl *F = C->getDirectCallee())
        Callees.push_back(F->getCanonicalDecl());
      return true;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *S) {
      if (isBlockBarrierPtx(S->getAsmString()->getString()))
        Found = true;
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  };
  llvm::DenseSet<const FunctionDecl *> Roots;
  for (const FunctionDecl *FD : Fns) {
    Scan S;
    S.TraverseStmt(FD->getBody());
    if (S.Found)
      Roots.insert(FD->getCanonicalDecl());
    Calls.push_back({FD->getCanonicalDecl(), std::move(S.Callees)});
  }
  // Every caller of a root, directly or not, is one.
  CallEdges Callers;
  for (const auto &[Caller, Callees] : Calls)
    for (const FunctionDecl *C : Callees)
      Callers[C].push_back(Caller);
  std::vector<const FunctionDecl *> Work;
  for (const FunctionDecl *R : Roots)
    if (auto It = Callers.find(R); It != Callers.end())
      llvm::append_range(Work, It->second);
  walkCalls(Callers, std::move(Work), Roots, [](const FunctionDecl *) { return true; });
  return Roots;
}

/// Callees by caller.
CallEdges calleesOf(const DeviceCalls &Calls) {
  CallEdges Callees;
  for (const auto &[Caller, To] : Calls)
    Callees[Caller] = To;
  return Callees;
}

/// The kernels in Kernels and the device functions they call, directly or not.
llvm::DenseSet<const FunctionDecl *> calledByKernels(const DeviceCalls &Calls,
                                                     const std::vector<const FunctionDecl *> &Kernels) {
  CallEdges Callees = calleesOf(Calls);
  llvm::DenseSet<const FunctionDecl *> Reached;
  std::vector<const FunctionDecl *> Work;
  for (const FunctionDecl *K : Kernels)
    if (Reached.insert(K->getCanonicalDecl()).second)
      if (auto It = Callees.find(K->getCanonicalDecl()); It != Callees.end())
        llvm::append_range(Work, It->second);
  walkCalls(Callees, std::move(Work), Reached, [](const FunctionDecl *) { return true; });
  return Reached;
}

/// Whether only this unit's kernels can call FD: it is inline, an
/// instantiation or internal, or device code is not relocatable (without
/// -rdc a device function is called from its own unit only).
bool calledFromThisUnitOnly(const FunctionDecl *FD, const LangOptions &LO) {
  return !LO.GPURelocatableDeviceCode || !FD->isExternallyVisible() || FD->isInlined() ||
         FD->isTemplateInstantiation();
}

/// A device function's bound on the block (FunctionModel::BoundsShape): the
/// largest __launch_bounds__ of the kernels that call it, directly or not,
/// where every one of them has one and no other unit's kernel can call it.
llvm::DenseMap<const FunctionDecl *, BlockShape> callersBounds(const DeviceCalls &Calls,
                                                             const BlockShapeFinder &Shapes,
                                                             const LangOptions &LO) {
  CallEdges Callees = calleesOf(Calls);
  // The kernels without a bound first, then by bound, largest first: the
  // first kernel to reach a function decides it (none, or the largest
  // bound of those that reach it), and what it reaches from there too.
  struct Kernel {
    const std::vector<const FunctionDecl *> *To; ///< its callees
    std::optional<BlockShape> Bound;
  };
  std::vector<Kernel> Kernels;
  for (const auto &[K, To] : Calls)
    if (K->hasAttr<CUDAGlobalAttr>())
      Kernels.push_back({&To, Shapes.boundsShapeOf(K->getMostRecentDecl())});
  auto Rank = [](const Kernel &K) { return K.Bound ? int64_t(K.Bound->MaxThreads) : INT64_MAX; };
  std::stable_sort(Kernels.begin(), Kernels.end(),
                   [&](const Kernel &X, const Kernel &Y) { return Rank(X) > Rank(Y); });
  llvm::DenseMap<const FunctionDecl *, BlockShape> Out;
  llvm::DenseSet<const FunctionDecl *> Seen;
  for (const auto &[To, Bound] : Kernels)
    walkCalls(Callees, *To, Seen, [&, &Bound = Bound](const FunctionDecl *F) {
      if (F->hasAttr<CUDAGlobalAttr>())
        return false; // launched, not called: its own bound
      if (Bound && calledFromThisUnitOnly(F, LO))
        Out.try_emplace(F, *Bound);
      return true;
    });
  return Out;
}

bool implicitInstantiation(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return FD->getTemplateSpecializationKind() == TSK_ImplicitInstantiation;
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->getTemplateSpecializationKind() == TSK_ImplicitInstantiation;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
    return RD->getTemplateSpecializationKind() == TSK_ImplicitInstantiation;
  return false;
}

class ModelConsumer : public ASTConsumer {
public:
  ModelConsumer(ParsedFile &Out, const DiagnosticCollector &Diags, const ModelOptions &Options,
                CompilerInstance &CI, const PreambleUserDecls *FromPreamble,
                const SkippedKernels *Skipped)
      : Out(Out), Diags(Diags), Options(Options), CI(CI), FromPreamble(FromPreamble),
        Skipped(Skipped) {}

  /// A parse for launches only (LaunchIndex) does not need the bodies of
  /// the toolkit's and the system's functions: the launches it reads are in
  /// the user's code (Sema keeps the bodies of constexpr functions, which
  /// it may evaluate).
  bool shouldSkipFunctionBody(Decl *D) override {
    return Options.LaunchesOnly && CI.getSourceManager().isInSystemHeader(D->getLocation());
  }

  bool HandleTopLevelDecl(DeclGroupRef G) override {
    for (Decl *D : G) {
      if (implicitInstantiation(D)) // reached through its template
        continue;
      TopLevel.push_back(D);
    }
    return true;
  }

  /// Limits every traversal (and the parent map) to the user's code: the
  /// top-level declarations outside system headers, those of the preamble's
  /// user headers included. The toolkit's headers are most of a translation
  /// unit and, over a preamble, would be deserialised to be walked.
  void limitTraversalToUserCode(ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Decl *> Scope;
    if (FromPreamble && CI.getASTReader()) {
      ASTReader &Reader = *CI.getASTReader();
      serialization::ModuleFile &MF = Reader.getModuleManager().getPrimaryModule();
      for (LocalDeclID ID : *FromPreamble)
        if (Decl *D = Reader.GetLocalDecl(MF, ID))
          Scope.push_back(D);
    }
    for (Decl *D : TopLevel)
      if (D->getLocation().isValid() && !SM.isInSystemHeader(D->getLocation()))
        Scope.push_back(D);
    Ctx.setTraversalScope(Scope);
  }

  /// Sorts Clang's errors (see CompileErrors.h); false when the file as a
  /// whole cannot be analysed.
  bool attributeErrors(ErrorAttribution &Attr) {
    TranslationUnitModel &M = Out.Model;
    std::set<std::pair<std::string, std::string>> Said; // one note per file and kind
    // A __shared__ object with a constructor in a function: said for the
    // function, which the summary names (its uses are not analysed).
    std::set<const FunctionDecl *> Errored, Named; // errors of their own are reported as such
    for (const auto &[FD, E] : Attr.Device)
      Errored.insert(patternOf(FD));
    std::set<const ClangError *> ForFunction;
    for (const auto &[FD, E] : Attr.BenignIn) {
      if (!llvm::StringRef(E->Benign).starts_with(SharedConstructorText) || Errored.count(patternOf(FD)))
        continue;
      ForFunction.insert(E);
      if (Named.insert(patternOf(FD)).second)
        M.Notes.push_back({E->Where, fmt::format("{} '{}' has {}: its uses are not analysed",
                                                 FD->hasAttr<CUDAGlobalAttr>() ? "kernel" : "function",
                                                 functionName(FD), SharedConstructorText)});
    }
    for (const ClangError &E : Diags.Errors)
      if (!E.Benign.empty() && !ForFunction.count(&E) && Said.insert({E.File, E.Benign}).second)
        M.Notes.push_back({E.Where, E.Benign + " (Clang: " + E.Message + ")"});
    for (const ClangError *E : Attr.Global) {
      if (Out.FirstError.empty()) {
        Out.FirstError = E->Message;
        Out.FirstErrorWhere = E->Where;
      }
      Out.ErrorText += E->Text;
      if (!E->MissingHeader.empty() && Out.MissingHeader.empty())
        Out.MissingHeader = E->MissingHeader;
    }
    if (!Attr.Global.empty())
      return false;
    for (const auto &[FD, E] : Attr.Host) {
      M.Skipped.push_back({SkippedFunction::Kind::Host, functionName(FD),
                           toSourcePos(FD->getASTContext().getSourceManager(), FD->getLocation()),
                           E->Message, E->Where, ""});
      Out.HostErrorText += E->Text;
    }
    for (const auto &[FD, E] : Attr.Device)
      Out.ErrorText += E->Text;
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    TranslationUnitModel &M = Out.Model;
    if (auto FE = SM.getFileEntryRefForID(SM.getMainFileID()))
      M.MainFile = FE->getName().str();
    ErrorAttribution Attr(Ctx, Diags.Errors);
    if (!attributeErrors(Attr)) {
      Out.Failed = true;
      return;
    }
    limitTraversalToUserCode(Ctx);
    FunctionCollector FC(SM);
    FC.TraverseDecl(Ctx.getTranslationUnitDecl());
    SharedArrayTable Table(Ctx);
    for (const VarDecl *VD : FC.Shared)
      if (!SM.isInSystemHeader(VD->getLocation()))
        Table.add(VD, M.Arrays);
    DeviceCalls Calls;
    llvm::DenseSet<const FunctionDecl *> OwnRoots = ownRoots(FC.Device, Calls);
    BlockShapeFinder Shapes(Ctx);
    for (const auto &[Kernel, Shape] : Shapes.launches()) {
      LaunchedKernel L{functionName(Kernel), {}, Shape};
      // A template instantiation is declared where its pattern is.
      const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern();
      for (const FunctionDecl *D : (Pattern ? Pattern : Kernel)->redecls())
        L.Decls.push_back(toSourcePos(SM, D->getLocation()));
      M.Launches.push_back(std::move(L));
    }
    std::sort(M.Launches.begin(), M.Launches.end(), [](const auto &A, const auto &B) {
      return std::tie(A.Shape.Where.File, A.Shape.Where.Offset) <
             std::tie(B.Shape.Where.File, B.Shape.Where.Offset);
    });
    if (Options.LaunchesOnly)
      return;
    if (Skipped)
      for (FrontEndNote &N : Skipped->notes())
        M.Notes.push_back(std::move(N));
    // Kernels first: helpers they call are analysed inside them, with the
    // kernel's block shape and actual arguments, and not again on their own.
    std::stable_partition(FC.Device.begin(), FC.Device.end(), [](const FunctionDecl *FD) {
      return FD->hasAttr<CUDAGlobalAttr>();
    });
    std::vector<const FunctionDecl *> Clean;
    for (const FunctionDecl *FD : FC.Device) {
      if (SM.isInSystemHeader(FD->getLocation()))
        continue;
      if (auto Stop = Attr.stopOf(FD)) {
        M.Skipped.push_back({FD->hasAttr<CUDAGlobalAttr>() ? SkippedFunction::Kind::Kernel
                                                           : SkippedFunction::Kind::Device,
                             functionName(FD), toSourcePos(SM, FD->getLocation()),
                             Stop->Error->Message, Stop->Error->Where,
                             patternOf(Stop->In) == patternOf(FD) ? "" : functionName(Stop->In)});
        continue;
      }
      Clean.push_back(FD);
    }
    for (FunctionModel &F : fromDeviceIR(Ctx, Clean, FC.Shared, Table, Shapes, OwnRoots, Calls)) {
      if (F.IsKernel && F.Accesses.empty() && F.NamesShared)
        M.Notes.push_back({F.Where, "kernel '" + F.Name +
                                        "' uses shared memory, but no access to it was "
                                        "recognised (its addresses are not modelled); nothing "
                                        "is reported for it"});
      if (F.Accesses.empty() && F.Barriers.empty())
        continue;
      M.Functions.push_back(std::move(F));
    }
  }

private:
  /// A root the device lowering left out, said at what stopped it. One that
  /// uses a __shared__ object with a constructor is said at the object:
  /// the note that its uses are not analysed goes (the function is not).
  void skipNotLowered(const NotLoweredRoot &N, const SourceManager &SM) {
    const FunctionDecl *FD = N.Decl;
    SourcePos Where = toSourcePos(SM, N.Where.isValid() ? N.Where : FD->getLocation());
    bool AtObject = N.Cause == SkippedFunction::Cause::SharedConstructor;
    Out.Model.Skipped.push_back({FD->hasAttr<CUDAGlobalAttr>() ? SkippedFunction::Kind::Kernel
                                                               : SkippedFunction::Kind::Device,
                                 functionName(FD),
                                 AtObject ? Where : toSourcePos(SM, FD->getLocation()), N.Why,
                                 Where, "", N.Cause});
    if (AtObject)
      llvm::erase_if(Out.Model.Notes, [&](const FrontEndNote &Note) {
        return Note.Where.File == Where.File && Note.Where.Offset == Where.Offset &&
               llvm::StringRef(Note.Message).contains(SharedConstructorText);
      });
  }

  /// One note per template whose instances no kernel runs (Clang leaves out
  /// every call of them): not analysed, said with --verbose.
  void noteNeverRun(const std::vector<const FunctionDecl *> &NeverRun, const SourceManager &SM) {
    llvm::MapVector<const FunctionDecl *, std::vector<std::string>> ByTemplate;
    for (const FunctionDecl *FD : NeverRun)
      ByTemplate[patternOf(FD)].push_back("'" + functionName(FD) + "'");
    for (const auto &[Pattern, Names] : ByTemplate) {
      FrontEndNote N;
      N.Where = toSourcePos(SM, Pattern->getLocation());
      N.Message = (Names.size() == 1 ? "device function " + Names[0]
                                     : std::to_string(Names.size()) + " instances of '" +
                                           Pattern->getNameAsString() + "' (" + llvm::join(Names, ", ") + ")") +
                  " not analysed: no kernel of this file runs " + (Names.size() == 1 ? "it" : "them") +
                  " (Clang leaves out every call, in code that cannot run such as what follows a "
                  "return under a constant condition, and nvcc compiles no code for " +
                  (Names.size() == 1 ? "it" : "them") + ")";
      N.VerboseOnly = true;
      Out.Model.Notes.push_back(std::move(N));
    }
  }

  /// The access models from Clang's optimised device IR: of every kernel,
  /// and of the device functions in OwnRoots (see ownRoots).
  std::vector<FunctionModel> fromDeviceIR(ASTContext &Ctx, const std::vector<const FunctionDecl *> &Fns,
                                          const std::vector<const VarDecl *> &Shared,
                                          const SharedArrayTable &Table, const BlockShapeFinder &Shapes,
                                          const llvm::DenseSet<const FunctionDecl *> &OwnRoots,
                                          const DeviceCalls &Calls) {
    std::vector<DeviceRoot> Roots;
    for (const FunctionDecl *FD : Fns)
      if (FD->hasAttr<CUDAGlobalAttr>() || OwnRoots.count(FD->getCanonicalDecl()))
        Roots.push_back({FD, Options.LaunchArguments && FD->hasAttr<CUDAGlobalAttr>()
                               ? Shapes.argumentsOf(FD)
                               : std::map<unsigned, BlockShapeFinder::FixedArgument>()});
    DeviceModels D = buildDeviceModels(CI, Ctx, Roots, Shared, Table, Out.Model.Arrays, Options.ToolkitDirs,
                                       {Options.Threads, Options.DevicePartInstructions, Options.DeviceMaxParts,
                                        Options.DumpDeviceIR, Options.DeviceModels});
    const SourceManager &SM = Ctx.getSourceManager();
    for (const NotLoweredRoot &N : D.NotLowered)
      skipNotLowered(N, SM);
    noteNeverRun(D.NeverRun, SM);
    // A helper with a model of its own is one that no lowered function
    // calls in the IR; when a lowered kernel calls it in the source all the
    // same, Clang left that call out (it is under a constant condition that
    // returns first): its barriers are judged in the kernels that run it.
    // Kernels Clang rejects, or that were not lowered, call nothing here.
    std::vector<const FunctionDecl *> Lowered;
    for (const FunctionDecl *FD : Fns)
      if (FD->hasAttr<CUDAGlobalAttr>() &&
          llvm::none_of(D.NotLowered, [&](const NotLoweredRoot &N) { return N.Decl == FD; }))
        Lowered.push_back(FD);
    llvm::DenseSet<const FunctionDecl *> FromKernels = calledByKernels(Calls, Lowered);
    llvm::DenseMap<const FunctionDecl *, BlockShape> Bounds = callersBounds(Calls, Shapes, Ctx.getLangOpts());
    std::vector<FunctionModel> Models;
    for (auto &[FD, F] : D.Functions) {
      F.CalledByKernel = !F.IsKernel && FromKernels.count(FD->getCanonicalDecl());
      withShapes(F, FD, Shapes);
      if (auto It = Bounds.find(FD->getCanonicalDecl()); !F.IsKernel && It != Bounds.end())
        F.BoundsShape = It->second;
      Models.push_back(std::move(F));
    }
    return Models;
  }

  static void withShapes(FunctionModel &F, const FunctionDecl *FD, const BlockShapeFinder &Shapes) {
    if (!F.IsKernel)
      return;
    F.LaunchShape = Shapes.launchShapeOf(FD);
    F.OtherLaunchShapes = Shapes.otherLaunchShapesOf(FD);
    F.BoundsShape = Shapes.boundsShapeOf(FD);
    F.BoundsIgnored = Shapes.ignoredBoundsOf(FD);
  }

  ParsedFile &Out;
  const DiagnosticCollector &Diags;
  const ModelOptions &Options;
  CompilerInstance &CI;
  const PreambleUserDecls *FromPreamble;
  const SkippedKernels *Skipped; ///< kernels the preprocessor left out, when recorded
  std::vector<Decl *> TopLevel; ///< handed to the consumer by this parse
};

class ModelAction : public ASTFrontendAction {
public:
  ModelAction(ParsedFile &Out, const DiagnosticCollector &Diags, const ModelOptions &Options)
      : Out(Out), Diags(Diags), Options(Options) {}
  /// Before the parse: the regions the preprocessor skips are recorded.
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Skipped.emplace(CI.getSourceManager(), Options.ToolkitDirs);
    CI.getFrontendOpts().SkipFunctionBodies = Options.LaunchesOnly;
    CI.getPreprocessor().addPPCallbacks(Skipped->callbacks());
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<ModelConsumer>(Out, Diags, Options, CI,
                                           PreambleDecls ? &*PreambleDecls : nullptr,
                                           Skipped ? &*Skipped : nullptr);
  }
  /// Over a preamble: its user headers' declarations, which runWithPreamble
  /// fills before the action runs.
  std::optional<PreambleUserDecls> PreambleDecls;

private:
  ParsedFile &Out;
  const DiagnosticCollector &Diags;
  const ModelOptions &Options;
  std::optional<SkippedKernels> Skipped;
};

} // namespace

/// The files Clang reads: the disk, under the in-memory prelude or shim and
/// the editor's unsaved buffers. An unsaved buffer's modification time is a
/// hash of its text, so that a preamble that read an older text is stale.
static llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
sourceFileSystem(const CudaSetup &Setup, const UnsavedFiles *Unsaved) {
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  for (const auto &[Path, Text] : virtualFiles(Setup))
    Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  if (Unsaved)
    for (const auto &[Path, Text] : Unsaved->all())
      Memory->addFile(Path, time_t(llvm::xxh3_64bits(Text) >> 33) + 1,
                      llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  return Overlay;
}

ParsedFile parseCudaFile(const std::string &File, const std::vector<std::string> &Command,
                         const CudaSetup &Setup, const ModelOptions &Given) {
  ParsedFile Result;
  ModelOptions Options = Given;
  Options.ToolkitDirs = {Setup.ResourceDir, preludeDirectory()};
  if (!Setup.CudaPath.empty())
    Options.ToolkitDirs.push_back(Setup.CudaPath + "/include");
  auto Overlay = sourceFileSystem(Setup, Options.Unsaved.get());
  std::vector<std::string> Args = deviceSideCommand(Command, Setup);
  std::optional<bool> Ok;
  if (Options.Preambles) {
    DiagnosticCollector Diags;
    ModelAction Action(Result, Diags, Options);
    Ok = runWithPreamble(*Options.Preambles, Args, Overlay, Action, Diags,
                         Action.PreambleDecls.emplace());
    if (Ok && !*Ok && Diags.Errors.empty())
      Ok.reset(); // rejected without a word: parse the whole file, as below
    if (Ok)
      Ok = true;
    else
      Result = ParsedFile();
  }
  if (!Ok) {
    auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Overlay);
    DiagnosticCollector Diags;
    tooling::ToolInvocation Invocation(Args, std::make_unique<ModelAction>(Result, Diags, Options),
                                       Files.get());
    Invocation.setDiagnosticConsumer(&Diags);
    Ok = Invocation.run() || !Diags.Errors.empty();
  }
  if (!*Ok) {
    Result.Failed = true; // the command itself was rejected
    Result.FirstError = "Clang could not process '" + File + "'";
    Result.ErrorText = "error: " + Result.FirstError + "\n";
  }
  return Result;
}

} // namespace cbl
