//===- ModelBuilder.cpp - Device-side parse and access-model construction --===//
#include "cuda-bank-lint/Frontend/ModelBuilder.h"
#include "BlockShapes.h"
#include "FunctionWalker.h"
#include "SharedArrays.h"
#include "UserCodeVisitor.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace cbl {

namespace {

/// A byte range of one file, comparable after the SourceManager is gone.
struct FileRange {
  std::string File;
  unsigned Begin = 0, End = 0;
  std::string Function;
};

/// Buffers Clang's diagnostics as text and remembers where each error is, so
/// that errors inside host-only functions can be told apart afterwards.
class CollectingDiagnostics : public DiagnosticConsumer {
public:
  struct Entry {
    DiagnosticsEngine::Level Level;
    std::string File;
    unsigned Offset = 0;
    std::string Text;
  };
  std::vector<Entry> Entries;

  CollectingDiagnostics() : OS(Buffer), Printer(OS, new DiagnosticOptions()) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error && Level != DiagnosticsEngine::Note)
      return;
    if (Level == DiagnosticsEngine::Note && (Entries.empty()))
      return;
    Buffer.clear();
    Printer.HandleDiagnostic(Level, Info);
    OS.flush();
    if (Level == DiagnosticsEngine::Note) {
      Entries.back().Text += Buffer; // notes belong to the preceding error
      return;
    }
    Entry E;
    E.Level = Level;
    E.Text = Buffer;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      SourceLocation L = SM.getFileLoc(Info.getLocation());
      E.File = SM.getFilename(L).str();
      E.Offset = SM.getFileOffset(L);
    }
    Entries.push_back(std::move(E));
  }

private:
  std::string Buffer;
  llvm::raw_string_ostream OS;
  TextDiagnosticPrinter Printer;
};

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
    (isDeviceFunction(FD) ? Device : Host).push_back(FD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (isSharedVar(VD) && !VD->getDeclContext()->isDependentContext())
      Shared.push_back(VD);
    return true;
  }
};

/// Host-only function definitions declared in system headers, found by
/// walking declaration contexts only (no statements, no types).
void systemHostFunctions(const DeclContext *DC, const SourceManager &SM,
                         std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    bool System = D->getLocation().isValid() && SM.isInSystemHeader(D->getLocation());
    if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
      D = FTD->getTemplatedDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (System && FD->doesThisDeclarationHaveABody() && !isDeviceFunction(FD))
        Out.push_back(FD);
      continue;
    }
    if (const auto *CTD = dyn_cast<ClassTemplateDecl>(D))
      D = CTD->getTemplatedDecl();
    if (const auto *Inner = dyn_cast<DeclContext>(D))
      if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) || isa<CXXRecordDecl>(D))
        systemHostFunctions(Inner, SM, Out);
  }
}

/// Direct barriers and calls of every device function, closed transitively.
BarrierIndex indexBarriers(ASTContext &Ctx, const std::vector<const FunctionDecl *> &Fns) {
  struct Scan : RecursiveASTVisitor<Scan> {
    const SourceManager &SM;
    std::optional<SourcePos> First;
    std::vector<const FunctionDecl *> Callees;
    explicit Scan(const SourceManager &SM) : SM(SM) {}
    bool VisitCallExpr(CallExpr *C) {
      if (blockBarrierSpelling(C)) {
        if (!First)
          First = toSourcePos(SM, C->getBeginLoc());
      } else if (const FunctionDecl *F = C->getDirectCallee()) {
        Callees.push_back(F->getCanonicalDecl());
      }
      return true;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *S) {
      if (isBlockBarrierAsm(S) && !First)
        First = toSourcePos(SM, S->getBeginLoc());
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  };
  BarrierIndex Index;
  std::vector<std::pair<const FunctionDecl *, std::vector<const FunctionDecl *>>> Calls;
  for (const FunctionDecl *FD : Fns) {
    Scan S(Ctx.getSourceManager());
    S.TraverseStmt(FD->getBody());
    if (S.First)
      Index[FD->getCanonicalDecl()] = *S.First;
    Calls.push_back({FD->getCanonicalDecl(), std::move(S.Callees)});
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Caller, Callees] : Calls) {
      if (Index.count(Caller))
        continue;
      for (const FunctionDecl *Callee : Callees) {
        auto It = Index.find(Callee);
        if (It != Index.end()) {
          Index[Caller] = It->second;
          Changed = true;
          break;
        }
      }
    }
  }
  return Index;
}

