//===- Uniformity.cpp - which values can differ between threads -----------===//
//
// The uniformity half of FunctionWalker: whether an expression, a load or a
// pointer can give different threads of a warp different values. Conditions
// on uniform values are decided per warp, not per lane.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"
#include "WalkerSupport.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cbl {

bool FunctionWalker::loadVaries(const Expr *LV) {
  if (auto Loc = lvalOf(LV))
    return isThreadVarying(Loc->ByteOffset);
  if (const auto *ME = dyn_cast<MemberExpr>(LV->IgnoreParens()))
    if (auto OM = objectMember(ME)) {
      const ObjectState &O = Vars.Objects[OM->first];
      auto It = O.Ints.find(OM->second);
      if (It != O.Ints.end())
        return isThreadVarying(It->second);
    }
  return !uniformAddress(LV);
}

SymRef FunctionWalker::uniformityMarker(const VarDecl *VD, bool Varying) {
  std::string N = VD->getNameAsString();
  std::string Why = "'" + N + "' is not an integer; only whether it can differ between threads is tracked";
  return Varying ? SymExpr::varying(N, Why, IntType::i64()) : SymExpr::uniform(N, Why, IntType::i64());
}

/// Results of these calls differ between threads whatever their arguments.
static bool isThreadVaryingBuiltin(llvm::StringRef Name) {
  return Name.contains("shfl") || Name.contains("ballot") || Name.contains("_any") ||
         Name.contains("_all") || Name.starts_with("atomic") || Name.starts_with("__atomic") ||
         Name.contains("clock") || Name == "__activemask" || Name.contains("lane") ||
         Name == "thread_rank" || Name == "thread_index" || Name.contains("match") ||
         Name.contains("reduce") || Name.starts_with("curand");
}

bool FunctionWalker::threadVarying(const Expr *E) {
  E = skipDefaults(E);
  if (E->isValueDependent())
    return true;
  if (!E->HasSideEffects(Ctx) && E->isEvaluatable(Ctx))
    return false;
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    SymRef Leaf = builtinVarMember(POE);
    return !Leaf || isThreadVarying(Leaf);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false; // functions, enumerators
    auto It = Vars.Ints.find(VD);
    if (It != Vars.Ints.end())
      return isThreadVarying(It->second);
    auto Ref = Vars.Refs.find(VD);
    if (Ref != Vars.Refs.end())
      return isThreadVarying(Ref->second.ByteOffset);
    if (Vars.Ptrs.count(VD))
      return isThreadVarying(Vars.Ptrs.find(VD)->second.ByteOffset);
    return !uniformAddress(E) && !isSharedVar(VD);
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_LValueToRValue) {
      const Expr *Sub = ICE->getSubExpr()->IgnoreParens();
      if (isa<DeclRefExpr>(Sub))
        return threadVarying(Sub);
      return loadVaries(Sub);
    }
    return threadVarying(ICE->getSubExpr());
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isThreadVaryingBuiltin(Callee->getName()))
      return true;
    for (const Expr *Arg : Call->arguments())
      if (threadVarying(Arg))
        return true;
    // A user function may read threadIdx itself; library math may not.
    return Callee->hasBody() && !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation());
  }
  if (E->getType()->isIntegralOrEnumerationType() && isa<ArraySubscriptExpr>(E))
    return isThreadVarying(intOf(E));
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (threadVarying(CE))
        return true;
  return false;
}

// A load from global, constant or parameter memory at such an address gives
// every thread the same value (barring a data race, which is a bug of its
// own), so conditions on it are uniform. Per-thread storage (locals, local
// arrays) and pointers the walker does not track are never uniform here.
bool FunctionWalker::uniformAddress(const Expr *LV) {
  LV = LV->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LV)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType()->isReferenceType())
      return false;
    // A parameter of the kernel itself (not of a helper walked in place).
    const auto *Owner = dyn_cast<FunctionDecl>(VD->getDeclContext());
    return (VD->hasGlobalStorage() && !VD->isStaticLocal()) ||
           (isa<ParmVarDecl>(VD) && Owner && Owner->hasAttr<CUDAGlobalAttr>());
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LV))
    return ASE->getIdx()->getType()->isIntegralOrEnumerationType() &&
           !isThreadVarying(intOf(ASE->getIdx())) && uniformPointer(ASE->getBase());
  if (const auto *ME = dyn_cast<MemberExpr>(LV))
    return ME->isArrow() ? uniformPointer(ME->getBase()) : uniformAddress(ME->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(LV))
    return UO->getOpcode() == UO_Deref && uniformPointer(UO->getSubExpr());
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(LV))
    return (ICE->getCastKind() == CK_NoOp || ICE->getCastKind() == CK_UncheckedDerivedToBase ||
            ICE->getCastKind() == CK_DerivedToBase) &&
           uniformAddress(ICE->getSubExpr());
  return false;
}

bool FunctionWalker::uniformPointer(const Expr *P) {
  P = P->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(P)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return uniformAddress(CE->getSubExpr());
    case CK_LValueToRValue:
      // A pointer read from a uniform address (a kernel parameter, a global).
      return uniformAddress(CE->getSubExpr());
    case CK_NoOp:
    case CK_BitCast:
    case CK_AddressSpaceConversion:
      return uniformPointer(CE->getSubExpr());
    default:
      return false;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return false;
    const Expr *Ptr = BO->getLHS(), *Idx = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Idx);
    return Ptr->getType()->isPointerType() && Idx->getType()->isIntegralOrEnumerationType() &&
           !isThreadVarying(intOf(Idx)) && uniformPointer(Ptr);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->getOpcode() == UO_AddrOf && uniformAddress(UO->getSubExpr());
  return false;
}

} // namespace cbl
