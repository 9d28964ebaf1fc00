//===- ExprTranslator.cpp - Clang expressions to SymExprs ------------------===//
//
// The translation half of FunctionWalker: integer expressions, pointers into
// shared memory and shared lvalues. Everything the compiler can fold is folded
// by Clang's own constant evaluator (literals, macros, constexpr, enums,
// sizeof/alignof, template arguments, static const members); the rest is
// translated operator by operator with the types Clang computed, so C++
// conversions and wrap-around are exact.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"
#include "WalkerSupport.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cbl {

IntType FunctionWalker::intTypeOf(QualType T) const { return cbl::intTypeOf(T, Ctx); }

uint64_t FunctionWalker::sizeOf(QualType T) const {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() || T->isVoidType())
    return 1;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

unsigned FunctionWalker::extentOnLine(const Expr *E, const SourcePos &Begin) const {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, Ctx.getLangOpts());
  if (R.isInvalid() || !Begin.valid())
    return 0;
  auto [BeginFile, BeginOffset] = SM.getDecomposedLoc(R.getBegin());
  auto [EndFile, EndOffset] = SM.getDecomposedLoc(R.getEnd());
  if (BeginFile != EndFile || BeginOffset != Begin.Offset || EndOffset <= BeginOffset ||
      SM.getLineNumber(EndFile, EndOffset) != Begin.Line)
    return 0;
  return EndOffset - BeginOffset;
}

std::string FunctionWalker::spell(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return "<expr>";
  std::string S = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  // Collapse whitespace so spellings stay on one line.
  std::string Out;
  bool Space = false;
  for (char C : S) {
    if (C == '\n' || C == '\t' || C == ' ' || C == '\r') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

SymRef FunctionWalker::unknownFor(const Expr *E, const std::string &Why, bool Varying) {
  IntType T = intTypeOf(E->getType());
  std::string Name = spell(E);
  return Varying ? SymExpr::varying(Name, Why, T) : SymExpr::uniform(Name, Why, T);
}

SymRef FunctionWalker::boolOf(const Expr *E) {
  SymRef V = intOf(E);
  if (V->Type.Bits == 1)
    return V;
  return SymExpr::binary(Opcode::NE, V, SymExpr::constant(0, V->Type), IntType::boolean());
}

/// threadIdx.x and friends are MS property references on Clang's builtin
/// variables; returns the leaf or a uniform unknown (blockIdx, gridDim).
SymRef builtinVarMember(const PseudoObjectExpr *POE) {
  const auto *Ref = dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!Ref)
    return nullptr;
  const Expr *BaseExpr = Ref->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(BaseExpr))
    BaseExpr = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Base = dyn_cast<DeclRefExpr>(BaseExpr);
  if (!Base)
    return nullptr;
  std::string Var = Base->getDecl()->getNameAsString();
  std::string Field = Ref->getPropertyDecl()->getNameAsString();
  Axis A = Field == "x" ? Axis::X : Field == "y" ? Axis::Y : Axis::Z;
  if (Var == "threadIdx")
    return SymExpr::threadIdx(A);
  if (Var == "blockDim")
    return SymExpr::blockDim(A);
  if (Var == "blockIdx" || Var == "gridDim")
    return SymExpr::uniform(Var + "." + Field, "'" + Var + "' is the same for all threads of a block",
                            IntType::u32());
  return nullptr;
}

SymRef FunctionWalker::valueOfVar(const VarDecl *VD, const Expr *Use) {
  auto It = Vars.Ints.find(VD);
  if (It != Vars.Ints.end())
    return It->second;
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    if (InKernel)
      return SymExpr::uniform(PVD->getNameAsString(),
                              "kernel parameter '" + PVD->getNameAsString() + "'",
                              intTypeOf(VD->getType()));
    return SymExpr::varying(PVD->getNameAsString(),
                            "parameter '" + PVD->getNameAsString() + "' of device function '" +
                                Fn->getNameAsString() + "' (helpers are not yet analysed per call site)",
                            intTypeOf(VD->getType()));
  }
  if (VD->hasGlobalStorage() && !isSharedVar(VD))
    return SymExpr::uniform(VD->getNameAsString(),
                            "global variable '" + VD->getNameAsString() + "'",
                            intTypeOf(VD->getType()));
  return unknownFor(Use, "value of '" + VD->getNameAsString() + "' is not tracked", true);
}

