//===- BlockShapes.cpp - Launch configurations and __launch_bounds__ -------===//
#include "BlockShapes.h"
#include "HostValues.h"
#include "LaunchSites.h"
#include "Launchers.h"
#include "SharedArrays.h"
#include "UserCodeVisitor.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SetVector.h"

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

/// One pass over user code: the kernel launches (any form: LaunchSites.h),
/// and the writes of the variables (threads.x = n, count++, &count: not to
/// be trusted as constants; a plain `v = e` alone may be followed,
/// HostValues.h; a member's, cfg.blockDim = b, is kept with its value).
struct LaunchScanner : UserCodeVisitor<LaunchScanner> {
  using UserCodeVisitor::UserCodeVisitor;
  HostWrites Writes;
  std::vector<const CallExpr *> Launches;
  /// &cfg given to a launch, which only reads it.
  llvm::DenseSet<const Expr *> ReadOnly;
  /// The declarations and statements the scan is inside (HostWrites::noteWay).
  std::vector<HostWrites::Node> Ancestors;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    Ancestors.push_back(D);
    bool Go = UserCodeVisitor::TraverseDecl(D);
    Ancestors.pop_back();
    return Go;
  }
  bool dataTraverseStmtPre(Stmt *S) {
    Ancestors.push_back(S);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Ancestors.pop_back();
    return true;
  }

  /// L written by Write; Value: what a plain `L = Value` gives it.
  void assigned(const Expr *L, const Stmt *Write = nullptr, const Expr *Value = nullptr) {
    L = L->IgnoreParenImpCasts();
    const MemberExpr *Member = nullptr; // the variable's own member written
    unsigned Depth = 0;
    bool Arrow = false;
    for (; Depth < 16 && isa<MemberExpr>(L); ++Depth) {
      Member = cast<MemberExpr>(L);
      Arrow |= Member->isArrow();
      L = Member->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(L);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      return;
    const auto *Field = Member && !Arrow ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
    if (Field)
      Writes.Members[VD].push_back({Field, Depth == 1, Depth == 1 ? Value : nullptr, Write});
    const auto *Plain = dyn_cast_or_null<BinaryOperator>(Write);
    Writes.noteWrite(VD, !Member && Value && Plain ? Plain : nullptr);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Writes.noteBody(FD->getBody());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      assigned(BO->getLHS(), BO, BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || (UO->getOpcode() == UO_AddrOf && !ReadOnly.count(UO)))
      assigned(UO->getSubExpr(), UO);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs())
      assigned(OC->getArg(0), OC,
               OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 ? OC->getArg(1) : nullptr);
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
        isa<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
      Writes.Calls[FD->getCanonicalDecl()].push_back(Call);
      Writes.noteWay(Ancestors);
    }
    // A runtime launch reads its arguments (cudaLaunchKernelEx's are
    // forwarding references) and the configuration it is given.
    if (auto Form = runtimeLaunchForm(FD, SM)) {
      if (!Call->isTypeDependent() && !Call->isValueDependent() && !Call->containsErrors()) {
        Launches.push_back(Call);
        Writes.noteWay(Ancestors);
      }
      if (const Expr *Config = launchConfigArgument(Call, *Form))
        ReadOnly.insert(Config->IgnoreParenImpCasts());
      return true;
    }
    // A member operator's object is argument 0 (std::cin >> n).
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
      if (I - Shift >= FD->getNumParams())
        break;
      QualType T = FD->getParamDecl(I - Shift)->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
        assigned(Call->getArg(I), Call);
    }
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *K) {
    if (!K->isTypeDependent() && !K->isValueDependent() && !K->containsErrors()) {
      Launches.push_back(K);
      Writes.noteWay(Ancestors);
    }
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

/// What launch L passes for its I-th argument, when that is a constant or
/// the block size it launches with (the block argument's own variable, or
/// one of its components).
std::optional<BlockShapeFinder::FixedArgument> fixedArgument(const LaunchRecord &L, unsigned I,
                                                             ASTContext &Ctx, const HostWrites &Writes) {
  const Expr *Arg = L.Args[I];
  // Calls only possibly have effects: a helper the host values can run
  // (HostFunctions.h) has none; any other call is not followed.
  if (!Arg->getType()->isIntegerType() || Arg->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return std::nullopt;
  BlockShapeFinder::FixedArgument F;
  const Expr *Block = blockSource(L.Block);
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
    if (auto V = hostValueAt(Arg, L.Call->getBeginLoc(), Writes,
                             blockSizes(L.Block, L.Call->getBeginLoc(), Writes, Ctx), Ctx, &F.Text.Value))
      F.Value = *V;
  if (F.Text.Value.empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  F.Text.Spelling = Lexer::getSourceText(CharSourceRange::getTokenRange(Arg->getSourceRange()), SM,
                                         Ctx.getLangOpts())
                        .str();
  F.Text.Where = toSourcePos(SM, L.Call->getBeginLoc());
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
KnownValues branchFacts(const Stmt *K, ASTContext &Ctx, const HostWrites &Writes) {
  KnownValues Out;
  const Stmt *Child = K;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    const Stmt *P = Writes.parentOf(Child).dyn_cast<const Stmt *>();
    if (!P)
      break; // the function, or a declaration in it
    if (const auto *If = dyn_cast<IfStmt>(P); If && If->getThen() == Child)
      noteEqualities(If->getCond(), Ctx, Writes, Out);
    if (const auto *Body = dyn_cast<CompoundStmt>(P))
      if (const auto *Sw = dyn_cast_or_null<SwitchStmt>(Writes.parentOf(P).dyn_cast<const Stmt *>());
          Sw && Sw->getBody() == Body)
        noteCase(Sw, Body, Child, Ctx, Writes, Out);
    Child = P;
  }
  return Out;
}

} // namespace

namespace {

/// A launch of one kernel: one that names it (Indirect null, or the calls
/// that give its block, a parameter of its function), or one through
/// launchers (Named false).
struct LaunchSite {
  const LaunchRecord *L = nullptr;
  const IndirectLaunch *Indirect = nullptr;
  bool Named = true;
};

std::string posText(const SourcePos &P) { return fmt::format("{}:{}:{}", P.File, P.Line, P.Column); }

/// Where a launch site is for users, and how it reads: "the launch at
/// k.cu:40:3", "the launch at k.cu:40:3 as called from k.cu:52:5" (the calls
/// followed, innermost first), "the call at k.cu:52:5, which launches it
/// through 'run' and 'launch' (at common.h:12:3)" (the outermost call).
std::pair<SourcePos, std::string> siteText(const LaunchSite &S, const SourceManager &SM) {
  SourcePos Launch = toSourcePos(SM, S.L->Call->getBeginLoc());
  const BoundCall *Outermost = S.Indirect ? S.Indirect->Frame : nullptr;
  if (Outermost && S.Named) {
    std::string Calls;
    for (const BoundCall *C = Outermost; C; C = C->Outer)
      Calls += (Calls.empty() ? "" : ", from ") + posText(toSourcePos(SM, C->At));
    return {Launch, fmt::format("the launch at {} as called from {}", posText(Launch), Calls)};
  }
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

/// The parameters every launch of a kernel (Ks) sets the same way. Only
/// launches that name the kernel: what a launcher passes is its own
/// parameters.
std::map<unsigned, BlockShapeFinder::FixedArgument>
fixedArguments(const FunctionDecl *Kernel, const std::vector<LaunchSite> &Ks, ASTContext &Ctx, const HostWrites &W) {
  std::map<unsigned, BlockShapeFinder::FixedArgument> Fixed;
  if (llvm::any_of(Ks, [](const LaunchSite &S) { return !S.Named; }))
    return Fixed;
  llvm::SetVector<const LaunchRecord *> Launches; // each once, however many calls give its block
  for (const LaunchSite &S : Ks)
    Launches.insert(S.L);
  for (unsigned I = 0; I < Kernel->getNumParams() && I < Ks.front().L->Args.size(); ++I) {
    std::optional<BlockShapeFinder::FixedArgument> First;
    bool Same = true;
    for (const LaunchRecord *L : Launches) {
      auto F = I < L->Args.size() ? fixedArgument(*L, I, Ctx, W) : std::nullopt;
      if (!F || (First && F->Text.Value != First->Text.Value)) {
        Same = false;
        break;
      }
      if (!First)
        First = F;
    }
    if (!Same || !First)
      continue;
    First->Text.Launches = unsigned(Launches.size());
    Fixed[I] = *First;
  }
  return Fixed;
}

/// The file's launches by kernel, each with the calls that bind what it
/// reads (Launchers.h), and the block shape each gives.
class KernelLaunches {
public:
  KernelLaunches(const HostWrites &W, ASTContext &Ctx) : W(W), Ctx(Ctx), Launchers(W, Ctx) {}

  /// The sites of launch C (any form), if it is one.
  void add(const CallExpr *C) {
    std::optional<LaunchRecord> R = launchOf(C, W, Ctx);
    if (!R)
      return;
    Records.push_back(*R);
    const LaunchRecord &L = Records.back();
    KnownValues Known = branchFacts(L.Call, Ctx, W);
    auto Complete = [&](const BoundCall *Frame) { return dim3At(L, {&Known, Frame, &Made}).has_value(); };
    std::vector<IndirectLaunch> Found = Launchers.follow(L, Complete);
    // A launch that names its kernel: through the calls of its function only
    // where they give its block (several calls, several shapes).
    const FunctionDecl *Direct = namedKernel(L);
    if (Direct) {
      llvm::erase_if(Found, [&](const IndirectLaunch &I) { return !I.Frame || !Complete(I.Frame); });
      if (Found.empty())
        return site(Direct, {&L, nullptr, true});
    }
    for (const IndirectLaunch &I : Found) {
      Indirect.push_back(I);
      site(I.Kernel, {&L, &Indirect.back(), Direct != nullptr});
    }
  }

  /// The whole block L gives in Scope, when every extent is a constant.
  std::optional<std::array<unsigned, 3>> dim3At(const LaunchRecord &L, EvalScope Scope) {
    auto D = constDim3(L.Block, Ctx, W, 0, Scope);
    return D && (*D)[0] && (*D)[1] && (*D)[2] ? D : std::nullopt;
  }

  /// The shape site S gives, or (Partial set) the extents it fixes when
  /// some are not constants.
  std::optional<BlockShape> shapeAt(const LaunchSite &S, std::optional<BlockShape> &Partial) {
    KnownValues Known = branchFacts(S.L->Call, Ctx, W);
    EvalScope Scope{&Known, S.Indirect ? S.Indirect->Frame : nullptr, &Made};
    auto [Where, Text] = siteText(S, Ctx.getSourceManager());
    BlockShape Shape;
    Shape.From = BlockShape::Source::Launch;
    Shape.Where = Where;
    auto D = dim3At(*S.L, Scope);
    if (!D) {
      auto P = partialDim3(S.L->Block, Ctx, W, Scope);
      if (!P)
        return std::nullopt;
      Shape.Dim = *P;
      std::string Fixed;
      for (unsigned I = 0; I < 3; ++I)
        if ((*P)[I])
          Fixed += (Fixed.empty() ? "" : ", ") + fmt::format("blockDim.{} = {}", char('x' + I), (*P)[I]);
      Shape.Description = fmt::format("{} fixes only {} (its other extents are not constants)", Text, Fixed);
      Partial = Shape;
      return std::nullopt;
    }
    Shape.Dim = *D;
    Shape.Description = "from " + Text;
    // Say which branch fixed it, when the shape is not constant without it.
    if (!Known.empty() && !dim3At(*S.L, {nullptr, Scope.Frame, &Made})) {
      // In the order the variables are declared (the map's is the heap's).
      std::vector<std::pair<const VarDecl *, uint64_t>> InOrder(Known.begin(), Known.end());
      const SourceManager &SM = Ctx.getSourceManager();
      std::sort(InOrder.begin(), InOrder.end(), [&](const auto &A, const auto &B) {
        return SM.isBeforeInTranslationUnit(A.first->getLocation(), B.first->getLocation());
      });
      std::string Facts;
      for (const auto &[VD, V] : InOrder)
        Facts += (Facts.empty() ? "" : " and ") + ("'" + VD->getNameAsString() + "' is ") + std::to_string(V);
      Shape.Description += ", in the branch where " + Facts;
    }
    return Shape;
  }

  std::vector<const FunctionDecl *> Order;
  llvm::DenseMap<const FunctionDecl *, std::vector<LaunchSite>> ByKernel;

private:
  void site(const FunctionDecl *Kernel, LaunchSite S) {
    auto &Sites = ByKernel[Kernel->getCanonicalDecl()];
    if (Sites.empty())
      Order.push_back(Kernel->getCanonicalDecl());
    Sites.push_back(S);
  }

  const HostWrites &W;
  ASTContext &Ctx;
  LauncherCalls Launchers;
  std::deque<LaunchRecord> Records; ///< stable: the sites point to them
  std::deque<IndirectLaunch> Indirect;
  std::deque<BoundCall> Made; ///< constructors followed
};

} // namespace

BlockShapeFinder::BlockShapeFinder(ASTContext &Ctx) : Ctx(Ctx) {
  LaunchScanner Scan(Ctx.getSourceManager());
  Scan.TraverseDecl(Ctx.getTranslationUnitDecl());
  KernelLaunches All(Scan.Writes, Ctx);
  for (const CallExpr *C : Scan.Launches)
    All.add(C);
  for (const FunctionDecl *Key : All.Order) {
    const std::vector<LaunchSite> &Ks = All.ByKernel[Key];
    // The block shape: the first launch with a constant one.
    for (const LaunchSite &L : Ks) {
      std::optional<BlockShape> Partial;
      std::optional<BlockShape> S = All.shapeAt(L, Partial);
      // Some extents only: kept for the kernel while no launch gives all.
      if (Partial && !Partly.count(Key))
        Partly[Key] = *Partial;
      if (!S)
        continue;
      auto It = Launched.find(Key);
      if (It == Launched.end()) {
        Launched[Key] = *S;
        continue;
      }
      // Other shapes: the barrier check tries each (FunctionModel).
      if (It->second.Dim != S->Dim &&
          llvm::none_of(Others[Key], [&](const BlockShape &O) { return O.Dim == S->Dim; }))
        Others[Key].push_back(*S);
    }
    if (auto It = Launched.find(Key); It != Launched.end() && !Others.lookup(Key).empty())
      It->second.Description += " (other launches in this file use other shapes)";
    if (auto Fixed = fixedArguments(Key, Ks, Ctx, Scan.Writes); !Fixed.empty())
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
    // A maximum outside 1..1024 bounds nothing a launch could have.
    if (auto Max = constInt(LB->getMaxThreads(), Ctx); Max && *Max >= 1 && *Max <= 1024) {
      BlockShape S;
      S.Dim = {{unsigned(*Max), 1, 1}};
      S.From = BlockShape::Source::LaunchBounds;
      S.MaxThreads = unsigned(*Max);
      S.Where = toSourcePos(Ctx.getSourceManager(), LB->getLocation());
      S.Description = "from __launch_bounds__(" + std::to_string(*Max) + ") at " + S.Where.File +
                      ":" + std::to_string(S.Where.Line) +
                      " (1-D, the maximum; every width up to it where threadIdx.y or .z is read)";
      return S;
    }
  }
  return std::nullopt;
}

std::string BlockShapeFinder::ignoredBoundsOf(const FunctionDecl *Kernel) const {
  const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>();
  if (!LB || boundsShapeOf(Kernel))
    return "";
  SourcePos Where = toSourcePos(Ctx.getSourceManager(), LB->getLocation());
  std::string At = " at " + Where.File + ":" + std::to_string(Where.Line);
  if (auto Max = constInt(LB->getMaxThreads(), Ctx))
    return "__launch_bounds__(" + std::to_string(*Max) + ")" + At + " (outside 1..1024)";
  return "__launch_bounds__" + At + " (its maximum is not a constant)";
}

} // namespace cbl
