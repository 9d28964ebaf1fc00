//===- FunctionWalker.cpp - Program-order walk recording shared accesses --===//
//
// The walking half of FunctionWalker (see the header for the model). Loads are
// lvalue-to-rvalue conversions and trivial copies of shared lvalues; stores are
// assignments to them; compound assignments and increments are both.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>

using namespace clang;

namespace cbl {

namespace {
SymRef trueValue() { return SymExpr::constant(1, IntType::boolean()); }
bool isTrue(const SymRef &C) { return !C || (C->isConst() && C->Value != 0); }
bool isFalse(const SymRef &C) { return C && C->isConst() && C->Value == 0; }
SymRef andOf(const SymRef &A, const SymRef &B) {
  if (isTrue(A)) return B ? B : trueValue();
  if (isTrue(B)) return A;
  if (isFalse(A) || isFalse(B)) return SymExpr::constant(0, IntType::boolean());
  return SymExpr::binary(Opcode::LAnd, A, B, IntType::boolean());
}
SymRef notOf(const SymRef &A) { return SymExpr::unary(Opcode::LNot, A, IntType::boolean()); }

/// Locals assigned anywhere inside a statement (for loops).
struct AssignedVars : RecursiveASTVisitor<AssignedVars> {
  llvm::SmallVector<const VarDecl *, 8> Vars;
  void note(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->isLocalVarDeclOrParm() && !isSharedVar(VD) &&
            llvm::find(Vars, VD) == Vars.end())
          Vars.push_back(VD);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      note(UO->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0)
      note(OC->getArg(0));
    return true;
  }
};

/// Does the loop body leave an iteration early (break, continue, return,
/// goto)? Breaks and continues of nested loops and switches do not count.
bool leavesEarly(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    unsigned Nested = 0;
    bool TraverseForStmt(ForStmt *S) { return nested(S); }
    bool TraverseWhileStmt(WhileStmt *S) { return nested(S); }
    bool TraverseDoStmt(DoStmt *S) { return nested(S); }
    bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) { return nested(S); }
    bool TraverseSwitchStmt(SwitchStmt *S) { // a continue in it still leaves
      ++InSwitch;
      for (Stmt *Child : S->children())
        TraverseStmt(Child);
      --InSwitch;
      return !Found;
    }
    unsigned InSwitch = 0;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool nested(Stmt *S) {
      ++Nested;
      for (Stmt *Child : S->children())
        TraverseStmt(Child);
      --Nested;
      return !Found;
    }
    bool VisitBreakStmt(BreakStmt *) { Found |= Nested == 0 && InSwitch == 0; return !Found; }
    bool VisitContinueStmt(ContinueStmt *S) {
      Found |= Nested == 0;
      return !Found;
    }
    bool VisitReturnStmt(ReturnStmt *) { Found = true; return false; }
    bool VisitGotoStmt(GotoStmt *) { Found = true; return false; }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

bool isTrivialCopy(const CXXMethodDecl *MD) {
  return MD && MD->isTrivial() &&
         (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator());
}
} // namespace

std::optional<std::string> blockBarrierSpelling(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  std::string Name = Callee->getNameAsString();
  if (Name == "__syncthreads" || Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or" || Name == "__barrier_sync" || Name == "__nvvm_bar_sync" ||
      Name == "__nvvm_barrier0" || Name == "__nvvm_bar0_popc" || Name == "__nvvm_bar0_and" ||
      Name == "__nvvm_bar0_or")
    return Name + "()";
  if (Name != "sync")
    return std::nullopt;
  // cooperative_groups: thread_block, grid_group and cluster_group wait for
  // every thread of the block (and more); tiles, coalesced groups and dynamic
  // thread_groups are warp-level or partial and are not block barriers.
  auto GroupOf = [](QualType T) {
    T = T.getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    std::string N = RD ? RD->getNameAsString() : std::string();
    return (N == "thread_block" || N == "grid_group" || N == "cluster_group") ? N : std::string();
  };
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee)) {
    // The CUDA headers declare thread_block::sync() static (called through an
    // object, so no CXXMemberCallExpr); the prelude inherits it from
    // thread_group, so the object's own type decides.
    std::string G = GroupOf(QualType(MD->getParent()->getTypeForDecl(), 0));
    if (G.empty())
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
        if (const Expr *Obj = MC->getImplicitObjectArgument())
          G = GroupOf(Obj->IgnoreImpCasts()->getType());
    if (G.empty())
      if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
        G = GroupOf(ME->getBase()->IgnoreImpCasts()->getType());
    if (!G.empty())
      return G + ".sync()";
    return std::nullopt;
  }
  if (Call->getNumArgs() == 1) {
    std::string G = GroupOf(Call->getArg(0)->IgnoreImpCasts()->getType());
    if (!G.empty())
      return "cooperative_groups::sync(" + G + ")";
  }
  return std::nullopt;
}

