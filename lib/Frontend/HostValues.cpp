//===- HostValues.cpp - Host values at a launch, over its block size -------===//
#include "HostValues.h"
#include "HostFunctions.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <fmt/format.h>

using namespace clang;

namespace cbl {

void HostWrites::noteWrite(const VarDecl *VD, const BinaryOperator *PlainAssignment) {
  Writes &W = Of[VD];
  ++W.Count;
  W.Sole = W.Count == 1 ? PlainAssignment : nullptr;
  if (PlainAssignment)
    W.Assigned.push_back(PlainAssignment->getRHS());
}

void HostWrites::noteWay(llvm::ArrayRef<Node> Ancestors) {
  for (size_t I = Ancestors.size(); I-- > 1;) {
    if (!Parents.try_emplace(Ancestors[I], Ancestors[I - 1]).second)
      return; // the rest of the way is recorded
    if (const auto *D = Ancestors[I - 1].dyn_cast<const Decl *>(); D && isa<FunctionDecl>(D))
      return;
  }
}

void HostWrites::noteBody(const Stmt *Body) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS)
    return;
  for (const Stmt *S : CS->body()) {
    if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(S))
      S = EWC->getSubExpr();
    if (S)
      TopLevel[S] = CS;
  }
}

bool HostWrites::topLevelBefore(const Stmt *S, SourceLocation Inside, SourceLocation Before,
                                const SourceManager &SM) const {
  auto T = TopLevel.find(S);
  if (T == TopLevel.end())
    return false;
  const CompoundStmt *Body = T->second;
  return SM.isPointWithin(SM.getExpansionLoc(Inside), SM.getExpansionLoc(Body->getBeginLoc()),
                          SM.getExpansionLoc(Body->getEndLoc())) &&
         SM.isBeforeInTranslationUnit(SM.getExpansionLoc(S->getEndLoc()), SM.getExpansionLoc(Before));
}

const Expr *withoutCopies(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MTE->getSubExpr();
    else if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BTE->getSubExpr();
    else if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
      E = FC->getSubExpr();
    else if (CE && CE->getConstructor() && CE->getConstructor()->isCopyOrMoveConstructor() &&
             CE->getNumArgs() == 1)
      E = CE->getArg(0);
    else
      return E;
  }
  return E;
}

const Expr *boundArgument(const ParmVarDecl *P, const BoundCall *&Frame) {
  const auto *Fn = dyn_cast<FunctionDecl>(P->getDeclContext());
  for (const BoundCall *C = Frame; C && Fn; C = C->Outer) {
    if (!C->Callee || C->Callee->getCanonicalDecl() != Fn->getCanonicalDecl())
      continue;
    unsigned I = P->getFunctionScopeIndex();
    if (I >= C->Args.size())
      return nullptr;
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(C->Args[I])) {
      Frame = C; // the callee's own expression
      return Default->getExpr();
    }
    Frame = C->Outer;
    return C->Args[I];
  }
  return nullptr;
}

const VarDecl *referencedVar(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

namespace {

/// Definitions followed, and the depth of the expressions translated.
constexpr unsigned MaxDepth = 12;

bool unusable(const Expr *E) {
  return !E || E->getType().isNull() || E->isTypeDependent() || E->isValueDependent() ||
         E->containsErrors();
}

/// A call of the C library's log2 (or <cmath>'s), not a user's function of
/// that name, whose meaning the analysis cannot assume.
bool isLog2Call(const Expr *E, const SourceManager &SM) {
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || Call->getNumArgs() != 1 || !FD->getIdentifier() ||
      !(FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation())))
    return false;
  StringRef N = FD->getName();
  return N == "log2" || N == "log2f" || N == "__builtin_log2" || N == "__builtin_log2f";
}

/// Host values the analysis does not know are unknowns marked with this
/// reason (and the declaration's position, so two variables of one name
/// stay apart); an argument's value must not keep any.
constexpr const char *HostReason = "a value the host program computes";

SymRef hostLeaf(const VarDecl *VD, IntType T) {
  return SymExpr::uniform(VD->getNameAsString(),
                          std::string(HostReason) + " #" +
                              std::to_string(VD->getLocation().getRawEncoding()),
                          T);
}

