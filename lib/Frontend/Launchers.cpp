//===- Launchers.cpp - Launches made through generic launchers ------------===//
#include "Launchers.h"

#include "clang/AST/Attr.h"

#include <algorithm>

using namespace clang;

namespace cbl {

namespace {

/// The function whose body holds S, a call the scan recorded.
const FunctionDecl *enclosingFunction(const Stmt *S, const HostWrites &W) {
  HostWrites::Node Node = S;
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    Node = W.parentOf(Node);
    if (!Node)
      return nullptr;
    if (const auto *D = Node.dyn_cast<const Decl *>())
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        return FD;
  }
  return nullptr;
}

void namedKernels(const Expr *E, const BoundCall *Frame, const HostWrites &W, unsigned Depth, KernelNames &Out) {
  if (!E || Depth > 12)
    return;
  E = E->IgnoreParenCasts();
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return namedKernels(Subst->getReplacement(), Frame, W, Depth + 1, Out);
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    return namedKernels(UO->getSubExpr(), Frame, W, Depth + 1, Out);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    namedKernels(CO->getTrueExpr(), Frame, W, Depth + 1, Out);
    return namedKernels(CO->getFalseExpr(), Frame, W, Depth + 1, Out);
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return;
  if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
    if (FD->hasAttr<CUDAGlobalAttr>() &&
        std::find(Out.Kernels.begin(), Out.Kernels.end(), FD) == Out.Kernels.end())
      Out.Kernels.push_back(FD);
    return;
  }
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->getType()->isPointerType())
    return;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    const BoundCall *Scope = Frame;
    if (W.isWritten(P))
      return;
    if (const Expr *Arg = boundArgument(P, Scope))
      return namedKernels(Arg, Scope, W, Depth + 1, Out);
    Out.NeedsCaller = true;
    return;
  }
  // A local function pointer: every value it is given (all writes plain).
  if (!VD->isLocalVarDecl() || VD->isStaticLocal())
    return;
  auto It = W.Of.find(VD);
  if (It != W.Of.end() && It->second.Assigned.size() != It->second.Count)
    return;
  if (VD->getInit())
    namedKernels(VD->getInit(), Frame, W, Depth + 1, Out);
  if (It != W.Of.end())
    for (const Expr *Value : It->second.Assigned)
      namedKernels(Value, Frame, W, Depth + 1, Out);
}

} // namespace

KernelNames kernelsNamed(const Expr *E, const BoundCall *Frame, const HostWrites &W) {
  KernelNames Out;
  namedKernels(E, Frame, W, 0, Out);
  return Out;
}

const BoundCall *LauncherCalls::frames(const std::vector<const CallExpr *> &Chain) {
  const BoundCall *Outer = nullptr;
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const CallExpr *C = *It;
    Frames.push_back(BoundCall{C->getDirectCallee(),
                               llvm::ArrayRef<const Expr *>(C->getArgs(), C->getNumArgs()),
                               C->getBeginLoc(), Outer});
    Outer = &Frames.back();
  }
  return Outer;
}

void LauncherCalls::extend(const LaunchRecord &L, std::vector<const CallExpr *> &Chain,
                           const std::function<bool(const BoundCall *)> &Complete,
                           std::vector<IndirectLaunch> &Out) {
  if (++Chains > MaxLauncherChains)
    return;
  const BoundCall *Frame = frames(Chain);
  KernelNames Names = kernelsNamed(L.Kernel, Frame, W);
  bool Done = !Names.Kernels.empty() && !Names.NeedsCaller && Complete(Frame);
  // The calls of the outermost function, each binding its parameters.
  const Stmt *Outer = Chain.empty() ? static_cast<const Stmt *>(L.Call) : Chain.back();
  const FunctionDecl *Outermost = enclosingFunction(Outer, W);
  auto Calls = Outermost ? W.Calls.find(Outermost->getCanonicalDecl()) : W.Calls.end();
  bool CanExtend = !Done && Chain.size() < MaxLauncherDepth && Calls != W.Calls.end() &&
                   (Names.NeedsCaller || !Names.Kernels.empty());
  if (CanExtend) {
    unsigned Followed = 0;
    for (const CallExpr *C : Calls->second) {
      if (++Followed > MaxLauncherCalls)
        break;
      Chain.push_back(C);
      extend(L, Chain, Complete, Out);
      Chain.pop_back();
    }
    return;
  }
  for (const FunctionDecl *Kernel : Names.Kernels)
    Out.push_back({Kernel, &L, Frame});
}

std::vector<IndirectLaunch> LauncherCalls::follow(const LaunchRecord &L,
                                                  const std::function<bool(const BoundCall *)> &Complete) {
  std::vector<IndirectLaunch> Out;
  std::vector<const CallExpr *> Chain;
  Chains = 0;
  extend(L, Chain, Complete, Out);
  return Out;
}

} // namespace cbl