/// A lookup in a constant table: a 1-D array of integers whose elements are
/// known at compile time (constexpr or const locals, static const,
/// __constant__ variables with an initialiser): table[i] becomes a chain of
/// selects on i, exact for every lane.
SymRef FunctionWalker::constantTableLookup(const ArraySubscriptExpr *ASE) {
  const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
  if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(Decay->getSubExpr()->IgnoreParens());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || isSharedVar(VD) || !VD->getAnyInitializer())
    return nullptr;
  bool Constant = VD->getType().isConstQualified() || VD->isConstexpr() ||
                  VD->hasAttr<CUDAConstantAttr>();
  const auto *CAT = Ctx.getAsConstantArrayType(VD->getType());
  if (!Constant || !CAT || !CAT->getElementType()->isIntegralOrEnumerationType() ||
      CAT->getSize().ugt(256))
    return nullptr;
  // __constant__ memory can be written by the host (cudaMemcpyToSymbol):
  // only a const-qualified one is a table the code cannot change.
  if (VD->hasAttr<CUDAConstantAttr>() && !VD->getType().isConstQualified())
    return nullptr;
  const VarDecl *Def = nullptr;
  const Expr *Init = VD->getAnyInitializer(Def);
  if (!Def || !Init || Init->isValueDependent())
    return nullptr;
  APValue *Value = Def->evaluateValue();
  if (!Value || !Value->isArray())
    return nullptr;
  IntType ET = intTypeOf(CAT->getElementType());
  unsigned N = unsigned(CAT->getSize().getZExtValue());
  auto Element = [&](unsigned I) -> std::optional<int64_t> {
    const APValue &V = I < Value->getArrayInitializedElts() ? Value->getArrayInitializedElt(I)
                                                             : Value->getArrayFiller();
    if (!V.isInt())
      return std::nullopt;
    return V.getInt().getExtValue();
  };
  SymRef Index = SymExpr::cast(intOf(ASE->getIdx()), IntType::i64());
  // Outside the table: not a value a correct program reads.
  SymRef Out = unknownFor(ASE, "index outside the constant table '" + VD->getNameAsString() + "'",
                          true);
  for (unsigned I = N; I-- > 0;) {
    auto E = Element(I);
    if (!E)
      return nullptr;
    SymRef Hit = SymExpr::binary(Opcode::EQ, Index, SymExpr::constant(I), IntType::boolean());
    Out = SymExpr::select(Hit, SymExpr::constant(*E, ET), Out, ET);
  }
  return Out;
}

