//===- ObjectModel.cpp - Class objects that refer to shared memory ---------===//
//
// Library block primitives (CUB's BlockScan, BlockReduce, BlockExchange, ...)
// are class objects in registers that hold a reference to their shared
// storage (`_TempStorage &temp_storage`, bound in the constructor to
// `temp_storage.Alias()`) and integers such as `linear_tid`; their member
// functions reach shared memory through `this`. The walker follows these
// objects: a local or temporary of class type gets an object id, its
// constructor is walked in place (member initialisers, base classes, body),
// and members read through it, or through `this` in a member function walked
// at its call, have the tracked values. A member function called on an object
// that itself lives in shared memory (`temp_storage.Alias()`) sees `this`
// as that place in shared memory.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"
#include "WalkerSupport.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cbl {

unsigned FunctionWalker::newObject() {
  unsigned Id = NextObjectId++;
  Vars.Objects[Id] = ObjectState();
  return Id;
}

std::optional<unsigned> FunctionWalker::objectOf(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = skipDefaults(E);
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    switch (ICE->getCastKind()) {
    case CK_NoOp:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_ConstructorConversion:
      return objectOf(ICE->getSubExpr());
    default:
      return std::nullopt;
    }
  }
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    return objectOf(FC->getSubExpr());
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return objectOf(MTE->getSubExpr());
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    return objectOf(BTE->getSubExpr());
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return objectOf(FE->getSubExpr());
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    auto It = Vars.Temporaries.find(CCE);
    if (It != Vars.Temporaries.end())
      return It->second;
    return std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Vars.ObjectVars.find(VD) : Vars.ObjectVars.end();
    if (It != Vars.ObjectVars.end())
      return It->second;
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    auto OM = objectMember(ME);
    if (!OM)
      return std::nullopt;
    ObjectState &O = Vars.Objects[OM->first];
    auto It = O.Members.find(OM->second);
    if (It != O.Members.end())
      return It->second;
    return std::nullopt;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return objectPointedBy(UO->getSubExpr());
  return std::nullopt;
}

std::optional<unsigned> FunctionWalker::objectPointedBy(const Expr *P) {
  P = P->IgnoreParens();
  if (isa<CXXThisExpr>(P))
    return This.Object ? std::optional<unsigned>(This.Object) : std::nullopt;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P))
    if (ICE->getCastKind() == CK_NoOp || ICE->getCastKind() == CK_DerivedToBase ||
        ICE->getCastKind() == CK_UncheckedDerivedToBase)
      return objectPointedBy(ICE->getSubExpr());
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    if (UO->getOpcode() == UO_AddrOf)
      return objectOf(UO->getSubExpr());
  return std::nullopt;
}

std::optional<std::pair<unsigned, const FieldDecl *>>
FunctionWalker::objectMember(const MemberExpr *ME) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD)
    return std::nullopt;
  std::optional<unsigned> Obj =
      ME->isArrow() ? objectPointedBy(ME->getBase()) : objectOf(ME->getBase());
  if (!Obj || !Vars.Objects.count(*Obj))
    return std::nullopt;
  return std::make_pair(*Obj, FD);
}

void FunctionWalker::assignMember(unsigned Obj, const FieldDecl *FD, const Expr *RHS) {
  QualType T = FD->getType();
  const Expr *Init = RHS ? RHS->IgnoreParens() : nullptr;
  if (const auto *FE = dyn_cast_or_null<FullExpr>(Init))
    Init = FE->getSubExpr();
  // A member object is constructed in place.
  if (!T->isReferenceType() && T->isRecordType()) {
    if (const auto *CCE = dyn_cast_or_null<CXXConstructExpr>(Init)) {
      unsigned Id = newObject();
      construct(CCE, Id);
      Vars.Objects[Obj].Members[FD] = Id;
    }
    return;
  }
  if (Init)
    visit(Init);
  storeMember(Obj, FD, Init);
}

