//===- HostFunctions.cpp - Host helpers compiled for the model ------------===//
#include "HostFunctions.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cbl {

namespace {

/// Helpers called from helpers, and statements compiled per function: a
/// host helper worth running is small.
constexpr unsigned MaxNesting = 4;
constexpr unsigned MaxStatements = 512;
/// Operators per expression, nested: a longer chain is not compiled (the
/// compiler recurses through it).
constexpr unsigned MaxExprDepth = 64;

using Stmts = std::vector<HostFunction::Stmt>;
std::shared_ptr<const HostFunction> compile(const FunctionDecl *FD, ASTContext &Ctx, unsigned Nesting,
                                            llvm::SmallPtrSetImpl<const FunctionDecl *> &Active);
using K = HostFunction::StmtKind;

/// The model's operator for an arithmetic, bitwise or comparison operator of
/// Clang's (not assignments, commas, && or ||).
std::optional<Opcode> arithmeticOpcode(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add: return Opcode::Add;
  case BO_Sub: return Opcode::Sub;
  case BO_Mul: return Opcode::Mul;
  case BO_Div: return Opcode::Div;
  case BO_Rem: return Opcode::Rem;
  case BO_Shl: return Opcode::Shl;
  case BO_Shr: return Opcode::Shr;
  case BO_And: return Opcode::And;
  case BO_Or: return Opcode::Or;
  case BO_Xor: return Opcode::Xor;
  case BO_LT: return Opcode::LT;
  case BO_LE: return Opcode::LE;
  case BO_GT: return Opcode::GT;
  case BO_GE: return Opcode::GE;
  case BO_EQ: return Opcode::EQ;
  case BO_NE: return Opcode::NE;
  default: return std::nullopt;
  }
}

bool integral(QualType T) { return !T.isNull() && T->isIntegralOrEnumerationType(); }

SymRef truth(const SymRef &V) {
  return V ? SymExpr::binary(Opcode::NE, V, SymExpr::constant(0, V->Type), IntType::boolean())
           : nullptr;
}

class Compiler {
public:
  Compiler(ASTContext &Ctx, HostFunction &F, unsigned Nesting,
           llvm::SmallPtrSetImpl<const FunctionDecl *> &Active)
      : Ctx(Ctx), F(F), Nesting(Nesting), Active(Active) {}

  bool function(const FunctionDecl *FD) {
    for (const ParmVarDecl *P : FD->parameters())
      newSlot(P);
    F.Params = unsigned(FD->getNumParams());
    return statement(FD->getBody(), F.Body);
  }

private:
  unsigned newSlot(const VarDecl *VD) {
    unsigned I = unsigned(F.SlotTypes.size());
    Slots[VD] = I;
    F.SlotTypes.push_back(intTypeOf(VD->getType(), Ctx));
    return I;
  }

  std::optional<unsigned> slotOf(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    auto It = DRE ? Slots.find(DRE->getDecl()) : Slots.end();
    return It == Slots.end() ? std::nullopt : std::optional<unsigned>(It->second);
  }

  SymRef slotValue(unsigned I) const { return HostFunction::slot(I, F.SlotTypes[I]); }

  SymRef value(const Expr *E, unsigned Depth = 0);
  bool effect(const Expr *E, Stmts &Out, unsigned Depth = 0);
  bool statement(const Stmt *S, Stmts &Out);
  bool control(const Stmt *S, Stmts &Out);

  ASTContext &Ctx;
  HostFunction &F;
  unsigned Nesting;
  llvm::SmallPtrSetImpl<const FunctionDecl *> &Active;
  llvm::DenseMap<const Decl *, unsigned> Slots;
  unsigned Statements = 0;
};

SymRef Compiler::value(const Expr *E, unsigned Depth) {
  if (!E || E->isValueDependent() || E->containsErrors() || Depth > MaxExprDepth)
    return nullptr;
  E = E->IgnoreParens();
  if (!integral(E->getType()))
    return nullptr;
  IntType T = intTypeOf(E->getType(), Ctx);
  if (auto I = slotOf(E))
    return SymExpr::cast(slotValue(*I), T);
  Expr::EvalResult R;
  if (!E->HasSideEffects(Ctx) && E->EvaluateAsInt(R, Ctx))
    return SymExpr::constant(R.Val.getInt().getExtValue(), T);
  auto Operand = [&](const Expr *X) { return value(X, Depth + 1); };
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Nesting + 1 >= MaxNesting || Active.count(Callee->getCanonicalDecl()))
      return nullptr;
    SymRef V = hostCall(compile(Callee, Ctx, Nesting + 1, Active), Call, Operand);
    return V ? SymExpr::cast(V, T) : nullptr;
  }
  return integerOperators(E, Ctx, Operand);
}