class ModelConsumer : public ASTConsumer {
public:
  ModelConsumer(ParsedFile &Out, std::vector<FileRange> &HostRanges, const ModelOptions &Options)
      : Out(Out), HostRanges(HostRanges), Options(Options) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    FunctionCollector FC(SM);
    FC.TraverseDecl(Ctx.getTranslationUnitDecl());
    // Host functions of system headers too (without walking their bodies):
    // Clang errors there are host-only errors as well.
    systemHostFunctions(Ctx.getTranslationUnitDecl(), SM, FC.Host);
    for (const FunctionDecl *FD : FC.Host) {
      SourceRange R = FD->getSourceRange();
      SourceLocation B = SM.getFileLoc(R.getBegin()), E = SM.getFileLoc(R.getEnd());
      if (B.isInvalid() || E.isInvalid() || SM.getFileID(B) != SM.getFileID(E))
        continue;
      HostRanges.push_back({SM.getFilename(B).str(), SM.getFileOffset(B), SM.getFileOffset(E),
                            FD->getQualifiedNameAsString()});
    }
    TranslationUnitModel &M = Out.Model;
    if (auto FE = SM.getFileEntryRefForID(SM.getMainFileID()))
      M.MainFile = FE->getName().str();
    SharedArrayTable Table(Ctx);
    for (const VarDecl *VD : FC.Shared)
      if (!SM.isInSystemHeader(VD->getLocation()))
        Table.add(VD, M.Arrays);
    BarrierIndex Barriers = indexBarriers(Ctx, FC.Device);
    BlockShapeFinder Shapes(Ctx);
    FunctionWalker Walker(Ctx, Table, M.Arrays, Barriers);
    // Kernels first: helpers they call are analysed inside them, with the
    // kernel's block shape and actual arguments, and not again on their own.
    std::stable_partition(FC.Device.begin(), FC.Device.end(), [](const FunctionDecl *FD) {
      return FD->hasAttr<CUDAGlobalAttr>();
    });
    for (const FunctionDecl *FD : FC.Device) {
      if (SM.isInSystemHeader(FD->getLocation()))
        continue;
      if (Walker.InlinedFunctions.count(FD->getCanonicalDecl()))
        continue;
      FunctionModel F = Walker.walk(
          FD, Options.LaunchArguments ? Shapes.argumentsOf(FD)
                                      : std::map<unsigned, BlockShapeFinder::FixedArgument>());
      if (F.Accesses.empty() && F.Barriers.empty())
        continue;
      if (F.IsKernel)
        if (auto S = Shapes.shapeOf(FD))
          F.Shape = *S;
      M.Functions.push_back(std::move(F));
    }
  }

private:
  ParsedFile &Out;
  std::vector<FileRange> &HostRanges;
  const ModelOptions &Options;
};

class ModelAction : public ASTFrontendAction {
public:
  ModelAction(ParsedFile &Out, std::vector<FileRange> &HostRanges, const ModelOptions &Options)
      : Out(Out), HostRanges(HostRanges), Options(Options) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<ModelConsumer>(Out, HostRanges, Options);
  }

private:
  ParsedFile &Out;
  std::vector<FileRange> &HostRanges;
  const ModelOptions &Options;
};

} // namespace

ParsedFile parseCudaFile(const std::string &File, const std::vector<std::string> &Command,
                         const CudaSetup &Setup, const ModelOptions &Options) {
  ParsedFile Result;
  std::vector<FileRange> HostRanges;
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  for (const auto &[Path, Text] : virtualFiles(Setup))
    Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Overlay);

  CollectingDiagnostics Diags;
  tooling::ToolInvocation Invocation(deviceSideCommand(Command, Setup),
                                     std::make_unique<ModelAction>(Result, HostRanges, Options),
                                     Files.get());
  Invocation.setDiagnosticConsumer(&Diags);
  bool Ok = Invocation.run();

  // Sort errors into "inside a host-only function" and the rest.
  unsigned DeviceErrors = 0;
  for (const auto &E : Diags.Entries) {
    const FileRange *Host = nullptr;
    for (const FileRange &R : HostRanges)
      if (R.File == E.File && E.Offset >= R.Begin && E.Offset <= R.End)
        Host = &R;
    if (Host) {
      if (llvm::find(Result.SkippedHostFunctions, Host->Function) == Result.SkippedHostFunctions.end())
        Result.SkippedHostFunctions.push_back(Host->Function);
      Result.HostErrorText += E.Text;
      continue;
    }
    ++DeviceErrors;
    Result.ErrorText += E.Text;
  }
  if (DeviceErrors || (!Ok && Diags.Entries.empty())) {
    Result.Failed = true;
    if (Result.ErrorText.empty())
      Result.ErrorText = "error: Clang could not process '" + File + "'\n";
  }
  return Result;
}

} // namespace cbl