SymRef FunctionWalker::valueOfCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  std::string Name = Callee ? Callee->getNameAsString() : "";
  if ((Name == "min" || Name == "max" || Name == "umin" || Name == "umax" ||
       Name == "llmin" || Name == "llmax") && Call->getNumArgs() == 2 &&
      Call->getType()->isIntegerType()) {
    Opcode Op = Name.find("min") != std::string::npos ? Opcode::Min : Opcode::Max;
    IntType T = intTypeOf(Call->getType());
    return SymExpr::binary(Op, SymExpr::cast(intOf(Call->getArg(0)), T),
                           SymExpr::cast(intOf(Call->getArg(1)), T), T);
  }
  if ((Name == "__mul24" || Name == "__umul24") && Call->getNumArgs() == 2) {
    // Exact whenever the operands fit in 24 bits, as index operands do.
    IntType T = intTypeOf(Call->getType());
    return SymExpr::binary(Opcode::Mul, SymExpr::cast(intOf(Call->getArg(0)), T),
                           SymExpr::cast(intOf(Call->getArg(1)), T), T);
  }
  // The group object: the CUDA headers make thread_block::thread_rank()
  // static (a MemberExpr callee, no CXXMemberCallExpr); the prelude inherits
  // it from thread_group, so the object's own type decides.
  const Expr *GroupObj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    GroupObj = MC->getImplicitObjectArgument();
  else if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
    GroupObj = ME->getBase();
  if (GroupObj) {
    // cooperative_groups: thread_rank() of a block is the linear thread id.
    QualType ObjT = GroupObj->IgnoreImpCasts()->getType();
    if (ObjT->isPointerType())
      ObjT = ObjT->getPointeeType();
    if (SymRef V = cooperativeGroupQuery(Name, ObjT->getAsCXXRecordDecl(),
                                         intTypeOf(Call->getType()), [&] { return spell(Call); }))
      return V;
  }
  // A helper analysed in place (inlineCall) left its returned value here;
  // the models above come first: the CUDA headers compute thread_rank()
  // through dim3 copies that the walker does not track.
  auto Returned = CallValues.find(Call);
  if (Returned != CallValues.end())
    return Returned->second;
  // The callee may read threadIdx or memory; without looking inside it the
  // result must be treated as lane-varying.
  return unknownFor(Call, "result of call to '" + (Name.empty() ? spell(Call) : Name) + "'", true);
}

/// The value read from the lvalue Sub: a local's tracked value, a builtin or
/// object member, a constant table entry, the chosen arm of an lvalue
/// conditional (`v < n ? v : n`) or the right of a comma; anything else is a
/// load from memory.
SymRef FunctionWalker::loadOf(const Expr *Sub, IntType T) {
  Sub = Sub->IgnoreParens();
  while (const auto *NC = dyn_cast<ImplicitCastExpr>(Sub)) {
    if (NC->getCastKind() != CK_NoOp)
      break;
    Sub = NC->getSubExpr()->IgnoreParens();
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(Sub))
    return SymExpr::select(boolOf(CO->getCond()), loadOf(CO->getTrueExpr(), T),
                           loadOf(CO->getFalseExpr(), T), T);
  if (const auto *BO = dyn_cast<BinaryOperator>(Sub))
    if (BO->getOpcode() == BO_Comma)
      return loadOf(BO->getRHS(), T);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!VD->getType()->isReferenceType() && !isSharedVar(VD))
        return SymExpr::cast(valueOfVar(VD, Sub), T);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(Sub))
    if (SymRef Leaf = builtinVarMember(PO))
      return SymExpr::cast(Leaf, T);
  if (const auto *ME = dyn_cast<MemberExpr>(Sub))
    if (auto OM = objectMember(ME)) {
      const ObjectState &O = Vars.Objects[OM->first];
      auto It = O.Ints.find(OM->second);
      if (It != O.Ints.end())
        return SymExpr::cast(It->second, T);
    }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub))
    if (SymRef V = constantTableLookup(ASE))
      return SymExpr::cast(V, T);
  bool Shared = lvalOf(Sub).has_value(), Varying = loadVaries(Sub);
  const char *Why = Shared ? (Varying ? "value loaded from shared memory at a thread-dependent address"
                                      : "value loaded from shared memory")
                           : (Varying ? "value loaded from memory"
                                      : "value loaded from memory at an address that is the same "
                                        "for every thread");
  return SymExpr::cast(unknownFor(Sub, Why, Varying), T);
}

