//===- BlockShapes.cpp - Launch configurations and __launch_bounds__ -------===//
#include "BlockShapes.h"
#include "HostValues.h"
#include "Launchers.h"
#include "SharedArrays.h"
#include "UserCodeVisitor.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include <fmt/format.h>

#include <deque>

using namespace clang;

namespace cbl {

namespace {

std::optional<uint64_t> constInt(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getZExtValue();
  return std::nullopt;
}

/// A local variable initialised once and never written afterwards stands
/// for its initialiser: dim3 threads(TILE_DIM, BLOCK_ROWS), or
/// uint threadCount = SHARED_SIZE_LIMIT / 2.
const Expr *constantLocalInit(const Expr *E, const HostWrites &Writes) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (VD && !isa<ParmVarDecl>(VD) && VD->getInit() && !Writes.isWritten(VD) &&
      (VD->getType().isConstQualified() || VD->isLocalVarDecl()))
    return VD->getInit();
  return nullptr;
}

/// Values that variables never written have where a launch is: the branch
/// it is in says so (if (block_size == 16), case 512: of switch (threads)).
using KnownValues = llvm::DenseMap<const VarDecl *, uint64_t>;

/// Where a launch configuration is evaluated: the branch facts of the
/// launch (in its own function only), the calls whose parameters are bound
/// (a launcher's: Launchers.h), and storage for the frames of constructors
/// followed into.
struct EvalScope {
  const KnownValues *Known = nullptr;
  const BoundCall *Frame = nullptr;
  std::deque<BoundCall> *Made = nullptr;
  EvalScope in(const BoundCall *Outer) const { return {Outer == Frame ? Known : nullptr, Outer, Made}; }
};

/// The expression that initialises member ME of the object it reads, with
/// the scope to evaluate it in: an aggregate's initialiser, or the member
/// initialiser of a constructor whose body is empty (its parameters bound
/// to the construction's arguments); null otherwise.
const Expr *memberInit(const MemberExpr *ME, const HostWrites &Writes, EvalScope &S) {
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const Expr *Object = ME->getBase();
  for (unsigned Depth = 0; Field && !ME->isArrow() && Object && Depth < 8; ++Depth) {
    Object = withoutCopies(Object);
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedVar(Object))) {
      const BoundCall *Outer = S.Frame;
      Object = Writes.isWritten(P) ? nullptr : boundArgument(P, Outer);
      S = S.in(Outer);
      continue;
    }
    if (const Expr *Init = constantLocalInit(Object, Writes)) {
      Object = Init;
      continue;
    }
    if (const auto *ILE = dyn_cast<InitListExpr>(Object))
      return Field->getFieldIndex() < ILE->getNumInits() ? ILE->getInit(Field->getFieldIndex()) : nullptr;
    const auto *CE = dyn_cast<CXXConstructExpr>(Object);
    const FunctionDecl *Def = nullptr;
    if (!CE || !S.Made || !CE->getConstructor()->hasBody(Def))
      return nullptr;
    const auto *Ctor = cast<CXXConstructorDecl>(Def);
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Ctor->getBody());
    if (!Body || !Body->body_empty())
      return nullptr;
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->getMember() == Field) {
        S.Made->push_back(BoundCall{Ctor, llvm::ArrayRef<const Expr *>(CE->getArgs(), CE->getNumArgs()),
                                    CE->getBeginLoc(), S.Frame});
        S = S.in(&S.Made->back());
        return I->getInit();
      }
    return nullptr;
  }
  return nullptr;
}

/// What a launcher's parameter or a member of a struct of launch parameters
/// stands for (S set to the scope it is evaluated in), or null.
const Expr *boundSource(const Expr *E, const HostWrites &Writes, EvalScope &S) {
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return memberInit(ME, Writes, S);
  const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedVar(E));
  if (!P || !S.Frame || Writes.isWritten(P))
    return nullptr;
  const BoundCall *Outer = S.Frame;
  const Expr *Arg = boundArgument(P, Outer);
  S = S.in(Outer);
  return Arg;
}