bool isBlockBarrierAsm(const Stmt *S) {
  const auto *Asm = dyn_cast<GCCAsmStmt>(S);
  if (!Asm)
    return false;
  std::string Text = Asm->getAsmString()->getString().str();
  for (const char *Op : {"barrier.sync", "bar.sync"}) {
    size_t P = Text.find(Op);
    if (P == std::string::npos)
      continue;
    size_t End = Text.find(';', P);
    std::string Operands = Text.substr(P, End == std::string::npos ? std::string::npos : End - P);
    return Operands.find(',') == std::string::npos; // no thread count
  }
  return false;
}

SourcePos FunctionWalker::pos(SourceLocation L) const {
  return toSourcePos(Ctx.getSourceManager(), L);
}

Guard FunctionWalker::reachedGuard(const SymRef &AliveCond) const {
  // Kind says which exits made threads leave: "early return" when all of
  // them were returns (threads gone for good), else "break"/"continue", or
  // "reached" when mixed or unknown; Where is the first such exit.
  Guard G{AliveCond, false, SourcePos(), "reached"};
  if (Exits.empty())
    return G;
  G.Where = Exits.front().Where;
  bool Same = llvm::all_of(Exits, [&](const ExitSite &E) { return E.Kind == Exits.front().Kind; });
  if (Same)
    G.Kind = Exits.front().Kind == "return" ? "early return" : Exits.front().Kind;
  return G;
}

std::vector<Guard> FunctionWalker::currentGuards() const {
  std::vector<Guard> G = Path;
  if (!isTrue(Alive))
    G.push_back(reachedGuard(Alive));
  return G;
}

void FunctionWalker::recordAccess(const Expr *LV, const SharedLoc &Loc, AccessOp Op,
                                  QualType ValueType) {
  if (!Recording || !Out)
    return;
  SharedAccess A;
  A.ArrayId = Loc.ArrayId;
  A.Where = pos(LV->getBeginLoc());
  A.Spelling = spell(LV);
  A.Op = Op;
  A.ByteOffset = Loc.ByteOffset;
  A.Guards = currentGuards();
  A.Loops = LoopStack;
  if (!CallSites.empty()) {
    A.CallSite = CallSites.front().first;
    A.Callee = CallSites.front().second;
  }
  QualType T = ValueType.isNull() ? Loc.Type : ValueType;
  uint64_t Size = sizeOf(T);
  // An aggregate is moved in the widest chunks its alignment allows (at most
  // 16 bytes), as the compiler does: a 16-byte aligned float4 is one LDS.128,
  // a struct of three floats is three LDS.32.
  uint64_t Align = T->isIncompleteType() ? 1 : Ctx.getTypeAlignInChars(T).getQuantity();
  uint64_t Chunk = 16;
  while (Chunk > 1 && (Align % Chunk != 0 || Size % Chunk != 0))
    Chunk /= 2;
  if (Size <= 16 && Size && (Size & (Size - 1)) == 0 && Align >= Size)
    Chunk = Size;
  for (uint64_t Off = 0; Off < std::max<uint64_t>(Size, 1); Off += Chunk) {
    SharedAccess Part = A;
    Part.Width = unsigned(Chunk);
    if (Off)
      Part.ByteOffset = SymExpr::binary(Opcode::Add, A.ByteOffset, SymExpr::constant(int64_t(Off)),
                                        IntType::i64());
    Out->Accesses.push_back(std::move(Part));
  }
}

void FunctionWalker::recordBarrier(const Stmt *S, std::string Spelling, std::string ViaCall,
                                   SourcePos CalleeBarrier) {
  if (!Recording || !Out || InlineDepth)
    return;
  BarrierSite B;
  B.Where = pos(S->getBeginLoc());
  B.Spelling = std::move(Spelling);
  B.Guards = currentGuards();
  B.ViaCall = std::move(ViaCall);
  B.CalleeBarrier = std::move(CalleeBarrier);
  Out->Barriers.push_back(std::move(B));
}

void FunctionWalker::assignVar(const VarDecl *VD, const Expr *RHS, SymRef Value) {
  if (VD->getType()->isPointerType()) {
    if (auto P = RHS ? ptrOf(RHS) : std::nullopt)
      Vars.Ptrs[VD] = *P;
    else
      Vars.Ptrs.erase(VD);
    return;
  }
  if (!VD->getType()->isIntegralOrEnumerationType()) {
    // Floating point and other scalars: track only whether they vary.
    if (!VD->getType()->isScalarType())
      return;
    Value = uniformityMarker(VD, RHS ? threadVarying(RHS) : !Value || isThreadVarying(Value));
  }
  Vars.Ints[VD] = SymExpr::cast(Value, intTypeOf(VD->getType()));
  if (!Recording) {
    // Dry walk of a loop body: remember whether the variable ever takes a
    // thread-varying value or is assigned under a thread-varying condition.
    bool Varying = isThreadVarying(Value);
    for (const Guard &G : currentGuards())
      Varying |= isThreadVarying(G.Cond);
    AssignedVarying[VD] |= Varying;
  }
}

