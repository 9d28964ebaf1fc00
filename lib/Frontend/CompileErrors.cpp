//===- CompileErrors.cpp - Which code Clang's errors stop ------------------===//
#include "CompileErrors.h"

#include "SharedArrays.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"

#include <map>

using namespace clang;

namespace cbl {

namespace {

bool isDeviceSide(const FunctionDecl *FD) {
  return FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>();
}

/// What the analysis leaves out when Clang rejects a construct nvcc accepts;
/// empty for every other error.
std::string benignEffect(const Diagnostic &Info, llvm::StringRef Message) {
  unsigned ID = Info.getID();
  if ((ID == diag::err_attribute_wrong_number_arguments ||
       ID == diag::err_attribute_too_many_arguments ||
       ID == diag::err_attribute_too_few_arguments) &&
      Info.hasSourceManager() && Info.getLocation().isValid() &&
      Info.getSourceManager().isInSystemHeader(Info.getLocation()))
    // GCC's omp.h: __attribute__((__malloc__(omp_free))), a GCC 11 form.
    return "Clang does not accept an attribute of a system header that the host compiler "
           "accepts; the attribute is ignored";
  if (ID == diag::err_attributes_not_allowed)
    // `__shared__ alignas(16) float s[N]`: Clang drops the attribute list.
    return "Clang ignores an attribute list at this position (nvcc accepts it, e.g. "
           "'alignas' after '__shared__'); the variable keeps the alignment of its type";
  if (ID == diag::err_shared_var_init)
    // `__shared__ cuda::barrier<...> bar;`: nvcc warns (#20054) and does not
    // run the constructor; Clang marks the variable invalid.
    return std::string(SharedConstructorText) + ": its uses are not analysed";
  if (ID == diag::err_ref_bad_target && Message.starts_with("reference to __global__ function"))
    return "a kernel launch from device code (dynamic parallelism); the child launch is not "
           "analysed";
  return "";
}

/// Function definitions by file, as byte ranges after macro expansion.
struct FunctionRanges : RecursiveASTVisitor<FunctionRanges> {
  struct Range {
    unsigned Begin, End;
    const FunctionDecl *FD;
  };
  explicit FunctionRanges(const SourceManager &SM) : SM(SM) {}
  const SourceManager &SM;
  std::map<std::string, std::vector<Range>> ByFile;

  void add(const FunctionDecl *FD, SourceRange R) {
    SourceLocation B = SM.getFileLoc(R.getBegin()), E = SM.getFileLoc(R.getEnd());
    if (B.isInvalid() || E.isInvalid() || SM.getFileID(B) != SM.getFileID(E))
      return;
    ByFile[SM.getFilename(B).str()].push_back({SM.getFileOffset(B), SM.getFileOffset(E), FD});
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      add(FD, FD->getSourceRange());
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    // The call operator is implicit code: give it the lambda's range, so an
    // error in a device lambda belongs to the lambda, not to its host parent.
    add(LE->getCallOperator(), LE->getSourceRange());
    return RecursiveASTVisitor::TraverseLambdaExpr(LE);
  }
  const FunctionDecl *innermost(const std::string &File, unsigned Offset) const {
    auto It = ByFile.find(File);
    if (It == ByFile.end())
      return nullptr;
    const Range *Best = nullptr;
    for (const Range &R : It->second)
      if (R.Begin <= Offset && Offset <= R.End && (!Best || R.End - R.Begin < Best->End - Best->Begin))
        Best = &R;
    return Best ? Best->FD : nullptr;
  }
};

/// The functions a body calls directly (constructors included).
struct Callees : RecursiveASTVisitor<Callees> {
  std::vector<const FunctionDecl *> Found;
  void add(const FunctionDecl *FD) {
    const FunctionDecl *Def = nullptr;
    if (FD && FD->hasBody(Def) && Def)
      Found.push_back(Def);
  }
  bool VisitCallExpr(CallExpr *C) {
    add(C->getDirectCallee());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    add(C->getConstructor());
    return true;
  }
};

} // namespace

const FunctionDecl *patternOf(const FunctionDecl *FD) {
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  return FD->getCanonicalDecl();
}

std::string functionName(const FunctionDecl *FD) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, FD->getASTContext().getPrintingPolicy(), /*Qualified=*/true);
  return OS.str();
}