bool Compiler::effect(const Expr *E, Stmts &Out, unsigned Depth) {
  if (!E || Depth > MaxExprDepth)
    return false;
  E = E->IgnoreParens();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return effect(EWC->getSubExpr(), Out, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isCommaOp())
      return effect(BO->getLHS(), Out, Depth + 1) && effect(BO->getRHS(), Out, Depth + 1);
    if (BO->isAssignmentOp()) {
      auto I = slotOf(BO->getLHS());
      if (!I)
        return false;
      SymRef V;
      if (const auto *CAO = dyn_cast<CompoundAssignOperator>(BO)) {
        // b |= 2 converts 2 to bool, not to its lowest bit: not compiled.
        if (F.SlotTypes[*I] == IntType::boolean())
          return false;
        std::optional<Opcode> Op =
            arithmeticOpcode(BinaryOperator::getOpForCompoundAssignment(CAO->getOpcode()));
        SymRef R = value(CAO->getRHS());
        if (!Op || !R)
          return false;
        IntType CT = intTypeOf(CAO->getComputationLHSType(), Ctx);
        IntType RT = intTypeOf(CAO->getComputationResultType(), Ctx);
        bool Shift = *Op == Opcode::Shl || *Op == Opcode::Shr;
        V = SymExpr::binary(*Op, SymExpr::cast(slotValue(*I), CT), Shift ? R : SymExpr::cast(R, RT), RT);
      } else {
        V = value(BO->getRHS());
      }
      if (!V)
        return false;
      Out.push_back({K::Assign, *I, SymExpr::cast(V, F.SlotTypes[*I]), {}, {}, true});
      return true;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->isIncrementDecrementOp()) {
    auto I = slotOf(UO->getSubExpr());
    if (!I || F.SlotTypes[*I] == IntType::boolean())
      return false;
    IntType ST = F.SlotTypes[*I];
    SymRef V = SymExpr::binary(UO->isIncrementOp() ? Opcode::Add : Opcode::Sub, slotValue(*I),
                               SymExpr::constant(1, ST), ST);
    Out.push_back({K::Assign, *I, V, {}, {}, true});
    return true;
  }
  // An expression whose value is dropped and that changes nothing.
  return !E->HasSideEffects(Ctx);
}

bool Compiler::statement(const Stmt *S, Stmts &Out) {
  if (!S)
    return true;
  if (++Statements > MaxStatements)
    return false;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Sub : CS->body())
      if (!statement(Sub, Out))
        return false;
    return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !integral(VD->getType()) || VD->isStaticLocal() ||
          VD->getType()->isReferenceType() || VD->getType().isVolatileQualified())
        return false;
      unsigned I = newSlot(VD);
      const Expr *Init = VD->getInit();
      if (const auto *ILE = dyn_cast_or_null<InitListExpr>(Init))
        Init = ILE->getNumInits() == 1 ? ILE->getInit(0) : nullptr;
      if (!VD->getInit())
        continue;
      SymRef V = value(Init);
      if (!V)
        return false;
      Out.push_back({K::Assign, I, SymExpr::cast(V, F.SlotTypes[I]), {}, {}, true});
    }
    return true;
  }
  if (const auto *E = dyn_cast<Expr>(S))
    return effect(E, Out);
  if (isa<NullStmt>(S))
    return true;
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S)) {
    Out.push_back({isa<BreakStmt>(S) ? K::Break : K::Continue, 0, nullptr, {}, {}, true});
    return true;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    SymRef V = value(RS->getRetValue());
    if (!V)
      return false;
    Out.push_back({K::Return, 0, SymExpr::cast(V, F.Result), {}, {}, true});
    return true;
  }
  return control(S, Out);
}

/// if, while, do and for.
bool Compiler::control(const Stmt *S, Stmts &Out) {
  HostFunction::Stmt Out1;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable() || If->isConsteval())
      return false;
    Out1 = {K::If, 0, truth(value(If->getCond())), {}, {}, true};
    if (!Out1.Value || !statement(If->getThen(), Out1.Body) || !statement(If->getElse(), Out1.Else))
      return false;
  } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
    Out1 = {K::Loop, 0, truth(value(W->getCond())), {}, {}, true};
    if (W->getConditionVariable() || !Out1.Value || !statement(W->getBody(), Out1.Body))
      return false;
  } else if (const auto *D = dyn_cast<DoStmt>(S)) {
    Out1 = {K::Loop, 0, truth(value(D->getCond())), {}, {}, false};
    if (!Out1.Value || !statement(D->getBody(), Out1.Body))
      return false;
  } else if (const auto *For = dyn_cast<ForStmt>(S)) {
    if (For->getConditionVariable() || !statement(For->getInit(), Out))
      return false;
    Out1 = {K::Loop, 0, For->getCond() ? truth(value(For->getCond())) : nullptr, {}, {}, true};
    if ((For->getCond() && !Out1.Value) || !statement(For->getBody(), Out1.Body) ||
        (For->getInc() && !effect(For->getInc(), Out1.Else)))
      return false;
  } else {
    return false; // switch, goto, try, asm, ...: not compiled
  }
  Out.push_back(std::move(Out1));
  return true;
}