SymRef FunctionWalker::intOf(const Expr *E) {
  E = skipDefaults(E);
  if (E->isValueDependent() || E->isTypeDependent())
    return unknownFor(E, "dependent expression", true);
  if (E->getType()->isIntegralOrEnumerationType() && !E->HasSideEffects(Ctx)) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return SymExpr::constant(R.Val.getInt().getExtValue(), intTypeOf(E->getType()));
  }
  IntType T = intTypeOf(E->getType());

  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    if (SymRef Leaf = builtinVarMember(POE))
      return SymExpr::cast(Leaf, T);
    return unknownFor(E, "unsupported property access", true);
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    switch (ICE->getCastKind()) {
    case CK_LValueToRValue:
      return loadOf(ICE->getSubExpr(), T);
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_IntegralToBoolean:
      if (ICE->getCastKind() == CK_IntegralToBoolean)
        return boolOf(ICE->getSubExpr());
      return SymExpr::cast(intOf(ICE->getSubExpr()), T);
    default:
      return unknownFor(E, "conversion not modelled", threadVarying(ICE->getSubExpr()));
    }
  }
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    if (CE->getSubExpr()->getType()->isIntegralOrEnumerationType())
      return SymExpr::cast(intOf(CE->getSubExpr()), T);
    return unknownFor(E, "conversion from a non-integer value", threadVarying(CE->getSubExpr()));
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return SymExpr::cast(valueOfVar(VD, E), T);
    return unknownFor(E, "unsupported reference", true);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_Minus: return SymExpr::unary(Opcode::Neg, intOf(UO->getSubExpr()), T);
    case UO_Not: return SymExpr::unary(Opcode::Not, intOf(UO->getSubExpr()), T);
    case UO_LNot: return SymExpr::unary(Opcode::LNot, boolOf(UO->getSubExpr()), T);
    case UO_Plus: return SymExpr::cast(intOf(UO->getSubExpr()), T);
    case UO_PreInc: case UO_PreDec: case UO_PostInc: case UO_PostDec:
      // The walker applies the side effect; here we only need the value.
      if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
          SymRef Old = valueOfVar(VD, UO->getSubExpr());
          if (UO->isPostfix())
            return Old;
          return SymExpr::binary(UO->isIncrementOp() ? Opcode::Add : Opcode::Sub, Old,
                                 SymExpr::constant(1, Old->Type), Old->Type);
        }
      return unknownFor(E, "increment of a value that is not a local variable", true);
    default:
      return unknownFor(E, "unsupported unary operator", true);
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma) {
      if (BO->getOpcode() == BO_Comma)
        return intOf(BO->getRHS());
      return intOf(BO->getLHS()); // value after the walker applied the store
    }
    if (!BO->getLHS()->getType()->isIntegralOrEnumerationType() ||
        !BO->getRHS()->getType()->isIntegralOrEnumerationType())
      return unknownFor(E, "arithmetic on non-integer values", threadVarying(E));
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)
      return SymExpr::binary(BO->getOpcode() == BO_LAnd ? Opcode::LAnd : Opcode::LOr,
                             boolOf(BO->getLHS()), boolOf(BO->getRHS()), T);
    std::optional<Opcode> Arith = arithmeticOpcode(BO->getOpcode());
    if (!Arith)
      return unknownFor(E, "unsupported binary operator", true);
    Opcode Op = *Arith;
    SymRef L = intOf(BO->getLHS()), R = intOf(BO->getRHS());
    if (isComparison(Op))
      return SymExpr::binary(Op, L, R, T);
    // Shifts keep the type of the (promoted) left operand; Clang already
    // inserted the usual arithmetic conversions for the other operators.
    return SymExpr::binary(Op, SymExpr::cast(L, T), Op == Opcode::Shl || Op == Opcode::Shr ? R : SymExpr::cast(R, T), T);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return SymExpr::select(boolOf(CO->getCond()), SymExpr::cast(intOf(CO->getTrueExpr()), T),
                           SymExpr::cast(intOf(CO->getFalseExpr()), T), T);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return SymExpr::cast(valueOfCall(Call), T);
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return intOf(MTE->getSubExpr());
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return intOf(FE->getSubExpr());
  if (const auto *SNTTP = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return intOf(SNTTP->getReplacement());
  return unknownFor(E, "expression not analysable", true);
}