bool mentionsHostLeaf(const SymRef &E) {
  for (const SymExpr *U : collectLeaves(E).Uniforms)
    if (StringRef(U->Reason).starts_with(HostReason))
      return true;
  return false;
}

bool sameExpr(const SymExpr &A, const SymExpr &B) {
  return A.Hash == B.Hash && A.Kind == B.Kind && A.Type == B.Type && toString(A) == toString(B);
}

/// E with every subexpression equal to Core (casts aside) replaced by By.
SymRef substitute(const SymRef &E, const SymExpr &Core, const SymRef &By, unsigned Depth = 0) {
  if (sameExpr(*E, Core))
    return SymExpr::cast(By, E->Type);
  if (E->Ops.empty() || Depth > 64)
    return E;
  std::vector<SymRef> Ops;
  for (const SymRef &Op : E->Ops)
    Ops.push_back(substitute(Op, Core, By, Depth + 1));
  return withOperands(E, Ops);
}

class Translator {
public:
  /// Host values as they are at Point (a launch, or a call of the
  /// function that launches).
  Translator(SourceLocation Point, const HostWrites &W, ASTContext &Ctx)
      : W(W), Ctx(Ctx), SM(Ctx.getSourceManager()), LaunchAt(SM.getExpansionLoc(Point)) {}

  /// The expression VD stands for at At (with where it is evaluated): its
  /// initialiser when it is never written, or its one plain assignment when
  /// that stands directly in the body of the launch's function, before At.
  const Expr *definition(const VarDecl *VD, SourceLocation At, SourceLocation &DefAt) const {
    if (!VD->isLocalVarDeclOrParm() || VD->isStaticLocal() || VD->getType().isVolatileQualified())
      return nullptr;
    auto It = W.Of.find(VD);
    if (It == W.Of.end()) {
      if (isa<ParmVarDecl>(VD) || !VD->getInit())
        return nullptr;
      DefAt = VD->getLocation();
      return VD->getInit();
    }
    const BinaryOperator *A = It->second.Sole;
    if (It->second.Count != 1 || !A || !topLevelBefore(A, At))
      return nullptr;
    DefAt = A->getBeginLoc();
    return A->getRHS();
  }

  /// VD's value at At is its value at the launch: it is never written, or
  /// At is the launch itself.
  bool stableAt(const VarDecl *VD, SourceLocation At) const {
    return SM.getExpansionLoc(At) == LaunchAt || !W.isWritten(VD);
  }

  std::optional<SymRef> value(const Expr *E, SourceLocation At, unsigned Depth);

  /// The calls whose parameters are bound here (a launcher's), if any.
  const BoundCall *Frame = nullptr;
  std::string Definition; ///< the first definition more than a variable
  std::string FromCalls; ///< the first parameter followed to its function's calls
  std::string spelling(const Expr *E) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM,
                                Ctx.getLangOpts())
        .str();
  }

private:
  bool topLevelBefore(const Stmt *S, SourceLocation At) const {
    return W.topLevelBefore(S, LaunchAt, At, SM);
  }
  std::optional<SymRef> variable(const VarDecl *VD, IntType T, SourceLocation At, unsigned Depth);
  std::optional<SymRef> log2Of(const Expr *E, IntType T, SourceLocation At, unsigned Depth);
  std::optional<SymRef> fromCalls(const VarDecl *VD, IntType T, unsigned Depth);

  const HostWrites &W;
  ASTContext &Ctx;
  const SourceManager &SM;
  SourceLocation LaunchAt;
};

std::optional<SymRef> Translator::variable(const VarDecl *VD, IntType T, SourceLocation At,
                                           unsigned Depth) {
  // A parameter of a launcher: what the call followed passes, there.
  const BoundCall *Scope = Frame;
  const auto *P = dyn_cast<ParmVarDecl>(VD);
  if (const Expr *Arg = P && Frame && !W.isWritten(P) ? boundArgument(P, Scope) : nullptr) {
    SourceLocation CallAt = Scope ? Scope->At : At;
    Translator Caller(CallAt, W, Ctx);
    Caller.Frame = Scope;
    if (auto V = Caller.value(Arg, CallAt, Depth + 1))
      return SymExpr::cast(*V, T);
    return std::nullopt;
  }
  SourceLocation DefAt;
  if (const Expr *Def = definition(VD, At, DefAt)) {
    if (Definition.empty() && !referencedVar(Def))
      Definition = spelling(Def);
    if (auto V = value(Def, DefAt, Depth + 1))
      return SymExpr::cast(*V, T);
  }
  if (auto V = fromCalls(VD, T, Depth))
    return V;
  // A value the program computes at run time (a parameter, argv): the
  // same unknown wherever it is read with the value it has at the launch.
  if (!VD->getType()->isIntegralOrEnumerationType() || !stableAt(VD, At))
    return std::nullopt;
  return SymExpr::cast(hostLeaf(VD, intTypeOf(VD->getType(), Ctx)), T);
}