std::shared_ptr<const HostFunction> compile(const FunctionDecl *FD, ASTContext &Ctx, unsigned Nesting,
                                            llvm::SmallPtrSetImpl<const FunctionDecl *> &Active) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext() || Def->isVariadic() ||
      !integral(Def->getReturnType()) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && !MD->isStatic())
    return nullptr;
  for (const ParmVarDecl *P : Def->parameters())
    if (!integral(P->getType()) || P->getType()->isReferenceType())
      return nullptr;
  auto F = std::make_shared<HostFunction>();
  F->Name = Def->getNameAsString();
  F->Result = intTypeOf(Def->getReturnType(), Ctx);
  Active.insert(Def->getCanonicalDecl());
  bool Ok = Compiler(Ctx, *F, Nesting, Active).function(Def);
  Active.erase(Def->getCanonicalDecl());
  return Ok ? F : nullptr;
}

} // namespace

IntType intTypeOf(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType();
  if (T->isBooleanType())
    return IntType::boolean();
  if (const auto *ET = T->getAs<EnumType>())
    T = ET->getDecl()->getIntegerType();
  if (T->isIntegerType())
    return {unsigned(Ctx.getIntWidth(T)), T->isSignedIntegerOrEnumerationType()};
  return IntType::i64();
}

SymRef integerOperators(const Expr *E, ASTContext &Ctx,
                        llvm::function_ref<SymRef(const Expr *)> Operand) {
  E = E->IgnoreParens();
  if (!integral(E->getType()))
    return nullptr;
  IntType T = intTypeOf(E->getType(), Ctx);
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_IntegralCast: case CK_NoOp: case CK_LValueToRValue: case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral: {
      SymRef V = Operand(CE->getSubExpr());
      if (!V)
        return nullptr;
      if (CE->getCastKind() == CK_IntegralToBoolean)
        return truth(V);
      if (CE->getCastKind() == CK_BooleanToSignedIntegral)
        return SymExpr::unary(Opcode::Neg, SymExpr::cast(V, T), T);
      return SymExpr::cast(V, T);
    }
    default:
      return nullptr;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    SymRef V = Operand(UO->getSubExpr());
    if (!V)
      return nullptr;
    switch (UO->getOpcode()) {
    case UO_Plus: return SymExpr::cast(V, T);
    case UO_Minus: return SymExpr::unary(Opcode::Neg, SymExpr::cast(V, T), T);
    case UO_Not: return SymExpr::unary(Opcode::Not, SymExpr::cast(V, T), T);
    case UO_LNot: return SymExpr::unary(Opcode::LNot, truth(V), T);
    default: return nullptr; // ++, -- and & as values
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->isCompoundAssignmentOp() || BO->isCommaOp())
      return nullptr;
    SymRef L = Operand(BO->getLHS()), Rv = L ? Operand(BO->getRHS()) : nullptr;
    if (!Rv)
      return nullptr;
    if (BO->isLogicalOp())
      return SymExpr::binary(BO->getOpcode() == BO_LAnd ? Opcode::LAnd : Opcode::LOr, truth(L),
                             truth(Rv), T);
    std::optional<Opcode> Op = arithmeticOpcode(BO->getOpcode());
    if (!Op)
      return nullptr;
    if (isComparison(*Op))
      return SymExpr::binary(*Op, L, Rv, T);
    bool Shift = *Op == Opcode::Shl || *Op == Opcode::Shr;
    return SymExpr::binary(*Op, SymExpr::cast(L, T), Shift ? Rv : SymExpr::cast(Rv, T), T);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    SymRef C = Operand(CO->getCond());
    SymRef A = C ? Operand(CO->getTrueExpr()) : nullptr;
    SymRef B = A ? Operand(CO->getFalseExpr()) : nullptr;
    if (!B)
      return nullptr;
    return SymExpr::select(truth(C), SymExpr::cast(A, T), SymExpr::cast(B, T), T);
  }
  return nullptr;
}

SymRef hostCall(std::shared_ptr<const HostFunction> Fn, const CallExpr *Call,
                llvm::function_ref<SymRef(const Expr *)> Operand) {
  if (!Fn || Fn->Params != Call->getNumArgs())
    return nullptr;
  std::vector<SymRef> Args;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    SymRef V = Operand(Call->getArg(I));
    if (!V)
      return nullptr;
    Args.push_back(SymExpr::cast(V, Fn->SlotTypes[I]));
  }
  IntType R = Fn->Result;
  return SymExpr::call(std::move(Fn), std::move(Args), R);
}

std::shared_ptr<const HostFunction> compileHostFunction(const FunctionDecl *FD, ASTContext &Ctx) {
  llvm::SmallPtrSet<const FunctionDecl *, 4> Active;
  return compile(FD, Ctx, 0, Active);
}

} // namespace cbl
