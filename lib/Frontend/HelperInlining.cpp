//===- HelperInlining.cpp - Helpers analysed at their call sites ----------===//
//
// A device function called from a kernel is walked in place, with its
// parameters bound to the actual arguments (shared pointers, references,
// indices, class objects) and `this` bound to the object it is called on,
// under the caller's guards, so its accesses get the kernel's block shape;
// its returned value or pointer (SharedMemory<T>, index helpers, lambdas
// returning references, TempStorage::Alias()) is captured for the caller.
// Constructors are walked the same way (ObjectModel.cpp). Integers the
// callee writes through reference parameters flow back to the caller.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"
#include "WalkerSupport.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cbl {

namespace {
/// Calls walked in place may nest this deep (library primitives are layers of
/// small member functions: BlockReduce -> BlockReduceWarpReductions -> ...).
constexpr unsigned MaxInlineDepth = 24;
/// Function bodies walked in place per analysed function, at most.
constexpr unsigned MaxInlinedBodies = 20000;

bool mentionsShared(const FunctionDecl *FD) {
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

/// A local integer passed to a non-const reference parameter.
const VarDecl *writableIntArgument(const ParmVarDecl *P, const Expr *Arg) {
  QualType T = P->getType();
  if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified() ||
      !T.getNonReferenceType()->isIntegralOrEnumerationType())
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->isLocalVarDeclOrParm() && !isSharedVar(VD) ? VD : nullptr;
}
} // namespace

void FunctionWalker::bindParameter(const ParmVarDecl *P, const Expr *Arg, Env &Into) {
  QualType T = P->getType();
  if (T->isReferenceType()) {
    if (auto L = lvalOf(Arg))
      Into.Refs[P] = *L;
    else if (auto O = objectOf(Arg))
      Into.ObjectVars[P] = *O; // the same object, by reference
    else if (T.getNonReferenceType()->isIntegralOrEnumerationType())
      Into.Ints[P] = intOf(Arg);
  } else if (T->isPointerType()) {
    if (auto Ptr = ptrOf(Arg))
      Into.Ptrs[P] = *Ptr;
  } else if (T->isIntegralOrEnumerationType()) {
    Into.Ints[P] = SymExpr::cast(intOf(Arg), intTypeOf(T));
  } else if (T->isRecordType()) {
    // By value: the copy the caller made (a CXXConstructExpr, walked as the
    // argument was visited) or the caller's object itself.
    if (auto O = objectOf(Arg))
      Into.ObjectVars[P] = *O;
  }
}

bool FunctionWalker::inlineCall(const CallExpr *Call, const FunctionDecl *Callee) {
  if (!Callee || !Callee->hasBody() || Callee->hasAttr<CUDAGlobalAttr>())
    return false;
  const FunctionDecl *Def = nullptr;
  Callee->hasBody(Def);
  if (!Def || Def->isDependentContext())
    return false;
  // The object a member function is called on becomes `this`.
  ThisBinding B;
  unsigned Offset = 0;
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  if (MD && !MD->isStatic()) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
      B = thisOf(MC->getImplicitObjectArgument(), ME && ME->isArrow());
    } else if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0) {
      B = thisOf(Call->getArg(0), false);
      Offset = 1;
    }
  } else if (MD && isa<CXXOperatorCallExpr>(Call)) {
    Offset = 1; // a static operator() still lists the object
  }
  llvm::SmallVector<const Expr *, 8> Args;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
    Args.push_back(Call->getArg(I));
  // Worth analysing in place: it receives shared memory (or an object that
  // refers to it), touches it, or computes a value the caller uses.
  bool SharedArg = thisReachesShared(B);
  for (const Expr *Arg : Args) {
    if (SharedArg)
      break;
    if (ptrOf(Arg) || lvalOf(Arg))
      SharedArg = true;
    else if (auto O = objectOf(Arg))
      SharedArg = thisReachesShared(ThisBinding{*O, std::nullopt});
  }
  QualType Ret = Def->getReturnType();
  auto Mentions = MentionsShared.find(Def);
  if (Mentions == MentionsShared.end())
    Mentions = MentionsShared.try_emplace(Def, mentionsShared(Def)).first;
  bool WritesBack = false;
  for (unsigned I = 0; I < Def->getNumParams() && I < Args.size(); ++I)
    WritesBack |= writableIntArgument(Def->getParamDecl(I), Args[I]) != nullptr;
  if (!SharedArg && !Mentions->second && !Ret->isIntegralOrEnumerationType() &&
      !Ret->isPointerType() && !WritesBack)
    return false;
  return inlineBody(Def, Args, B, Call->getBeginLoc(), Call);
}