/// Evaluates a dim3-valued expression whose components are constants.
std::optional<std::array<unsigned, 3>> constDim3(const Expr *E, ASTContext &Ctx, const HostWrites &Writes,
                                                 unsigned Depth = 0, EvalScope S = {}) {
  if (!E || Depth > 12)
    return std::nullopt;
  E = withoutCopies(E);
  // Template patterns hold dependent expressions (their type may be null);
  // the instantiations are evaluated instead.
  if (!E || E->getType().isNull() || E->isTypeDependent() || E->isValueDependent() ||
      E->containsErrors())
    return std::nullopt;
  if (E->getType()->isIntegerType()) {
    if (auto V = constInt(E, Ctx))
      return std::array<unsigned, 3>{{unsigned(*V), 1, 1}};
    if (const auto *DRE = S.Known ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr)
      if (auto It = S.Known->find(dyn_cast<VarDecl>(DRE->getDecl())); It != S.Known->end())
        return std::array<unsigned, 3>{{unsigned(It->second), 1, 1}};
    if (const Expr *Init = constantLocalInit(E, Writes))
      return constDim3(Init, Ctx, Writes, Depth + 1, S);
    if (auto V = S.Frame ? boundConstant(E, S.Frame, Writes, Ctx) : std::nullopt)
      return std::array<unsigned, 3>{{unsigned(*V), 1, 1}};
    EvalScope Inner = S;
    if (const Expr *Source = boundSource(E, Writes, Inner))
      return constDim3(Source, Ctx, Writes, Depth + 1, Inner);
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    std::array<unsigned, 3> D{{1, 1, 1}};
    for (unsigned I = 0; I < CE->getNumArgs() && I < 3; ++I) {
      const Expr *Arg = CE->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg))
        break;
      if (!Arg->getType()->isIntegerType()) {
        if (CE->getNumArgs() == 1)
          return constDim3(Arg, Ctx, Writes, Depth + 1, S); // dim3(uint3)
        return std::nullopt;
      }
      auto V = constDim3(Arg, Ctx, Writes, Depth + 1, S);
      if (!V)
        return std::nullopt;
      D[I] = (*V)[0];
    }
    return D;
  }
  if (const Expr *Init = constantLocalInit(E, Writes))
    return constDim3(Init, Ctx, Writes, Depth + 1, S);
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    std::array<unsigned, 3> D{{1, 1, 1}};
    for (unsigned I = 0; I < ILE->getNumInits() && I < 3; ++I) {
      auto V = constDim3(ILE->getInit(I), Ctx, Writes, Depth + 1, S);
      if (!V)
        return std::nullopt;
      D[I] = (*V)[0];
    }
    return D;
  }
  EvalScope Inner = S;
  if (const Expr *Source = boundSource(E, Writes, Inner))
    return constDim3(Source, Ctx, Writes, Depth + 1, Inner);
  return std::nullopt;
}

/// The components of a dim3 that are constants when some are not
/// (dim3(32, nwarps)): 0 for each unknown one; nullopt when none or all are
/// known, or E is not a dim3 built from its components.
std::optional<std::array<unsigned, 3>> partialDim3(const Expr *E, ASTContext &Ctx, const HostWrites &Writes,
                                                   EvalScope S, unsigned Depth = 0) {
  E = E && Depth < 12 ? withoutCopies(E) : nullptr;
  if (!E || E->getType().isNull() || E->isTypeDependent() || E->isValueDependent() || E->containsErrors())
    return std::nullopt;
  if (const Expr *Init = constantLocalInit(E, Writes))
    return partialDim3(Init, Ctx, Writes, S, Depth + 1);
  EvalScope Inner = S;
  if (const Expr *Source = boundSource(E, Writes, Inner))
    return partialDim3(Source, Ctx, Writes, Inner, Depth + 1);
  const auto *CE = dyn_cast<CXXConstructExpr>(E);
  if (!CE || CE->getNumArgs() < 2)
    return std::nullopt;
  std::array<unsigned, 3> D{{1, 1, 1}};
  for (unsigned I = 0; I < CE->getNumArgs() && I < 3; ++I) {
    const Expr *Arg = CE->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      break;
    if (!Arg->getType()->isIntegerType())
      return std::nullopt;
    auto V = constDim3(Arg, Ctx, Writes, Depth + 1, S);
    D[I] = V ? (*V)[0] : 0;
  }
  bool Some = D[0] || D[1] || D[2], All = D[0] && D[1] && D[2];
  return Some && !All ? std::optional(D) : std::nullopt;
}

