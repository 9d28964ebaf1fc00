//===- HelperInlining.cpp - Helpers analysed at their call sites ----------===//
//
// A device function called from a kernel is walked in place, with its
// parameters bound to the actual arguments (shared pointers, references,
// indices) and under the caller's guards, so its accesses get the kernel's
// block shape; its returned value or pointer (SharedMemory<T>, index
// helpers, lambdas returning references) is captured for the caller.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"
#include "WalkerSupport.h"

#include "clang/AST/Attr.h"

using namespace clang;

namespace cbl {

static bool mentionsShared(const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
        Found |= isSharedVar(VD);
      return !Found;
    }
    bool VisitVarDecl(VarDecl *VD) {
      Found |= isSharedVar(VD);
      return !Found;
    }
  } F;
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

bool FunctionWalker::inlineCall(const CallExpr *Call, const FunctionDecl *Callee) {
  if (!Callee || !Callee->hasBody() || Callee->hasAttr<CUDAGlobalAttr>() ||
      InlineStack.size() >= 6 || llvm::is_contained(InlineStack, Callee) || Callee == Fn)
    return false;
  const FunctionDecl *Def = nullptr;
  Callee->hasBody(Def);
  if (!Def || Def->isDependentContext())
    return false;
  // Worth analysing in place: it receives shared memory, touches it, or
  // computes a value (an index or a pointer) the caller uses.
  bool SharedArg = false;
  unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def) ? 1 : 0;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
    if (ptrOf(Call->getArg(I)) || lvalOf(Call->getArg(I)))
      SharedArg = true;
  QualType Ret = Def->getReturnType();
  auto Mentions = MentionsShared.find(Def);
  if (Mentions == MentionsShared.end())
    Mentions = MentionsShared.try_emplace(Def, mentionsShared(Def)).first;
  if (!SharedArg && !Mentions->second && !Ret->isIntegralOrEnumerationType() &&
      !Ret->isPointerType())
    return false;

  // Bind the parameters to the arguments, in the caller's context.
  Env Saved = Vars;
  for (unsigned I = 0; I < Def->getNumParams() && I + Offset < Call->getNumArgs(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const Expr *Arg = Call->getArg(I + Offset);
    if (P->getType()->isReferenceType()) {
      if (auto L = lvalOf(Arg))
        Vars.Refs[P] = *L;
      else if (P->getType().getNonReferenceType()->isIntegralOrEnumerationType())
        Vars.Ints[P] = intOf(Arg);
    } else if (P->getType()->isPointerType()) {
      if (auto Ptr = ptrOf(Arg))
        Vars.Ptrs[P] = *Ptr;
    } else if (P->getType()->isIntegralOrEnumerationType()) {
      Vars.Ints[P] = SymExpr::cast(intOf(Arg), intTypeOf(P->getType()));
    }
  }
  // The callee runs where the call is: under the caller's guards. Its
  // returns end the callee, not the caller.
  SymRef SavedAlive = Alive;
  bool PushedAlive = !isTrue(Alive);
  if (PushedAlive)
    Path.push_back(Guard{Alive, false, SourcePos(), "reached"});
  size_t ExitsBefore = Exits.size();
  const FunctionDecl *SavedFn = Fn;
  bool SavedKernel = InKernel;
  Fn = Def;
  InlineStack.push_back(Def);
  CallSites.push_back({pos(Call->getBeginLoc()), Def->getNameAsString()});
  Returns.push_back(ReturnCapture());
  Alive = trueValue();
  walkStmt(Def->getBody());
  ReturnCapture R = Returns.back();
  Returns.pop_back();
  InlineStack.pop_back();
  CallSites.pop_back();
  Fn = SavedFn;
  InKernel = SavedKernel;
  Exits.resize(ExitsBefore);
  if (PushedAlive)
    Path.pop_back();
  Alive = SavedAlive;
  Vars = Saved;
  if (R.Count == 1) {
    if (R.Value)
      CallValues[Call] = R.Value;
    if (R.Pointer)
      CallPointers[Call] = *R.Pointer;
  }
  if (Recording)
    InlinedFunctions.insert(Def->getCanonicalDecl());
  return true;
}

void FunctionWalker::captureReturn(const ReturnStmt *Ret) {
  if (Returns.empty())
    return;
  ReturnCapture &R = Returns.back();
  ++R.Count;
  const Expr *V = Ret->getRetValue();
  if (!V)
    return;
  if (Fn && Fn->getReturnType()->isReferenceType())
    R.Pointer = lvalOf(V); // a returned reference: the location itself
  else if (V->getType()->isPointerType())
    R.Pointer = ptrOf(V);
  else if (V->getType()->isIntegralOrEnumerationType())
    R.Value = intOf(V);
}

} // namespace cbl