void FunctionWalker::declare(const VarDecl *VD) {
  if (isSharedVar(VD)) {
    Table.add(VD, Arrays);
    return;
  }
  const Expr *Init = VD->getInit();
  if (Init)
    visit(Init);
  if (VD->getType()->isReferenceType()) {
    if (Init)
      if (auto L = lvalOf(Init))
        Vars.Refs[VD] = *L;
    return;
  }
  if (VD->getType()->isPointerType()) {
    assignVar(VD, Init, nullptr);
    return;
  }
  if (VD->getType()->isScalarType() && !VD->getType()->isIntegralOrEnumerationType()) {
    Vars.Ints[VD] = uniformityMarker(VD, !Init || threadVarying(Init));
    return;
  }
  if (VD->getType()->isIntegralOrEnumerationType()) {
    if (Init)
      assignVar(VD, Init, intOf(Init));
    else
      Vars.Ints[VD] = SymExpr::varying(VD->getNameAsString(), "'" + VD->getNameAsString() +
                                           "' is uninitialised", intTypeOf(VD->getType()));
  }
}

void FunctionWalker::visitLValueOperands(const Expr *LV) {
  LV = LV->IgnoreParens();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LV)) {
    visit(ASE->getIdx());
    const Expr *Base = ASE->getBase()->IgnoreParens();
    if (const auto *Decay = dyn_cast<ImplicitCastExpr>(Base))
      if (Decay->getCastKind() == CK_ArrayToPointerDecay) {
        visitLValueOperands(Decay->getSubExpr());
        return;
      }
    visit(Base);
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(LV)) {
    if (ME->isArrow())
      visit(ME->getBase());
    else
      visitLValueOperands(ME->getBase());
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(LV)) {
    visit(UO->getSubExpr());
    return;
  }
  if (const auto *CE = dyn_cast<CastExpr>(LV)) {
    visitLValueOperands(CE->getSubExpr());
    return;
  }
  if (isa<DeclRefExpr>(LV))
    return;
  visit(LV);
}

/// Does FD's body name a __shared__ variable (directly)?
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
  if (!SharedArg && !mentionsShared(Def) && !Ret->isIntegralOrEnumerationType() &&
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

void FunctionWalker::visitCall(const CallExpr *Call) {
  for (const Expr *Arg : Call->arguments())
    visit(Arg);
  if (auto Spelling = blockBarrierSpelling(Call)) {
    recordBarrier(Call, *Spelling, "", SourcePos());
    return;
  }
  // Helpers are analysed with the actual arguments; their barriers are
  // reported at the call (below), so the inlined walk records none.
  {
    ++InlineDepth;
    inlineCall(Call, Call->getDirectCallee());
    --InlineDepth;
  }
  if (const FunctionDecl *Callee = Call->getDirectCallee()) {
    auto It = Barriers.find(Callee->getCanonicalDecl());
    if (It == Barriers.end() && Callee->getTemplateInstantiationPattern())
      It = Barriers.find(Callee->getTemplateInstantiationPattern()->getCanonicalDecl());
    if (It != Barriers.end()) {
      std::string Name;
      llvm::raw_string_ostream OS(Name);
      Callee->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), true);
      recordBarrier(Call, "call to '" + OS.str() + "'", OS.str(), It->second);
      if (Recording && Out && !Out->Barriers.empty())
        for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
          if (Call->getArg(I)->getType()->isIntegralOrEnumerationType())
            Out->Barriers.back().Args.push_back(
                {Callee->getParamDecl(I)->getNameAsString(), intOf(Call->getArg(I))});
    }
  }
}