/// One pass over user code: the kernel launches, and the writes of the
/// variables (threads.x = n, count++, &count: not to be trusted as
/// constants; a plain `v = e` alone may be followed, HostValues.h).
struct LaunchScanner : UserCodeVisitor<LaunchScanner> {
  using UserCodeVisitor::UserCodeVisitor;
  HostWrites Writes;
  std::vector<const CUDAKernelCallExpr *> Launches;
  bool shouldVisitTemplateInstantiations() const { return true; }

  void assigned(const Expr *L, const BinaryOperator *Plain = nullptr) {
    L = L->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(L)) {
      L = ME->getBase()->IgnoreParenImpCasts();
      Plain = nullptr;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(L))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Writes.noteWrite(VD, Plain);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Writes.noteBody(FD->getBody());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      assigned(BO->getLHS(), BO->getOpcode() == BO_Assign ? BO : nullptr);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      assigned(UO->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs())
      assigned(OC->getArg(0));
    return true;
  }
  /// Passed by non-const reference (parseArgs(argc, argv, threads)): may be
  /// written by the callee.
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      ++Writes.Uses[FD->getCanonicalDecl()];
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return true;
    if (!isa<CUDAKernelCallExpr>(Call) && !isa<CXXOperatorCallExpr>(Call) &&
        isa<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      Writes.Calls[FD->getCanonicalDecl()].push_back(Call);
    // A member operator's object is argument 0 (std::cin >> n).
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
      if (I - Shift >= FD->getNumParams())
        break;
      QualType T = FD->getParamDecl(I - Shift)->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
        assigned(Call->getArg(I));
    }
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *K) {
    if (!K->isTypeDependent() && !K->isValueDependent() && !K->containsErrors())
      Launches.push_back(K);
    return true;
  }
};

/// The expression a launch's block argument was built from: dim3 b -> b,
/// dim3(n) (an integer converted) -> n.
const Expr *blockSource(const Expr *E) {
  E = withoutCopies(E);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
      CE && CE->getNumArgs() >= 1 && (CE->getNumArgs() == 1 || isa<CXXDefaultArgExpr>(CE->getArg(1))))
    E = withoutCopies(CE->getArg(0));
  return E;
}