void FunctionWalker::storeMember(unsigned Obj, const FieldDecl *FD, const Expr *Init) {
  QualType T = FD->getType();
  ObjectState &O = Vars.Objects[Obj];
  O.Ints.erase(FD);
  O.Ptrs.erase(FD);
  O.Refs.erase(FD);
  O.Members.erase(FD);
  if (!Init)
    return;
  if (T->isReferenceType()) {
    if (auto L = lvalOf(Init))
      Vars.Objects[Obj].Refs[FD] = *L;
    else if (auto Other = objectOf(Init))
      Vars.Objects[Obj].Members[FD] = *Other; // a reference to another object
    return;
  }
  if (T->isPointerType()) {
    if (auto P = ptrOf(Init))
      Vars.Objects[Obj].Ptrs[FD] = *P;
    return;
  }
  if (T->isIntegralOrEnumerationType())
    Vars.Objects[Obj].Ints[FD] = SymExpr::cast(intOf(Init), intTypeOf(T));
}

bool FunctionWalker::construct(const CXXConstructExpr *CCE, unsigned Id) {
  const CXXConstructorDecl *Ctor = CCE->getConstructor();
  llvm::SmallVector<const Expr *, 4> Args(CCE->arguments());
  if (Ctor && Ctor->isCopyOrMoveConstructor() && Args.size() >= 1) {
    const Expr *Src = Args[0];
    visit(Src);
    if (auto From = objectOf(Src)) {
      ObjectState Copy = Vars.Objects[*From];
      Vars.Objects[Id] = std::move(Copy);
      return true;
    }
    return false;
  }
  for (const Expr *A : Args)
    visit(A);
  const FunctionDecl *Def = nullptr;
  if (!Ctor || !Ctor->hasBody(Def) || !Def || Def->isDependentContext() ||
      (Ctor->isTrivial() && Args.empty()))
    return Ctor && Ctor->isTrivial();
  ThisBinding B;
  B.Object = Id;
  return inlineBody(Def, Args, B, CCE->getBeginLoc(), nullptr, cast<CXXConstructorDecl>(Def), Id);
}

FunctionWalker::ThisBinding FunctionWalker::thisOf(const Expr *ObjectArg, bool IsArrow) {
  ThisBinding B;
  if (!ObjectArg)
    return B;
  if (auto O = IsArrow ? objectPointedBy(ObjectArg) : objectOf(ObjectArg)) {
    B.Object = *O;
    return B;
  }
  B.Shared = IsArrow ? ptrOf(ObjectArg) : lvalOf(ObjectArg);
  return B;
}

bool FunctionWalker::thisReachesShared(const ThisBinding &B) const {
  if (B.Shared)
    return true;
  // The object, or a member object of it, refers to shared memory.
  llvm::SmallVector<unsigned, 4> Todo{B.Object};
  llvm::DenseSet<unsigned> Seen;
  while (!Todo.empty()) {
    unsigned Id = Todo.pop_back_val();
    if (!Id || !Seen.insert(Id).second)
      continue;
    auto It = Vars.Objects.find(Id);
    if (It == Vars.Objects.end())
      continue;
    if (It->second.refersToShared())
      return true;
    for (const auto &KV : It->second.Members)
      Todo.push_back(KV.second);
  }
  return false;
}

void FunctionWalker::walkAsm(const GCCAsmStmt *Asm) {
  for (const Expr *In : Asm->inputs())
    visit(In);
  recordUnsupportedAsm(Asm);
  std::string Text = Asm->getAsmString()->getString().str();
  bool LaneId = Text.find("%laneid") != std::string::npos && Asm->getNumOutputs() == 1;
  for (const Expr *OutE : Asm->outputs()) {
    const Expr *LHS = OutE->IgnoreParenImpCasts();
    QualType T = LHS->getType();
    if (!T->isIntegralOrEnumerationType())
      continue;
    SymRef V;
    if (LaneId) {
      // %laneid: the lane of the thread in its warp, (linear thread id) % 32.
      IntType U = intTypeOf(T);
      V = SymExpr::binary(Opcode::Rem, linearThreadIndex(U), SymExpr::constant(32, U), U);
    } else {
      V = unknownFor(LHS, "value produced by inline assembly", true);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        assignVar(VD, nullptr, V);
    } else if (const auto *ME = dyn_cast<MemberExpr>(LHS)) {
      if (auto OM = objectMember(ME))
        Vars.Objects[OM->first].Ints[OM->second] = SymExpr::cast(V, intTypeOf(T));
    }
  }
}

} // namespace cbl