void FunctionWalker::visit(const Expr *E) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_LValueToRValue) {
      // A call returning a reference is analysed first, so its result is known.
      if (isa<CallExpr>(ICE->getSubExpr()->IgnoreParens()) && !lvalOf(ICE->getSubExpr())) {
        visit(ICE->getSubExpr());
        if (auto Loc = lvalOf(ICE->getSubExpr()))
          recordAccess(ICE->getSubExpr(), *Loc, AccessOp::Load, ICE->getType());
        return;
      }
      if (lvalOf(ICE->getSubExpr())) {
        // Operands first: a helper call in the index is analysed (and its
        // result known) before the address is translated.
        visitLValueOperands(ICE->getSubExpr());
        if (auto Loc = lvalOf(ICE->getSubExpr()))
          recordAccess(ICE->getSubExpr(), *Loc, AccessOp::Load, ICE->getType());
        return;
      }
    }
    visit(ICE->getSubExpr());
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp()) {
      visit(BO->getRHS());
      bool CallLHS = isa<CallExpr>(BO->getLHS()->IgnoreParens()) && !lvalOf(BO->getLHS());
      if (CallLHS)
        visit(BO->getLHS()); // analyse the helper; its returned reference is then known
      else if (lvalOf(BO->getLHS()))
        visitLValueOperands(BO->getLHS());
      if (auto Loc = lvalOf(BO->getLHS())) {
        if (BO->isCompoundAssignmentOp())
          recordAccess(BO->getLHS(), *Loc, AccessOp::Load, BO->getLHS()->getType());
        recordAccess(BO->getLHS(), *Loc, AccessOp::Store, BO->getLHS()->getType());
        return;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
          if (BO->isCompoundAssignmentOp()) {
            // x op= e  is  x = x op e, in the computation type.
            const auto *CAO = cast<CompoundAssignOperator>(BO);
            IntType CT = intTypeOf(CAO->getComputationResultType());
            SymRef Old = SymExpr::cast(valueOfVar(VD, BO->getLHS()), CT);
            SymRef R = intOf(BO->getRHS());
            Opcode Op = Opcode::Add;
            bool Known = true;
            switch (BO->getOpcode()) {
            case BO_AddAssign: Op = Opcode::Add; break;
            case BO_SubAssign: Op = Opcode::Sub; break;
            case BO_MulAssign: Op = Opcode::Mul; break;
            case BO_DivAssign: Op = Opcode::Div; break;
            case BO_RemAssign: Op = Opcode::Rem; break;
            case BO_ShlAssign: Op = Opcode::Shl; break;
            case BO_ShrAssign: Op = Opcode::Shr; break;
            case BO_AndAssign: Op = Opcode::And; break;
            case BO_OrAssign: Op = Opcode::Or; break;
            case BO_XorAssign: Op = Opcode::Xor; break;
            default: Known = false;
            }
            if (VD->getType()->isPointerType()) {
              if (auto P = ptrOf(BO->getLHS())) {
                SymRef Off = scaledIndex(BO->getRHS(), SymExpr::constant(int64_t(sizeOf(P->Type))));
                if (BO->getOpcode() == BO_SubAssign)
                  Off = SymExpr::unary(Opcode::Neg, Off, IntType::i64());
                P->ByteOffset = SymExpr::binary(Opcode::Add, P->ByteOffset, Off, IntType::i64());
                Vars.Ptrs[VD] = *P;
              }
              return;
            }
            if (Known && (Op == Opcode::Shl || Op == Opcode::Shr))
              assignVar(VD, nullptr, SymExpr::binary(Op, Old, R, CT));
            else if (Known)
              assignVar(VD, nullptr, SymExpr::binary(Op, Old, SymExpr::cast(R, CT), CT));
            else
              assignVar(VD, nullptr, unknownFor(BO, "unsupported assignment", true));
          } else {
            assignVar(VD, BO->getRHS(),
                      VD->getType()->isIntegralOrEnumerationType() ? intOf(BO->getRHS()) : nullptr);
          }
          return;
        }
      if (!CallLHS)
        visit(BO->getLHS());
      return;
    }
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr) {
      visit(BO->getLHS());
      SymRef C = boolOf(BO->getLHS());
      Path.push_back(Guard{C, BO->getOpcode() == BO_LOr, pos(BO->getOperatorLoc()),
                           BO->getOpcode() == BO_LAnd ? "&&" : "||"});
      Env Saved = Vars;
      visit(BO->getRHS());
      Path.pop_back();
      mergeEnvs(C, BO->getOpcode() == BO_LAnd ? Vars : Saved,
                BO->getOpcode() == BO_LAnd ? Saved : Vars, true, true);
      return;
    }
    visit(BO->getLHS());
    visit(BO->getRHS());
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp()) {
      if (auto Loc = lvalOf(UO->getSubExpr())) {
        visitLValueOperands(UO->getSubExpr());
        recordAccess(UO->getSubExpr(), *Loc, AccessOp::Load, UO->getSubExpr()->getType());
        recordAccess(UO->getSubExpr(), *Loc, AccessOp::Store, UO->getSubExpr()->getType());
        return;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
          if (VD->getType()->isPointerType()) {
            auto It = Vars.Ptrs.find(VD);
            if (It != Vars.Ptrs.end()) {
              int64_t Step = int64_t(sizeOf(It->second.Type)) * (UO->isIncrementOp() ? 1 : -1);
              It->second.ByteOffset = SymExpr::binary(Opcode::Add, It->second.ByteOffset,
                                                      SymExpr::constant(Step), IntType::i64());
            }
            return;
          }
          SymRef Old = valueOfVar(VD, UO->getSubExpr());
          assignVar(VD, nullptr,
                    SymExpr::binary(UO->isIncrementOp() ? Opcode::Add : Opcode::Sub, Old,
                                    SymExpr::constant(1, Old->Type), Old->Type));
          return;
        }
    }
    if (UO->getOpcode() == UO_AddrOf) {
      // Taking an address is not an access, but its index operands may load.
      if (lvalOf(UO->getSubExpr())) {
        visitLValueOperands(UO->getSubExpr());
        return;
      }
    }
    visit(UO->getSubExpr());
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    visit(CO->getCond());
    SymRef C = boolOf(CO->getCond());
    Env Saved = Vars;
    Path.push_back(Guard{C, false, pos(CO->getQuestionLoc()), "?:"});
    visit(CO->getTrueExpr());
    Env Then = Vars;
    Path.back().Negated = true;
    Vars = Saved;
    visit(CO->getFalseExpr());
    Path.pop_back();
    mergeEnvs(C, Then, Vars, true, true);
    return;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    if (isTrivialCopy(MD) && OC->getNumArgs() == 2) {
      visit(OC->getArg(1));
      if (auto Src = lvalOf(OC->getArg(1))) {
        recordAccess(OC->getArg(1), *Src, AccessOp::Load, OC->getArg(1)->getType());
        visitLValueOperands(OC->getArg(1));
      }
      if (auto Dst = lvalOf(OC->getArg(0))) {
        visitLValueOperands(OC->getArg(0));
        recordAccess(OC->getArg(0), *Dst, AccessOp::Store, OC->getArg(0)->getType());
      } else {
        visit(OC->getArg(0));
      }
      return;
    }
  }
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CCE->getConstructor();
    if (Ctor && Ctor->isTrivial() && Ctor->isCopyOrMoveConstructor() && CCE->getNumArgs() == 1) {
      const Expr *Arg = CCE->getArg(0)->IgnoreParens();
      if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Arg))
        Arg = MTE->getSubExpr();
      if (auto Src = lvalOf(Arg)) {
        recordAccess(Arg, *Src, AccessOp::Load, CCE->getType());
        visitLValueOperands(Arg);
        return;
      }
    }
    for (const Expr *Arg : CCE->arguments())
      visit(Arg);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      visit(MC->getImplicitObjectArgument());
    else if (!isa<CXXOperatorCallExpr>(Call))
      visit(Call->getCallee());
    visitCall(Call);
    return;
  }
  if (isa<LambdaExpr>(E))
    return; // lambda bodies are analysed where called (symbolic engine)
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      visit(CE);
}