/// A parameter never written of a function that every call in the file
/// (its only uses) passes the same known value: fwtBatchGPU(d, 1, log2Data).
std::optional<SymRef> Translator::fromCalls(const VarDecl *VD, IntType T, unsigned Depth) {
  const auto *P = dyn_cast<ParmVarDecl>(VD);
  const auto *FD = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
  if (!FD || W.isWritten(P) || Depth + 1 > MaxDepth)
    return std::nullopt;
  const FunctionDecl *Key = FD->getCanonicalDecl();
  auto Calls = W.Calls.find(Key);
  auto Uses = W.Uses.find(Key);
  if (Calls == W.Calls.end() || Uses == W.Uses.end() || Uses->second != Calls->second.size())
    return std::nullopt;
  const unsigned I = P->getFunctionScopeIndex();
  std::optional<SymRef> Same;
  for (const CallExpr *C : Calls->second) {
    // A default argument is the callee's expression: not followed.
    if (I >= C->getNumArgs() || isa<CXXDefaultArgExpr>(C->getArg(I)))
      return std::nullopt;
    Translator Caller(C->getBeginLoc(), W, Ctx);
    std::optional<SymRef> V = Caller.value(C->getArg(I), C->getBeginLoc(), Depth + 1);
    if (!V || mentionsHostLeaf(*V) || (Same && !sameExpr(**Same, **V)))
      return std::nullopt;
    Same = V;
  }
  if (!Same)
    return std::nullopt;
  if (FromCalls.empty())
    FromCalls = fmt::format("'{}' is what every call of '{}' in this file passes for '{}'",
                            toString(*Same), FD->getNameAsString(), P->getNameAsString());
  return SymExpr::cast(*Same, T);
}

