//===- FunctionWalker.cpp - Program-order walk recording shared accesses --===//
//
// The walking half of FunctionWalker (see the header for the model). Loads are
// lvalue-to-rvalue conversions and trivial copies of shared lvalues; stores are
// assignments to them; compound assignments and increments are both.
//
//===----------------------------------------------------------------------===//
#include "FunctionWalker.h"
#include "PtxInstructions.h"
#include "WalkerSupport.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>

using namespace clang;

namespace cbl {

namespace {
/// x op= e is x = x op e.
std::optional<Opcode> compoundOpcode(BinaryOperatorKind K) {
  switch (K) {
  case BO_AddAssign: return Opcode::Add;
  case BO_SubAssign: return Opcode::Sub;
  case BO_MulAssign: return Opcode::Mul;
  case BO_DivAssign: return Opcode::Div;
  case BO_RemAssign: return Opcode::Rem;
  case BO_ShlAssign: return Opcode::Shl;
  case BO_ShrAssign: return Opcode::Shr;
  case BO_AndAssign: return Opcode::And;
  case BO_OrAssign: return Opcode::Or;
  case BO_XorAssign: return Opcode::Xor;
  default: return std::nullopt;
  }
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
  return Asm && isBlockBarrierPtx(Asm->getAsmString()->getString());
}

SourcePos FunctionWalker::pos(SourceLocation L) const {
  return toSourcePos(Ctx.getSourceManager(), L);
}

Guard FunctionWalker::reachedGuard(const SymRef &AliveCond) const {
  // Kind says which exits made threads leave: EarlyReturn when all of them
  // were returns (threads gone for good), else Break/Continue, or Reached
  // when mixed or unknown; Where is the first such exit.
  Guard G{AliveCond, false, SourcePos(), GuardKind::Reached};
  if (Exits.empty())
    return G;
  G.Where = Exits.front().Where;
  bool Same = llvm::all_of(Exits, [&](const ExitSite &E) { return E.Kind == Exits.front().Kind; });
  if (Same)
    G.Kind = Exits.front().Kind;
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
  SharedAccess A = newAccess(LV, Loc, Op);
  A.ThreadXExtents = threadXExtents(LV);
  A.Volatile = LV->getType().isVolatileQualified() || Loc.Type.isVolatileQualified();
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

std::vector<unsigned> FunctionWalker::threadXExtents(const Expr *LV) {
  std::vector<unsigned> Out;
  const Expr *E = LV->IgnoreParens();
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      break;
    E = Decay->getSubExpr()->IgnoreParens();
    const auto *CAT = Ctx.getAsConstantArrayType(E->getType());
    if (CAT && CAT->getSize().ule(1024) && collectLeaves(intOf(ASE->getIdx())).UsesThreadIdx[0])
      Out.push_back(unsigned(CAT->getSize().getZExtValue()));
  }
  return Out;
}

SharedAccess FunctionWalker::newAccess(const Expr *At, const SharedLoc &Loc, AccessOp Op) const {
  SharedAccess A;
  A.ArrayId = Loc.ArrayId;
  A.Where = pos(At->getBeginLoc());
  A.Length = extentOnLine(At, A.Where);
  A.Spelling = spell(At);
  A.Op = Op;
  A.ByteOffset = Loc.ByteOffset;
  A.Guards = currentGuards();
  A.Loops = LoopStack;
  A.Region = Region;
  A.MaySplit = MaySplit;
  for (const auto &[Site, Callee] : CallSites)
    A.CallChain.push_back({Site, Callee});
  return A;
}

void FunctionWalker::recordBarrier(const Stmt *S, std::string Spelling, std::string ViaCall,
                                   SourcePos CalleeBarrier) {
  ++Region;        // nothing is merged across a barrier
  MaySplit.clear(); // and a block barrier reconverges the warp
  if (!Recording || !Out || InlineDepth)
    return;
  BarrierSite B;
  B.Where = pos(S->getBeginLoc());
  B.Spelling = std::move(Spelling);
  B.Guards = currentGuards();
  B.ViaCall = std::move(ViaCall);
  B.CalleeBarrier = std::move(CalleeBarrier);
  B.GridWide = B.Spelling.find("grid_group") != std::string::npos;
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
    // Dry walk of loop bodies: remember, per loop, whether the variable ever
    // takes a thread-varying value or is assigned under a thread-varying
    // condition taken inside that loop.
    const bool ValueVaries = isThreadVarying(Value);
    for (DryLoop &L : DryLoops) {
      bool Varying = ValueVaries || (Alive != L.AliveBase && isThreadVarying(Alive));
      for (size_t I = L.PathBase; I < Path.size() && !Varying; ++I)
        Varying |= isThreadVarying(Path[I].Cond);
      L.Assigned[VD] |= Varying;
    }
  }
}

void FunctionWalker::assignObjectMember(const BinaryOperator *BO, unsigned Obj,
                                        const FieldDecl *FD) {
  if (!BO->isCompoundAssignmentOp()) {
    storeMember(Obj, FD, BO->getRHS());
    return;
  }
  ObjectState &O = Vars.Objects[Obj];
  auto It = O.Ints.find(FD);
  auto Op = compoundOpcode(BO->getOpcode());
  if (It == O.Ints.end() || !Op || !FD->getType()->isIntegralOrEnumerationType()) {
    O.Ints.erase(FD);
    O.Ptrs.erase(FD);
    return;
  }
  IntType CT = intTypeOf(cast<CompoundAssignOperator>(BO)->getComputationResultType());
  SymRef Old = SymExpr::cast(It->second, CT), R = intOf(BO->getRHS());
  SymRef New = *Op == Opcode::Shl || *Op == Opcode::Shr
                   ? SymExpr::binary(*Op, Old, R, CT)
                   : SymExpr::binary(*Op, Old, SymExpr::cast(R, CT), CT);
  Vars.Objects[Obj].Ints[FD] = SymExpr::cast(New, intTypeOf(FD->getType()));
}

void FunctionWalker::declare(const VarDecl *VD) {
  if (isSharedVar(VD)) {
    if (Out)
      Out->NamesShared = true;
    Table.add(VD, Arrays);
    return;
  }
  const Expr *Init = VD->getInit();
  if (Init)
    visit(Init);
  if (VD->getType()->isReferenceType()) {
    if (Init) {
      if (auto L = lvalOf(Init))
        Vars.Refs[VD] = *L;
      else if (auto O = objectOf(Init))
        Vars.ObjectVars[VD] = *O;
    }
    return;
  }
  if (VD->getType()->isRecordType()) {
    if (Init && isAtomicRefType(VD->getType()))
      if (auto L = atomicRefTarget(Init)) {
        Vars.AtomicRefs[VD] = *L;
        return;
      }
    if (auto O = objectOf(Init))
      Vars.ObjectVars[VD] = *O;
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
      if (auto L = sharedAddressOf(Init))
        Vars.SharedAddrs[VD] = *L;
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

void FunctionWalker::visitCall(const CallExpr *Call) {
  for (const Expr *Arg : Call->arguments())
    visit(Arg);
  if (auto Spelling = blockBarrierSpelling(Call)) {
    recordBarrier(Call, *Spelling, "", SourcePos());
    return;
  }
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (FD->getName() == "__syncwarp")
      MaySplit.clear(); // the lanes named wait for each other
  if (recordUnsupportedCall(Call))
    return;
  // Helpers are analysed with the actual arguments; their barriers are
  // reported at the call (below), so the inlined walk records none.
  {
    ++InlineDepth;
    bool Inlined = inlineCall(Call, Call->getDirectCallee());
    --InlineDepth;
    // A helper not walked (it does not touch shared memory) may still
    // leave the warp split.
    const FunctionDecl *Def = nullptr;
    if (!Inlined && Call->getDirectCallee() && Call->getDirectCallee()->hasBody(Def))
      if (const Stmt *Loop = findRetryLoop(Def->getBody()))
        noteRetryLoop(Loop);
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
  E = skipDefaults(E);
  if (const auto *RE = dyn_cast<RecoveryExpr>(E)) {
    // Clang rejected this expression (it uses a declaration Clang marks
    // invalid, such as a __shared__ cuda::barrier whose constructor nvcc
    // does not run): the shared memory it names is reported, not dropped.
    for (const Expr *Sub : RE->subExpressions())
      if (auto Loc = lvalOf(Sub->IgnoreParenImpCasts()))
        recordUnsupported(RE, *Loc, AccessOp::Load, 0,
                          "in an expression Clang rejects (it uses a declaration Clang marks "
                          "invalid, e.g. a __shared__ cuda::barrier): not analysed");
      else
        visit(Sub);
    return;
  }
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
      if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens()))
        if (auto OM = objectMember(ME)) {
          visitLValueOperands(ME);
          assignObjectMember(BO, OM->first, OM->second);
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
            std::optional<Opcode> CompoundOp = compoundOpcode(BO->getOpcode());
            bool Known = CompoundOp.has_value();
            Opcode Op = CompoundOp.value_or(Opcode::Add);
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
            if (auto L = sharedAddressOf(BO->getRHS()))
              Vars.SharedAddrs[VD] = *L;
            else
              Vars.SharedAddrs.erase(VD);
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
                           BO->getOpcode() == BO_LAnd ? GuardKind::And : GuardKind::Or});
      Env Saved = Vars;
      ++Region; // the right operand is a block of its own, and so is what follows
      visit(BO->getRHS());
      ++Region;
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
      if (const auto *ME = dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParens()))
        if (auto OM = objectMember(ME)) {
          ObjectState &O = Vars.Objects[OM->first];
          auto It = O.Ints.find(OM->second);
          if (It != O.Ints.end())
            It->second = SymExpr::binary(UO->isIncrementOp() ? Opcode::Add : Opcode::Sub,
                                         It->second, SymExpr::constant(1, It->second->Type),
                                         It->second->Type);
          else
            O.Ptrs.erase(OM->second);
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
    Path.push_back(Guard{C, false, pos(CO->getQuestionLoc()), GuardKind::Conditional});
    ++Region;
    visit(CO->getTrueExpr());
    Env Then = Vars;
    Path.back().Negated = true;
    Vars = Saved;
    ++Region;
    visit(CO->getFalseExpr());
    ++Region;
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
    if (CCE->getType()->isRecordType() && !Vars.Temporaries.count(CCE)) {
      // A class object: its constructor runs here (ObjectModel.cpp).
      unsigned Id = newObject();
      Vars.Temporaries[CCE] = Id;
      construct(CCE, Id);
      return;
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

/// The locals S declares go out of scope: their state leaves the environment,
/// so that it (and every copy of it at a branch) holds only the live ones.
void FunctionWalker::forget(const Stmt *S) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S);
  if (!DS)
    return;
  for (const Decl *D : DS->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D))
      if (!VD->isStaticLocal() && !isSharedVar(VD))
        Vars.forget(VD);
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
    for (const Stmt *Child : CS->body())
      forget(Child);
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
    forget(For->getInit());
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
    exitPath(GuardKind::EarlyReturn, Ret->getReturnLoc());
    return;
  }
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S)) {
    exitPath(isa<BreakStmt>(S) ? GuardKind::Break : GuardKind::Continue, S->getBeginLoc());
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
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    walkAsm(Asm);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    visit(E);
    return;
  }
  for (const Stmt *Child : S->children())
    walkStmt(Child);
}

FunctionModel FunctionWalker::walk(const FunctionDecl *FD,
                                   const std::map<unsigned, BlockShapeFinder::FixedArgument> &Fixed) {
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
  InlinedBodies = 0;
  Region = 0;
  MaySplit.clear();
  This = ThisBinding();
  CallSites.clear();
  Returns.clear();
  CallValues.clear();
  CallPointers.clear();
  Exits.clear();
  DryLoops.clear();
  for (const auto &[I, F] : Fixed) {
    if (!M.IsKernel || I >= FD->getNumParams())
      continue;
    const ParmVarDecl *P = FD->getParamDecl(I);
    IntType T = intTypeOf(P->getType());
    Vars.Ints[P] = F.Constant   ? SymExpr::constant(*F.Constant, T)
                   : F.BlockAxis ? SymExpr::cast(SymExpr::blockDim(Axis(*F.BlockAxis)), T)
                                 : SymExpr::cast(F.Value, T);
    LaunchArgument A = F.Text;
    A.Param = P->getNameAsString();
    M.LaunchArguments.push_back(A);
  }
  walkStmt(FD->getBody());
  Out = nullptr;
  return M;
}

} // namespace cbl