bool FunctionWalker::inlineBody(const FunctionDecl *Def, llvm::ArrayRef<const Expr *> Args,
                                const ThisBinding &NewThis, SourceLocation CallLoc,
                                const CallExpr *Key, const CXXConstructorDecl *Ctor,
                                unsigned CtorObject) {
  if (InlineStack.size() >= MaxInlineDepth || llvm::is_contained(InlineStack, Def) ||
      Def == Fn || InlinedBodies >= MaxInlinedBodies)
    return false;
  ++InlinedBodies;
  // Bind the parameters to the arguments, in the caller's context.
  Env Saved = Vars;
  Env Callee = Vars;
  for (unsigned I = 0; I < Def->getNumParams() && I < Args.size(); ++I)
    bindParameter(Def->getParamDecl(I), Args[I], Callee);
  Vars = std::move(Callee);
  // The callee runs where the call is: under the caller's guards. Its
  // returns end the callee, not the caller.
  SymRef SavedAlive = Alive;
  bool PushedAlive = !isTrue(Alive);
  if (PushedAlive)
    Path.push_back(Guard{Alive, false, SourcePos(), GuardKind::Reached});
  size_t ExitsBefore = Exits.size();
  const FunctionDecl *SavedFn = Fn;
  bool SavedKernel = InKernel;
  ThisBinding SavedThis = This;
  This = NewThis;
  Fn = Def;
  InlineStack.push_back(Def);
  CallSites.push_back({pos(CallLoc), Def->getNameAsString()});
  Returns.push_back(ReturnCapture());
  Alive = trueValue();
  if (Ctor)
    for (const CXXCtorInitializer *Init : Ctor->inits()) {
      if (Init->isAnyMemberInitializer()) {
        assignMember(CtorObject, Init->getAnyMember(), Init->getInit());
      } else {
        // A base class or a delegated constructor builds the same object.
        const Expr *E = Init->getInit()->IgnoreParens();
        if (const auto *FE = dyn_cast<FullExpr>(E))
          E = FE->getSubExpr();
        if (const auto *CCE = dyn_cast<CXXConstructExpr>(E))
          construct(CCE, CtorObject);
        else
          visit(E);
      }
    }
  walkStmt(Def->getBody());
  // Integers the callee wrote through reference parameters.
  struct WriteBack {
    const VarDecl *Var;
    const Expr *Arg;
    SymRef Value;
  };
  llvm::SmallVector<WriteBack, 2> WrittenBack;
  for (unsigned I = 0; I < Def->getNumParams() && I < Args.size(); ++I)
    if (const VarDecl *VD = writableIntArgument(Def->getParamDecl(I), Args[I])) {
      auto It = Vars.Ints.find(Def->getParamDecl(I));
      WrittenBack.push_back({VD, Args[I], It != Vars.Ints.end() ? It->second : nullptr});
    }
  ReturnCapture R = Returns.back();
  Returns.pop_back();
  InlineStack.pop_back();
  CallSites.pop_back();
  Fn = SavedFn;
  InKernel = SavedKernel;
  This = SavedThis;
  Exits.resize(ExitsBefore);
  if (PushedAlive)
    Path.pop_back();
  Alive = SavedAlive;
  // Objects outlive the call (a constructor built one, a member function
  // updated one); the callee's locals and parameters do not.
  Saved.Objects = std::move(Vars.Objects);
  Vars = std::move(Saved);
  for (const WriteBack &W : WrittenBack)
    assignVar(W.Var, nullptr,
              W.Value ? W.Value
                      : unknownFor(W.Arg, "'" + W.Var->getNameAsString() + "' written by '" +
                                              Def->getNameAsString() + "'", true));
  if (Key && R.Count == 1) {
    if (R.Value)
      CallValues[Key] = R.Value;
    if (R.Pointer)
      CallPointers[Key] = *R.Pointer;
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