/// What launch K passes for its I-th argument, when that is a constant or
/// the block size it launches with (the block argument's own variable, or
/// one of its components).
std::optional<BlockShapeFinder::FixedArgument> fixedArgument(const CUDAKernelCallExpr *K, unsigned I,
                                                             ASTContext &Ctx, const HostWrites &Writes) {
  const Expr *Arg = K->getArg(I);
  // Calls only possibly have effects: a helper the host values can run
  // (HostFunctions.h) has none; any other call is not followed.
  if (!Arg->getType()->isIntegerType() || Arg->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return std::nullopt;
  BlockShapeFinder::FixedArgument F;
  const Expr *Block = blockSource(K->getConfig()->getArg(1));
  const Expr *Plain = Arg->IgnoreParenImpCasts();
  if (auto V = constDim3(Arg, Ctx, Writes)) {
    F.Constant = (*V)[0];
    F.Text.Value = std::to_string((*V)[0]);
  } else if (const VarDecl *BlockVar = referencedVar(Block)) {
    if (referencedVar(Plain) == BlockVar && BlockVar->getType()->isIntegerType()) {
      F.BlockAxis = 0; // k<<<g, threads>>>(..., threads)
    } else if (const auto *ME = dyn_cast<MemberExpr>(Plain); ME && referencedVar(ME->getBase()) == BlockVar) {
      std::string Field = ME->getMemberDecl()->getNameAsString();
      if (Field == "x" || Field == "y" || Field == "z")
        F.BlockAxis = unsigned(Field[0] - 'x'); // k<<<g, block>>>(..., block.x)
    }
    if (F.BlockAxis)
      F.Text.Value = std::string("blockDim.") + char('x' + *F.BlockAxis);
  }
  // A function of the block size: k<<<g, lws>>>(..., log2(n / 2)), lws(n).
  if (F.Text.Value.empty())
    if (auto V = hostValueAt(Arg, K, Writes, blockSizes(K, Writes, Ctx), Ctx, &F.Text.Value))
      F.Value = *V;
  if (F.Text.Value.empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  F.Text.Spelling = Lexer::getSourceText(CharSourceRange::getTokenRange(Arg->getSourceRange()), SM,
                                         Ctx.getLangOpts())
                        .str();
  F.Text.Where = toSourcePos(SM, K->getBeginLoc());
  return F;
}

/// V == C (and the conjuncts of &&) with V a variable never written.
void noteEqualities(const Expr *Cond, ASTContext &Ctx, const HostWrites &Writes, KnownValues &Out) {
  Cond = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!BO)
    return;
  if (BO->getOpcode() == BO_LAnd) {
    noteEqualities(BO->getLHS(), Ctx, Writes, Out);
    noteEqualities(BO->getRHS(), Ctx, Writes, Out);
    return;
  }
  if (BO->getOpcode() != BO_EQ)
    return;
  for (auto [L, R] : {std::pair(BO->getLHS(), BO->getRHS()), std::pair(BO->getRHS(), BO->getLHS())})
    if (const VarDecl *VD = referencedVar(L); VD && !Writes.isWritten(VD) && VD->getType()->isIntegerType())
      if (auto C = constInt(R, Ctx))
        Out[VD] = *C;
}

/// The value of a switch's variable in the case whose statements hold S
/// (a direct statement of the switch's body): the nearest label before it,
/// when it is a single `case C:` that no other label falls through into.
void noteCase(const SwitchStmt *Sw, const CompoundStmt *Body, const Stmt *S, ASTContext &Ctx,
              const HostWrites &Writes, KnownValues &Out) {
  const VarDecl *VD = referencedVar(Sw->getCond());
  if (!VD || Writes.isWritten(VD) || !VD->getType()->isIntegerType())
    return;
  auto Stmts = Body->body();
  auto It = std::find(Stmts.begin(), Stmts.end(), S);
  if (It == Stmts.end())
    return;
  for (;; --It) {
    if (isa<BreakStmt>(*It) || isa<ReturnStmt>(*It) || isa<DefaultStmt>(*It))
      return;
    if (const auto *Case = dyn_cast<CaseStmt>(*It)) {
      bool Entered = It == Stmts.begin() || isa<BreakStmt>(*std::prev(It)) ||
                     isa<ReturnStmt>(*std::prev(It));
      if (!Entered || isa<SwitchCase>(Case->getSubStmt()) || Case->getRHS())
        return;
      if (auto C = constInt(Case->getLHS(), Ctx))
        Out[VD] = *C;
      return;
    }
    if (It == Stmts.begin())
      return;
  }
}

/// What the branches around launch K say about variables never written.
KnownValues branchFacts(const CUDAKernelCallExpr *K, ASTContext &Ctx, const HostWrites &Writes) {
  KnownValues Out;
  DynTypedNode Node = DynTypedNode::create(*static_cast<const Stmt *>(K));
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.size() != 1 || Parents[0].get<Decl>())
      break;
    const Stmt *Child = Node.get<Stmt>();
    const DynTypedNode &P = Parents[0];
    if (const auto *If = P.get<IfStmt>(); If && If->getThen() == Child)
      noteEqualities(If->getCond(), Ctx, Writes, Out);
    if (const auto *Body = P.get<CompoundStmt>()) {
      auto Grand = Ctx.getParents(P);
      if (Grand.size() == 1)
        if (const auto *Sw = Grand[0].get<SwitchStmt>(); Sw && Sw->getBody() == Body)
          noteCase(Sw, Body, Child, Ctx, Writes, Out);
    }
    Node = P;
  }
  return Out;
}

} // namespace