/// Byte stride of one step of Index into an array whose elements have type
/// Elem, where the array is itself a dimension of a shared variable: the
/// stride then refers to the variable's (possibly padded) layout.
SymRef FunctionWalker::subscriptStride(const Expr *ArrayLValue, QualType Elem) {
  // Count how many subscripts separate ArrayLValue from a shared variable.
  unsigned Depth = 0;
  const Expr *Cur = ArrayLValue->IgnoreParens();
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Cur)) {
    const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return nullptr;
    Cur = Decay->getSubExpr()->IgnoreParens();
    ++Depth;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Cur);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isSharedVar(VD))
    return nullptr;
  int Id = Table.lookup(VD);
  if (Id < 0)
    return nullptr;
  const SharedArray &A = Arrays[unsigned(Id)];
  if (Depth + 1 >= A.Dims.size() || A.IsExtern)
    return nullptr; // innermost dimension: stride is the element itself
  if (sizeOf(Elem) % A.ElementSize != 0)
    return nullptr;
  // Elements per step of dimension Depth, times the element size.
  return SymExpr::binary(Opcode::Mul, SymExpr::rowStride(A.Id, Depth),
                         SymExpr::constant(int64_t(A.ElementSize)), IntType::i64());
}

SymRef FunctionWalker::scaledIndex(const Expr *Index, const SymRef &ElemBytes) {
  SymRef I = SymExpr::cast(intOf(Index), IntType::i64());
  return SymExpr::binary(Opcode::Mul, I, ElemBytes, IntType::i64());
}

static SymRef addOffset(const SymRef &A, const SymRef &B) {
  return SymExpr::binary(Opcode::Add, A, B, IntType::i64());
}

std::optional<SharedLoc> FunctionWalker::ptrOf(const Expr *E) {
  E = skipDefaults(E);
  if (isa<CXXThisExpr>(E)) {
    if (!This.Shared)
      return std::nullopt;
    SharedLoc L = *This.Shared;
    L.Type = E->getType()->getPointeeType();
    return L;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay: {
      auto L = lvalOf(CE->getSubExpr());
      if (!L)
        return std::nullopt;
      L->Type = E->getType()->getPointeeType();
      return L;
    }
    case CK_LValueToRValue: {
      const Expr *Sub = CE->getSubExpr()->IgnoreParens();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
          auto It = Vars.Ptrs.find(VD);
          if (It != Vars.Ptrs.end())
            return It->second;
        }
      if (const auto *ME = dyn_cast<MemberExpr>(Sub))
        if (auto OM = objectMember(ME)) {
          const ObjectState &O = Vars.Objects[OM->first];
          auto It = O.Ptrs.find(OM->second);
          if (It != O.Ptrs.end())
            return It->second;
        }
      return std::nullopt;
    }
    case CK_UserDefinedConversion: // SharedMemory<T> converts to T*
    case CK_BitCast:
    case CK_NoOp:
    case CK_LValueBitCast:
    case CK_UncheckedDerivedToBase:
    case CK_DerivedToBase:
    case CK_AddressSpaceConversion: {
      auto P = ptrOf(CE->getSubExpr());
      if (P && E->getType()->isPointerType())
        P->Type = E->getType()->getPointeeType();
      return P;
    }
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf) {
      auto L = lvalOf(UO->getSubExpr());
      if (L)
        L->Type = UO->getSubExpr()->getType();
      return L;
    }
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) {
      const Expr *P = BO->getLHS(), *I = BO->getRHS();
      if (!P->getType()->isPointerType())
        std::swap(P, I);
      if (!P->getType()->isPointerType() || !I->getType()->isIntegralOrEnumerationType())
        return std::nullopt;
      auto Base = ptrOf(P);
      if (!Base)
        return std::nullopt;
      SymRef Off = scaledIndex(I, SymExpr::constant(int64_t(sizeOf(Base->Type))));
      if (BO->getOpcode() == BO_Sub)
        Off = SymExpr::unary(Opcode::Neg, Off, IntType::i64());
      Base->ByteOffset = addOffset(Base->ByteOffset, Off);
      return Base;
    }
    if (BO->getOpcode() == BO_Comma)
      return ptrOf(BO->getRHS());
    return std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto It = Vars.Ptrs.find(VD);
      if (It != Vars.Ptrs.end())
        return It->second;
    }
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return ptrOf(FE->getSubExpr());
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    auto It = CallPointers.find(Call);
    if (It != CallPointers.end())
      return It->second;
  }
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return ptrOf(MTE->getSubExpr());
  return std::nullopt;
}