void FunctionWalker::mergeEnvs(const SymRef &Cond, const Env &Then, const Env &Else,
                               bool ThenLive, bool ElseLive) {
  if (!ThenLive) {
    Vars = Else;
    return;
  }
  if (!ElseLive) {
    Vars = Then;
    return;
  }
  Env M;
  for (const auto &KV : Then.Ints) {
    auto It = Else.Ints.find(KV.first);
    if (It == Else.Ints.end())
      continue; // declared in one branch only: out of scope after it
    M.Ints[KV.first] = KV.second == It->second
                           ? KV.second
                           : SymExpr::select(Cond, KV.second, It->second, KV.second->Type);
  }
  for (const auto &KV : Then.Ptrs) {
    auto It = Else.Ptrs.find(KV.first);
    if (It == Else.Ptrs.end() || It->second.ArrayId != KV.second.ArrayId)
      continue;
    SharedLoc L = KV.second;
    if (L.ByteOffset != It->second.ByteOffset)
      L.ByteOffset = SymExpr::select(Cond, KV.second.ByteOffset, It->second.ByteOffset,
                                     IntType::i64());
    M.Ptrs[KV.first] = L;
  }
  for (const auto &KV : Then.Refs) {
    auto It = Else.Refs.find(KV.first);
    if (It != Else.Refs.end() && It->second.ArrayId == KV.second.ArrayId &&
        It->second.ByteOffset == KV.second.ByteOffset)
      M.Refs[KV.first] = KV.second;
  }
  Vars = std::move(M);
}

void FunctionWalker::exitPath(const char *What, SourceLocation Where) {
  bool Varying = false;
  for (const Guard &G : currentGuards())
    Varying |= isThreadVarying(G.Cond);
  // A return inside a helper walked in place (inlineCall) ends the helper,
  // not the caller's loops.
  if (std::string(What) == "return" && !InlineStack.empty()) {
    Alive = SymExpr::constant(0, IntType::boolean());
    return;
  }
  // A continue does not leave the loop: the thread is back next iteration.
  if (Varying && LoopDepth > 0 && std::string(What) != "continue")
    ExitedUnderVaryingGuard = true;
  if (Varying)
    Exits.push_back({What, pos(Where)});
  Alive = SymExpr::constant(0, IntType::boolean());
}

void FunctionWalker::walkBranch(const Stmt *S, SymRef Cond, bool Negated, const char *Kind,
                                SourceLocation Where) {
  SymRef Outer = Alive;
  bool PushedOuter = !isTrue(Outer);
  if (PushedOuter)
    Path.push_back(reachedGuard(Outer));
  Path.push_back(Guard{Cond, Negated, pos(Where), Kind});
  Alive = trueValue();
  if (S)
    walkStmt(S);
  Path.pop_back();
  if (PushedOuter)
    Path.pop_back();
}