DiagnosticCollector::DiagnosticCollector()
    : OS(std::make_unique<llvm::raw_string_ostream>(Buffer)),
      Printer(std::make_unique<TextDiagnosticPrinter>(*OS, new DiagnosticOptions())) {}

void DiagnosticCollector::BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) {
  Printer->BeginSourceFile(LO, PP);
}

void DiagnosticCollector::EndSourceFile() { Printer->EndSourceFile(); }

void DiagnosticCollector::HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level < DiagnosticsEngine::Error && Level != DiagnosticsEngine::Note)
    return;
  if (Level == DiagnosticsEngine::Note && Errors.empty())
    return;
  Buffer.clear();
  Printer->HandleDiagnostic(Level, Info);
  OS->flush();
  if (Level == DiagnosticsEngine::Note) {
    Errors.back().Text += Buffer; // notes belong to the preceding error
    return;
  }
  ClangError E;
  E.Text = Buffer;
  E.Fatal = Level == DiagnosticsEngine::Fatal;
  llvm::SmallString<128> Message;
  Info.FormatDiagnostic(Message);
  E.Message = Message.str().str();
  E.Benign = benignEffect(Info, E.Message);
  if (Info.getID() == diag::err_pp_file_not_found && Info.getNumArgs() > 0 &&
      Info.getArgKind(0) == DiagnosticsEngine::ak_std_string)
    E.MissingHeader = Info.getArgStdStr(0);
  if (Info.hasSourceManager() && Info.getLocation().isValid()) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation L = SM.getFileLoc(Info.getLocation());
    E.File = SM.getFilename(L).str();
    E.Offset = SM.getFileOffset(L);
    E.Where = toSourcePos(SM, L);
  }
  Errors.push_back(std::move(E));
}

ErrorAttribution::ErrorAttribution(ASTContext &Ctx, const std::vector<ClangError> &Errors) {
  if (Errors.empty())
    return;
  FunctionRanges Ranges(Ctx.getSourceManager());
  Ranges.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const ClangError &E : Errors) {
    if (!E.Benign.empty()) {
      if (const FunctionDecl *FD = E.Fatal ? nullptr : Ranges.innermost(E.File, E.Offset))
        BenignIn.push_back({FD, &E});
      continue;
    }
    const FunctionDecl *FD = E.Fatal ? nullptr : Ranges.innermost(E.File, E.Offset);
    if (!FD) {
      Global.push_back(&E);
      continue;
    }
    const FunctionDecl *Key = patternOf(FD);
    if (Own.count(Key))
      continue; // the first error of a function is the one reported
    Own[Key] = &E;
    (isDeviceSide(FD) ? Device : Host).push_back({FD, &E});
  }
}

std::optional<ErrorAttribution::Stop> ErrorAttribution::stopOf(const FunctionDecl *FD) {
  if (Device.empty() || !FD)
    return std::nullopt;
  return search(FD, 0);
}

std::optional<ErrorAttribution::Stop> ErrorAttribution::search(const FunctionDecl *FD,
                                                               unsigned Depth) {
  auto Memoised = Memo.find(FD);
  if (Memoised != Memo.end())
    return Memoised->second;
  Memo[FD] = std::nullopt; // a recursive call does not stop itself
  std::optional<Stop> Result;
  auto OwnIt = Own.find(patternOf(FD));
  if (OwnIt != Own.end() && isDeviceSide(FD)) {
    Result = Stop{OwnIt->second, FD};
  } else if (Depth < 64 && FD->getBody()) {
    Callees C;
    C.TraverseStmt(FD->getBody());
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        C.TraverseStmt(Init->getInit());
    for (const FunctionDecl *Callee : C.Found)
      if ((Result = search(Callee, Depth + 1)))
        break;
  }
  Memo[FD] = Result;
  return Result;
}

} // namespace cbl