std::optional<SharedLoc> FunctionWalker::lvalOf(const Expr *E) {
  E = skipDefaults(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (isSharedVar(VD)) {
      if (Out)
        Out->NamesShared = true;
      int Id = Table.add(VD, Arrays);
      if (Id < 0)
        return std::nullopt;
      return SharedLoc{unsigned(Id), SymExpr::constant(0), VD->getType()};
    }
    auto It = Vars.Refs.find(VD);
    if (It != Vars.Refs.end())
      return It->second;
    return std::nullopt;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    auto Base = ptrOf(ASE->getBase());
    if (!Base)
      return std::nullopt;
    QualType Elem = ASE->getType();
    SymRef Stride;
    if (const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens()))
      if (Decay->getCastKind() == CK_ArrayToPointerDecay)
        Stride = subscriptStride(Decay->getSubExpr(), Elem);
    if (!Stride)
      Stride = SymExpr::constant(int64_t(sizeOf(Elem)));
    Base->ByteOffset = addOffset(Base->ByteOffset, scaledIndex(ASE->getIdx(), Stride));
    Base->Type = Elem;
    return Base;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField())
      return std::nullopt;
    if (auto OM = objectMember(ME)) {
      // A member of an object in registers: shared only through a reference.
      const ObjectState &O = Vars.Objects[OM->first];
      auto It = O.Refs.find(FD);
      if (It == O.Refs.end())
        return std::nullopt;
      SharedLoc L = It->second;
      L.Type = ME->getType();
      return L;
    }
    std::optional<SharedLoc> Base = ME->isArrow() ? ptrOf(ME->getBase()) : lvalOf(ME->getBase());
    if (!Base)
      return std::nullopt;
    const ASTRecordLayout &RL = Ctx.getASTRecordLayout(FD->getParent());
    int64_t Off = int64_t(RL.getFieldOffset(FD->getFieldIndex()) / 8);
    Base->ByteOffset = addOffset(Base->ByteOffset, SymExpr::constant(Off));
    Base->Type = ME->getType();
    return Base;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref) {
      auto P = ptrOf(UO->getSubExpr());
      if (P)
        P->Type = E->getType();
      return P;
    }
    if (UO->getOpcode() == UO_PreInc || UO->getOpcode() == UO_PreDec)
      return lvalOf(UO->getSubExpr());
    return std::nullopt;
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_NoOp || ICE->getCastKind() == CK_LValueBitCast ||
        ICE->getCastKind() == CK_UncheckedDerivedToBase || ICE->getCastKind() == CK_DerivedToBase) {
      auto L = lvalOf(ICE->getSubExpr());
      if (L)
        L->Type = E->getType();
      return L;
    }
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    if (CE->getCastKind() == CK_LValueBitCast || CE->getCastKind() == CK_NoOp) {
      auto L = lvalOf(CE->getSubExpr());
      if (L)
        L->Type = E->getType().getNonReferenceType();
      return L;
    }
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp())
      return lvalOf(BO->getLHS());
    if (BO->getOpcode() == BO_Comma)
      return lvalOf(BO->getRHS());
  }
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return lvalOf(MTE->getSubExpr());
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // A helper returning a reference into shared memory (analysed in place).
    auto It = CallPointers.find(Call);
    if (It != CallPointers.end() && Call->getCallReturnType(Ctx)->isReferenceType())
      return It->second;
  }
  return std::nullopt;
}

} // namespace cbl