void FunctionWalker::walkIf(const IfStmt *If) {
  if (If->getInit())
    walkStmt(If->getInit());
  if (const DeclStmt *DS = If->getConditionVariableDeclStmt())
    walkStmt(DS);
  if (If->isConsteval()) {
    walkStmt(If->getElse() ? If->getElse() : nullptr);
    return;
  }
  visit(If->getCond());
  SymRef C = boolOf(If->getCond());
  SymRef Outer = Alive;
  Env Before = Vars;
  walkBranch(If->getThen(), C, false, "if", If->getIfLoc());
  Env Then = Vars;
  SymRef AliveThen = Alive;
  Vars = Before;
  Alive = trueValue();
  if (If->getElse())
    walkBranch(If->getElse(), C, true, "else", If->getElseLoc());
  SymRef AliveElse = Alive;
  mergeEnvs(C, Then, Vars, !isFalse(AliveThen), !isFalse(AliveElse));
  SymRef Survive;
  if (isTrue(AliveThen) && isTrue(AliveElse))
    Survive = trueValue();
  else
    Survive = SymExpr::select(C, AliveThen ? AliveThen : trueValue(),
                              AliveElse ? AliveElse : trueValue(), IntType::boolean());
  Alive = andOf(Outer, Survive);
}

void FunctionWalker::walkLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
                              const Expr *Inc, const Stmt *Body, bool CondFirst) {
  if (Init)
    walkStmt(Init);
  AssignedVars AV;
  AV.TraverseStmt(const_cast<Stmt *>(Body));
  if (Cond)
    AV.TraverseStmt(const_cast<Expr *>(Cond));
  if (Inc)
    AV.TraverseStmt(const_cast<Expr *>(Inc));

  // Which modified locals stay warp-uniform? Start from "uniform unless the
  // value before the loop varies" and walk the body dry until stable.
  llvm::DenseMap<const VarDecl *, bool> Varying;
  for (const VarDecl *VD : AV.Vars) {
    auto It = Vars.Ints.find(VD);
    Varying[VD] = It != Vars.Ints.end() && isThreadVarying(It->second);
  }
  unsigned Line = pos(Loop->getBeginLoc()).Line;
  auto Bind = [&]() {
    for (const VarDecl *VD : AV.Vars) {
      if (VD->getType()->isPointerType()) {
        Vars.Ptrs.erase(VD);
        continue;
      }
      if (!VD->getType()->isIntegralOrEnumerationType()) {
        if (VD->getType()->isScalarType())
          Vars.Ints[VD] = uniformityMarker(VD, Varying[VD]);
        continue;
      }
      std::string N = VD->getNameAsString();
      std::string Why = "'" + N + "' changes in the loop at line " + std::to_string(Line);
      Vars.Ints[VD] = Varying[VD] ? SymExpr::varying(N, Why, intTypeOf(VD->getType()))
                                  : SymExpr::uniform(N, Why, intTypeOf(VD->getType()));
    }
  };
  Env Before = Vars;
  std::vector<Guard> PathBefore = Path;
  SymRef AliveBefore = Alive;
  bool WasRecording = Recording;
  bool VaryingExit = false;
  bool OuterExited = ExitedUnderVaryingGuard;
  size_t ExitsBefore = Exits.size();
  for (unsigned Round = 0; Round < 8; ++Round) {
    Vars = Before;
    Bind();
    Recording = false;
    AssignedVarying.clear();
    ExitedUnderVaryingGuard = false;
    Exits.resize(ExitsBefore);
    ++LoopDepth;
    SymRef C = Cond ? boolOf(Cond) : trueValue();
    walkBranch(Body, C, false, "loop", Loop->getBeginLoc());
    Alive = AliveBefore; // a continue still runs the increment
    if (Inc)
      visit(Inc);
    --LoopDepth;
    VaryingExit = ExitedUnderVaryingGuard;
    bool Changed = false;
    for (auto &KV : AssignedVarying)
      if (KV.second && !Varying[KV.first]) {
        Varying[KV.first] = true;
        Changed = true;
      }
    if (!Changed)
      break;
  }
  Recording = WasRecording;
  Path = PathBefore;
  Alive = AliveBefore;
  // The exits that leave the loop (seen in the dry walk), for diagnostics.
  std::vector<ExitSite> Leaving;
  for (size_t I = ExitsBefore; I < Exits.size(); ++I)
    if (Exits[I].Kind != "continue")
      Leaving.push_back(Exits[I]);
  Exits.resize(ExitsBefore);
  bool VaryingReturn = llvm::any_of(Leaving, [](const ExitSite &E) { return E.Kind == "return"; });
  std::string LeaveText, LeaveKind = "loop";
  SourcePos LeaveWhere = pos(Loop->getBeginLoc());
  if (!Leaving.empty()) {
    LeaveText = " (the " + Leaving.front().Kind + " at line " + std::to_string(Leaving.front().Where.Line) + ")";
    LeaveWhere = Leaving.front().Where;
    LeaveKind = VaryingReturn && llvm::all_of(Leaving, [](const ExitSite &E) { return E.Kind == "return"; })
                    ? "early return" : "break";
  }

  // The loop's counters become LoopVars so the symbolic layer can enumerate
  // the iterations: every loop-carried integer when the body always reaches
  // its end, else only an integer that just the increment expression updates.
  std::vector<const VarDecl *> Counters;
  if (Recording && Out && CondFirst) {
    AssignedVars IncVars, BodyVars;
    if (Inc)
      IncVars.TraverseStmt(const_cast<Expr *>(Inc));
    BodyVars.TraverseStmt(const_cast<Stmt *>(Body));
    if (!leavesEarly(Body)) {
      for (const VarDecl *VD : AV.Vars)
        if (VD->getType()->isIntegralOrEnumerationType() && Before.Ints.count(VD))
          Counters.push_back(VD);
    } else if (IncVars.Vars.size() == 1 &&
               IncVars.Vars[0]->getType()->isIntegralOrEnumerationType() &&
               llvm::find(BodyVars.Vars, IncVars.Vars[0]) == BodyVars.Vars.end() &&
               Before.Ints.count(IncVars.Vars[0])) {
      Counters.push_back(IncVars.Vars[0]);
    }
  }

  // The real walk: one generic iteration with the counters as unknowns.
  Vars = Before;
  Bind();
  LoopInfo Info;
  for (const VarDecl *VD : Counters) {
    LoopCounter LC;
    LC.Id = NextCounterId++;
    LC.Name = VD->getNameAsString();
    LC.LaneVarying = Varying[VD];
    LC.Init = Before.Ints[VD];
    Vars.Ints[VD] = SymExpr::loopVar(LC.Id, LC.Name,
                                     "'" + LC.Name + "' changes in the loop at line " + std::to_string(Line),
                                     LC.LaneVarying, intTypeOf(VD->getType()));
    Info.LaneVarying |= LC.LaneVarying;
    Info.Counters.push_back(LC);
  }
  if (Cond)
    visit(Cond);
  SymRef C = Cond ? boolOf(Cond) : trueValue();
  if (!Counters.empty()) {
    Info.Id = unsigned(Out->Loops.size());
    Info.Where = pos(Loop->getBeginLoc());
    Info.Cond = C;
    Out->Loops.push_back(Info);
    LoopStack.push_back(Info.Id);
  }
  if (VaryingExit)
    Path.push_back(Guard{SymExpr::varying("early exit", "some threads may have left the loop at line " +
                                                            std::to_string(Line) + LeaveText +
                                                            " in an earlier iteration",
                                          IntType::boolean()),
                         false, LeaveWhere, LeaveKind});
  ++LoopDepth;
  walkBranch(Body, CondFirst ? C : trueValue(), false, "loop", Loop->getBeginLoc());
  SymRef AliveAfterIteration = Alive;
  Alive = AliveBefore; // a continue still runs the increment
  if (Inc)
    visit(Inc);
  Alive = AliveAfterIteration;
  --LoopDepth;
  if (!Counters.empty()) {
    // Each counter's value at the end of the iteration, from this walk.
    LoopInfo &Done = Out->Loops[LoopStack.back()];
    for (size_t I = 0; I < Counters.size(); ++I) {
      auto It = Vars.Ints.find(Counters[I]);
      Done.Counters[I].Next = It == Vars.Ints.end() ? nullptr : It->second;
    }
    LoopStack.pop_back();
  }
  SymRef AliveAfterBody = Alive;
  if (VaryingExit)
    Path.pop_back();
  // break/continue end with the loop; returns keep narrowing what follows.
  Exits.erase(std::remove_if(Exits.begin() + ExitsBefore, Exits.end(),
                             [](const ExitSite &E) { return E.Kind != "return"; }),
              Exits.end());
  ExitedUnderVaryingGuard = OuterExited || VaryingReturn;
  // After the loop the counters keep unknown values; threads that returned
  // inside it are gone.
  Env After = Before;
  Vars = Before;
  Bind();
  After = Vars;
  Vars = After;
  Alive = AliveBefore;
  (void)AliveAfterBody;
  if (VaryingReturn)
    Alive = andOf(Alive, SymExpr::varying("loop exit", "some threads may have returned inside the loop at line " +
                                                           std::to_string(Line) + LeaveText,
                                          IntType::boolean()));
}