namespace {

/// A launch of one kernel: direct (Indirect null), or through launchers.
struct LaunchSite {
  const CUDAKernelCallExpr *K = nullptr;
  const IndirectLaunch *Indirect = nullptr;
};

std::string posText(const SourcePos &P) { return fmt::format("{}:{}:{}", P.File, P.Line, P.Column); }

/// Where a launch site is for users (the outermost call followed), and how
/// it reads: "the launch at k.cu:40:3", "the call at k.cu:52:5, which
/// launches it through 'run' and 'launch' (at common.h:12:3)".
std::pair<SourcePos, std::string> siteText(const LaunchSite &L, const SourceManager &SM) {
  SourcePos Launch = toSourcePos(SM, L.K->getBeginLoc());
  const BoundCall *Outermost = L.Indirect ? L.Indirect->Frame : nullptr;
  std::vector<std::string> Through;
  for (; Outermost; Outermost = Outermost->Outer) {
    Through.insert(Through.begin(), "'" + Outermost->Callee->getNameAsString() + "'");
    if (!Outermost->Outer)
      break;
  }
  if (!Outermost)
    return {Launch, "the launch at " + posText(Launch)};
  SourcePos Call = toSourcePos(SM, Outermost->At);
  std::string Names;
  for (size_t I = 0; I < Through.size(); ++I)
    Names += (I ? (I + 1 == Through.size() ? " and " : ", ") : "") + Through[I];
  return {Call, fmt::format("the call at {}, which launches it through {} (at {})", posText(Call), Names,
                            posText(Launch))};
}

} // namespace

BlockShapeFinder::BlockShapeFinder(ASTContext &Ctx) : Ctx(Ctx) {
  LaunchScanner Scan(Ctx.getSourceManager());
  Scan.TraverseDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();
  // Launches whose callee is not a kernel: through the calls of launchers.
  LauncherCalls Launchers(Scan.Writes, Ctx);
  std::deque<IndirectLaunch> Indirect;
  std::deque<BoundCall> Made; // constructors followed
  auto Complete = [&](const CUDAKernelCallExpr *K) {
    return [&, K](const BoundCall *Frame) {
      auto D = constDim3(K->getConfig()->getArg(1), Ctx, Scan.Writes, 0, {nullptr, Frame, &Made});
      return D && (*D)[0] && (*D)[1] && (*D)[2];
    };
  };
  std::vector<const FunctionDecl *> Order;
  llvm::DenseMap<const FunctionDecl *, std::vector<LaunchSite>> ByKernel;
  auto Add = [&](const FunctionDecl *Kernel, LaunchSite Site) {
    auto &Sites = ByKernel[Kernel->getCanonicalDecl()];
    if (Sites.empty())
      Order.push_back(Kernel->getCanonicalDecl());
    Sites.push_back(Site);
  };
  for (const CUDAKernelCallExpr *K : Scan.Launches) {
    if (!K->getConfig() || K->getConfig()->getNumArgs() < 2)
      continue;
    if (const FunctionDecl *Callee = K->getDirectCallee()) {
      Add(Callee, {K, nullptr});
      continue;
    }
    for (const IndirectLaunch &L : Launchers.follow(K, Complete(K))) {
      Indirect.push_back(L);
      Add(L.Kernel, {K, &Indirect.back()});
    }
  }
  for (const FunctionDecl *Key : Order) {
    const std::vector<LaunchSite> &Ks = ByKernel[Key];
    // The block shape: the first launch with a constant one.
    for (const LaunchSite &L : Ks) {
      const CUDAKernelCallExpr *K = L.K;
      KnownValues Known = branchFacts(K, Ctx, Scan.Writes);
      EvalScope Scope{&Known, L.Indirect ? L.Indirect->Frame : nullptr, &Made};
      auto [Where, Text] = siteText(L, SM);
      auto D = constDim3(K->getConfig()->getArg(1), Ctx, Scan.Writes, 0, Scope);
      if (!D || !(*D)[0] || !(*D)[1] || !(*D)[2]) {
        // Some components only: kept for the kernel while no launch gives all.
        if (auto P = partialDim3(K->getConfig()->getArg(1), Ctx, Scan.Writes, Scope); P && !Partly.count(Key)) {
          BlockShape S;
          S.Dim = *P;
          S.From = BlockShape::Source::Launch;
          S.Where = Where;
          std::string Fixed;
          for (unsigned I = 0; I < 3; ++I)
            if ((*P)[I])
              Fixed += (Fixed.empty() ? "" : ", ") + fmt::format("blockDim.{} = {}", char('x' + I), (*P)[I]);
          S.Description = fmt::format("{} fixes only {} (its other extents are not constants)", Text, Fixed);
          Partly[Key] = S;
        }
        continue;
      }
      BlockShape S;
      S.Dim = *D;
      S.From = BlockShape::Source::Launch;
      S.Where = Where;
      S.Description = "from " + Text;
      // Say which branch fixed it, when the shape is not constant without it.
      if (!Known.empty() && !constDim3(K->getConfig()->getArg(1), Ctx, Scan.Writes, 0, {nullptr, Scope.Frame, &Made})) {
        std::string Facts;
        for (const auto &[VD, V] : Known)
          Facts += (Facts.empty() ? "" : " and ") + ("'" + VD->getNameAsString() + "' is ") +
                   std::to_string(V);
        S.Description += ", in the branch where " + Facts;
      }
      auto It = Launched.find(Key);
      if (It == Launched.end()) {
        Launched[Key] = S;
        continue;
      }
      // Other shapes: the barrier check tries each (FunctionModel).
      if (It->second.Dim != S.Dim &&
          llvm::none_of(Others[Key], [&](const BlockShape &O) { return O.Dim == S.Dim; }))
        Others[Key].push_back(S);
    }
    if (auto It = Launched.find(Key); It != Launched.end() && !Others.lookup(Key).empty())
      It->second.Description += " (other launches in this file use other shapes)";
    // The parameters every launch sets the same way (direct launches only:
    // what a launcher passes is its own parameters).
    if (llvm::any_of(Ks, [](const LaunchSite &L) { return L.Indirect; }))
      continue;
    std::map<unsigned, FixedArgument> Fixed;
    for (unsigned I = 0; I < Key->getNumParams() && I < Ks.front().K->getNumArgs(); ++I) {
      std::optional<FixedArgument> First;
      bool Same = true;
      for (const LaunchSite &L : Ks) {
        auto F = I < L.K->getNumArgs() ? fixedArgument(L.K, I, Ctx, Scan.Writes) : std::nullopt;
        if (!F || (First && F->Text.Value != First->Text.Value)) {
          Same = false;
          break;
        }
        if (!First)
          First = F;
      }
      if (!Same || !First)
        continue;
      First->Text.Launches = unsigned(Ks.size());
      Fixed[I] = *First;
    }
    if (!Fixed.empty())
      Arguments[Key] = std::move(Fixed);
  }
}

