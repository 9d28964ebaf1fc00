//===- LaunchSites.cpp - The launches host code makes, in any form ---------===//
#include "LaunchSites.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cbl {

std::optional<LaunchForm> runtimeLaunchForm(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || !FD->getIdentifier() || !SM.isInSystemHeader(FD->getLocation()))
    return std::nullopt;
  // The _ptsz names: the same functions with per-thread default streams.
  return llvm::StringSwitch<std::optional<LaunchForm>>(FD->getName())
      .Cases("cudaLaunchKernel", "cudaLaunchKernel_ptsz", LaunchForm::Runtime)
      .Cases("cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz", LaunchForm::Cooperative)
      .Cases("cudaLaunchKernelEx", "cudaLaunchKernelExC", "cudaLaunchKernelExC_ptsz", LaunchForm::Extended)
      .Default(std::nullopt);
}

const Expr *launchConfigArgument(const CallExpr *C, LaunchForm Form) {
  return Form == LaunchForm::Extended && C->getNumArgs() >= 1 ? C->getArg(0) : nullptr;
}

namespace {

/// What sets member Name of the cudaLaunchConfig_t that Config points to
/// (&cfg of a local), at launch C: the one plain assignment of that whole
/// member standing directly in the function's body before the launch, or,
/// with no write of it, cfg's initialiser's; null otherwise (LaunchSites.h).
const Expr *configMember(const Expr *Config, llvm::StringRef Name, const CallExpr *C, const HostWrites &W,
                         const SourceManager &SM) {
  const auto *UO = dyn_cast<UnaryOperator>(Config->IgnoreParenImpCasts());
  const VarDecl *VD = UO && UO->getOpcode() == UO_AddrOf ? referencedVar(UO->getSubExpr()) : nullptr;
  const RecordDecl *RD = VD ? VD->getType()->getAsRecordDecl() : nullptr;
  if (!RD || !VD->isLocalVarDecl() || VD->isStaticLocal())
    return nullptr;
  const FieldDecl *Field = nullptr;
  for (const FieldDecl *F : RD->fields())
    if (F->getIdentifier() && F->getName() == Name)
      Field = F;
  if (!Field)
    return nullptr;
  auto Members = W.Members.find(VD);
  auto Of = W.Of.find(VD);
  size_t MemberWrites = Members == W.Members.end() ? 0 : Members->second.size();
  if ((Of == W.Of.end() ? 0 : Of->second.Count) != MemberWrites)
    return nullptr; // written whole (cfg = other), or its address taken
  const HostWrites::MemberWrite *Sole = nullptr;
  for (size_t I = 0; I < MemberWrites; ++I) {
    const HostWrites::MemberWrite &M = Members->second[I];
    if (M.Field != Field)
      continue;
    if (Sole)
      return nullptr; // written twice
    Sole = &M;
  }
  if (Sole)
    return Sole->Whole && Sole->Value && W.topLevelBefore(Sole->At, C->getBeginLoc(), C->getBeginLoc(), SM)
               ? Sole->Value
               : nullptr;
  // Never written: what the initialiser gives it (aggregate or designated).
  const auto *ILE = dyn_cast_or_null<InitListExpr>(withoutCopies(VD->getInit()));
  unsigned I = Field->getFieldIndex();
  return ILE && I < ILE->getNumInits() ? ILE->getInit(I) : nullptr;
}

} // namespace

std::optional<LaunchRecord> launchOf(const CallExpr *C, const HostWrites &W, ASTContext &Ctx) {
  if (!C || C->isTypeDependent() || C->isValueDependent() || C->containsErrors())
    return std::nullopt;
  LaunchRecord R;
  R.Call = C;
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(C)) {
    if (!K->getConfig() || K->getConfig()->getNumArgs() < 2)
      return std::nullopt;
    R.Kernel = K->getCallee();
    R.Grid = K->getConfig()->getArg(0);
    R.Block = K->getConfig()->getArg(1);
    R.Args = llvm::ArrayRef<const Expr *>(K->getArgs(), K->getNumArgs());
    return R;
  }
  const FunctionDecl *FD = C->getDirectCallee();
  std::optional<LaunchForm> Form = runtimeLaunchForm(FD, Ctx.getSourceManager());
  if (!Form)
    return std::nullopt;
  R.Form = *Form;
  if (const Expr *Config = launchConfigArgument(C, *Form)) {
    // (config, kernel, args...) in C++, (config, func, void **args) in C.
    if (C->getNumArgs() < 2)
      return std::nullopt;
    R.Kernel = C->getArg(1);
    R.Grid = configMember(Config, "gridDim", C, W, Ctx.getSourceManager());
    R.Block = configMember(Config, "blockDim", C, W, Ctx.getSourceManager());
    if (FD->isTemplateInstantiation())
      R.Args = llvm::ArrayRef<const Expr *>(C->getArgs() + 2, C->getNumArgs() - 2);
    return R;
  }
  // (func, gridDim, blockDim, void **args, sharedMem, stream).
  if (C->getNumArgs() < 3)
    return std::nullopt;
  R.Kernel = C->getArg(0);
  R.Grid = C->getArg(1);
  R.Block = C->getArg(2);
  return R;
}

const FunctionDecl *namedKernel(const LaunchRecord &L) {
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(L.Call))
    return K->getDirectCallee();
  const Expr *E = L.Kernel->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  return FD && FD->hasAttr<CUDAGlobalAttr>() ? FD : nullptr;
}

} // namespace cbl