void FunctionWalker::walkSwitch(const SwitchStmt *Sw) {
  if (Sw->getInit())
    walkStmt(Sw->getInit());
  if (const DeclStmt *DS = Sw->getConditionVariableDeclStmt())
    walkStmt(DS);
  visit(Sw->getCond());
  SymRef C = intOf(Sw->getCond());
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  if (!Body) {
    walkBranch(Sw->getBody(), SymExpr::varying("switch", "unstructured switch", IntType::boolean()),
               false, "switch", Sw->getSwitchLoc());
    return;
  }
  // All case values, for the condition of 'default'.
  SymRef NotAnyCase = trueValue();
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase())
    if (const auto *CS = dyn_cast<CaseStmt>(SC))
      NotAnyCase = andOf(NotAnyCase, SymExpr::binary(Opcode::NE, C, SymExpr::cast(intOf(CS->getLHS()), C->Type),
                                                     IntType::boolean()));
  SymRef Outer = Alive;
  Env Before = Vars;
  size_t ExitsBefore = Exits.size();
  // Reach: the threads executing the current statement of the switch body.
  SymRef Reach = SymExpr::constant(0, IntType::boolean());
  for (const Stmt *S : Body->body()) {
    while (const auto *SC = dyn_cast<SwitchCase>(S)) {
      SymRef Hit = isa<DefaultStmt>(SC)
                       ? NotAnyCase
                       : SymExpr::binary(Opcode::EQ, C,
                                         SymExpr::cast(intOf(cast<CaseStmt>(SC)->getLHS()), C->Type),
                                         IntType::boolean());
      Reach = isFalse(Reach) ? Hit : SymExpr::binary(Opcode::LOr, Reach, Hit, IntType::boolean());
      S = SC->getSubStmt();
    }
    if (isa<BreakStmt>(S)) {
      Reach = SymExpr::constant(0, IntType::boolean());
      continue;
    }
    Vars = Before; // values assigned in cases do not flow into others here
    walkBranch(S, Reach, false, "switch", S->getBeginLoc());
    if (isFalse(Alive))
      Reach = SymExpr::constant(0, IntType::boolean());
  }
  // Values assigned inside the switch are unknown afterwards.
  Env After = Before;
  for (auto &KV : Vars.Ints)
    if (!Before.Ints.count(KV.first) || Before.Ints[KV.first] != KV.second)
      After.Ints.erase(KV.first);
  Vars = After;
  Alive = Outer;
  // A break inside the switch ends with it.
  Exits.erase(std::remove_if(Exits.begin() + ExitsBefore, Exits.end(),
                             [](const ExitSite &E) { return E.Kind == "break"; }),
              Exits.end());
}