std::vector<BlockShape> BlockShapeFinder::otherLaunchShapesOf(const FunctionDecl *Kernel) const {
  auto It = Others.find(Kernel->getCanonicalDecl());
  return It == Others.end() ? std::vector<BlockShape>() : It->second;
}

std::map<unsigned, BlockShapeFinder::FixedArgument>
BlockShapeFinder::argumentsOf(const FunctionDecl *Kernel) const {
  auto It = Arguments.find(Kernel->getCanonicalDecl());
  return It == Arguments.end() ? std::map<unsigned, FixedArgument>() : It->second;
}

std::optional<BlockShape> BlockShapeFinder::launchShapeOf(const FunctionDecl *Kernel) const {
  auto It = Launched.find(Kernel->getCanonicalDecl());
  if (It != Launched.end())
    return It->second;
  if (auto P = Partly.find(Kernel->getCanonicalDecl()); P != Partly.end())
    return P->second;
  return std::nullopt;
}

std::optional<BlockShape> BlockShapeFinder::boundsShapeOf(const FunctionDecl *Kernel) const {
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    if (auto Max = constInt(LB->getMaxThreads(), Ctx)) {
      BlockShape S;
      S.Dim = {{unsigned(*Max), 1, 1}};
      S.From = BlockShape::Source::LaunchBounds;
      S.Where = toSourcePos(Ctx.getSourceManager(), LB->getLocation());
      S.Description = "from __launch_bounds__(" + std::to_string(*Max) + ") at " + S.Where.File +
                      ":" + std::to_string(S.Where.Line) + " (1-D, the maximum)";
      return S;
    }
  }
  return std::nullopt;
}

} // namespace cbl