/// (int)log2(n) (also through floor, and log2f) of an integer n converted.
std::optional<SymRef> Translator::log2Of(const Expr *E, IntType T, SourceLocation At, unsigned Depth) {
  E = E->IgnoreParens();
  while (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (CE->getCastKind() != CK_FloatingCast && CE->getCastKind() != CK_NoOp)
      break;
    E = CE->getSubExpr()->IgnoreParens();
  }
  if (!isLog2Call(E, SM))
    return std::nullopt;
  // log2(double) of a converted integer, or <cmath>'s overload for
  // integers (std::log2<int>, what <math.h> makes ::log2(n) call).
  const Expr *Arg = cast<CallExpr>(E)->getArg(0)->IgnoreParens();
  if (const auto *Conv = dyn_cast<CastExpr>(Arg); Conv && Conv->getCastKind() == CK_IntegralToFloating)
    Arg = Conv->getSubExpr();
  if (!Arg->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  auto N = value(Arg, At, Depth + 1);
  if (!N)
    return std::nullopt;
  return SymExpr::cast(SymExpr::unary(Opcode::Log2, *N, (*N)->Type), T);
}

std::optional<SymRef> Translator::value(const Expr *E, SourceLocation At, unsigned Depth) {
  if (unusable(E) || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  if (!E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  IntType T = intTypeOf(E->getType(), Ctx);
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return SymExpr::constant(R.Val.getInt().getExtValue(), T);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD ? variable(VD, T, At, Depth) : std::nullopt;
  }
  auto Operand = [&](const Expr *X) -> SymRef {
    std::optional<SymRef> V = value(X, At, Depth + 1);
    return V ? *V : nullptr;
  };
  if (const auto *CE = dyn_cast<CastExpr>(E); CE && CE->getCastKind() == CK_FloatingToIntegral)
    return log2Of(CE->getSubExpr(), T, At, Depth);
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return value(FE->getSubExpr(), At, Depth + 1);
  // A call of the program's own integer helper (int log2(int n) { while
  // (n > 1) ... }), compiled to run once its arguments are known.
  const auto *Call = dyn_cast<CallExpr>(E);
  SymRef V = Call ? hostCall(compileHostFunction(Call->getDirectCallee(), Ctx), Call, Operand)
                  : integerOperators(E, Ctx, Operand);
  if (!V)
    return std::nullopt;
  return SymExpr::cast(V, T);
}

} // namespace

std::optional<int64_t> boundConstant(const Expr *E, const BoundCall *Frame, const HostWrites &W,
                                     ASTContext &Ctx) {
  if (unusable(E))
    return std::nullopt;
  Translator Tr(E->getBeginLoc(), W, Ctx); // read where E is
  Tr.Frame = Frame;
  std::optional<SymRef> V = Tr.value(E, E->getBeginLoc(), 0);
  if (!V || !(*V)->isConst())
    return std::nullopt;
  return (*V)->Value;
}

BlockSizes blockSizes(const Expr *Block, SourceLocation At, const HostWrites &W, ASTContext &Ctx) {
  BlockSizes Out;
  Translator Tr(At, W, Ctx);
  const Expr *E = Block;
  auto Size = [&](const Expr *Part) -> SymRef {
    auto V = Tr.value(Part, At, 1);
    return V && !(*V)->isConst() && mentionsHostLeaf(*V) ? *V : nullptr;
  };
  for (unsigned Depth = 0; E && Depth < MaxDepth; ++Depth) {
    E = withoutCopies(E);
    if (unusable(E))
      return Out;
    if (E->getType()->isIntegerType()) { // k<<<g, n>>>: dim3(n)
      Out[0] = Size(E);
      return Out;
    }
    // dim3 lws(n), dim3 b(x, y), dim3 b = {x, y}: a size per component.
    llvm::ArrayRef<const Expr *> Parts;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 1 && !CE->getArg(0)->getType()->isIntegerType()) {
        E = CE->getArg(0); // dim3(uint3)
        continue;
      }
      Parts = llvm::ArrayRef<const Expr *>(CE->getArgs(), CE->getNumArgs());
    } else if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
      Parts = llvm::ArrayRef<const Expr *>(ILE->getInits(), ILE->getNumInits());
    } else if (const VarDecl *VD = referencedVar(E)) {
      SourceLocation DefAt;
      E = Tr.definition(VD, At, DefAt);
      At = DefAt;
      continue;
    } else {
      return Out;
    }
    for (unsigned I = 0; I < Parts.size() && I < 3; ++I) {
      if (isa<CXXDefaultArgExpr>(Parts[I]) || !Parts[I]->getType()->isIntegerType())
        break;
      Out[I] = Size(Parts[I]);
    }
    return Out;
  }
  return Out;
}

std::optional<SymRef> hostValueAt(const Expr *E, SourceLocation At, const HostWrites &W,
                                  const BlockSizes &Block, ASTContext &Ctx,
                                  std::string *Description) {
  Translator Tr(At, W, Ctx);
  if (!unusable(E) && !referencedVar(E))
    Tr.Definition = Tr.spelling(E);
  std::optional<SymRef> V = Tr.value(E, At, 0);
  if (!V)
    return std::nullopt;
  // Known once the calls of the launching function are followed.
  if ((*V)->isConst() && !Tr.FromCalls.empty()) {
    if (Description)
      *Description = std::to_string((*V)->Value) + " (" + Tr.FromCalls + ")";
    return V;
  }
  if (!mentionsHostLeaf(*V))
    return std::nullopt;
  // The block size's own expression, wherever it occurs, is blockDim.
  std::string Axes;
  for (unsigned I = 0; I < 3; ++I) {
    if (!Block[I])
      continue;
    const SymExpr &Core = stripCasts(*Block[I]);
    SymRef Replaced = substitute(*V, Core, SymExpr::blockDim(Axis(I)));
    if (Replaced == *V)
      continue;
    V = Replaced;
    Axes += fmt::format("{}blockDim.{} = {}", Axes.empty() ? "" : ", ", axisName(Axis(I)),
                        toString(Core));
  }
  if (Axes.empty() || mentionsHostLeaf(*V))
    return std::nullopt;
  if (Description)
    *Description = Tr.Definition.empty() ? toString(*V) : Tr.Definition + " with " + Axes;
  return V;
}

} // namespace cbl