void FunctionWalker::walkStmt(const Stmt *S) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body()) {
      walkStmt(Child);
      if (isFalse(Alive))
        break; // unreachable rest of the block
    }
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        declare(VD);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walkIf(If);
    return;
  }
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    walkLoop(For, For->getInit(), For->getCond(), For->getInc(), For->getBody(), true);
    return;
  }
  if (const auto *While = dyn_cast<WhileStmt>(S)) {
    walkLoop(While, nullptr, While->getCond(), nullptr, While->getBody(), true);
    return;
  }
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    walkLoop(Do, nullptr, Do->getCond(), nullptr, Do->getBody(), false);
    return;
  }
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
    walkLoop(Range, Range->getLoopVarStmt(), nullptr, nullptr, Range->getBody(), true);
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    walkSwitch(Sw);
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    visit(Ret->getRetValue());
    captureReturn(Ret);
    exitPath("return", Ret->getReturnLoc());
    return;
  }
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S)) {
    exitPath(isa<BreakStmt>(S) ? "break" : "continue", S->getBeginLoc());
    return;
  }
  if (const auto *AS = dyn_cast<AttributedStmt>(S)) {
    walkStmt(AS->getSubStmt());
    return;
  }
  if (const auto *LS = dyn_cast<LabelStmt>(S)) {
    walkStmt(LS->getSubStmt());
    return;
  }
  if (isBlockBarrierAsm(S)) {
    recordBarrier(S, "bar.sync (inline PTX)", "", SourcePos());
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    visit(E);
    return;
  }
  for (const Stmt *Child : S->children())
    walkStmt(Child);
}

FunctionModel FunctionWalker::walk(const FunctionDecl *FD) {
  FunctionModel M;
  llvm::raw_string_ostream OS(M.Name);
  FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  OS.flush();
  M.Where = pos(FD->getLocation());
  M.IsKernel = FD->hasAttr<CUDAGlobalAttr>();
  Fn = FD;
  InKernel = M.IsKernel;
  Out = &M;
  Recording = true;
  Vars = Env();
  Path.clear();
  Alive = trueValue();
  LoopDepth = 0;
  LoopStack.clear();
  NextCounterId = 0;
  InlineStack.clear();
  CallSites.clear();
  Returns.clear();
  CallValues.clear();
  CallPointers.clear();
  Exits.clear();
  walkStmt(FD->getBody());
  Out = nullptr;
  return M;
}

} // namespace cbl
