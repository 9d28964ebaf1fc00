//===- UnsupportedAccesses.cpp - Shared memory the tool sees, not models ---===//
//
// Never silent: an instruction that reaches shared memory but has no model
// yet is recorded with status 'unsupported' and the reason, so it shows in
// JSON, --explain and the summary instead of vanishing:
//  - atomics on shared memory (atomicAdd and friends, their _block/_system
//    forms, nvcc's __nv_atomic_* and the __atomic_* builtins);
//  - inline PTX with an operand in shared memory: a pointer, a memory
//    operand, or a shared-window address from __cvta_generic_to_shared (also
//    through locals and integer arithmetic on it), classified by its opcode
//    (ldmatrix, stmatrix, cp.async, ld/st/atom/red.shared, ...);
//  - a call to a function whose body is not available that receives a
//    pointer or reference into shared memory (memcpy, ...).
//
//===----------------------------------------------------------------------===//
#include "Atomics.h"
#include "FunctionWalker.h"
#include "PtxInstructions.h"
#include "WalkerSupport.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cbl {

namespace {

/// Address conversions that give a pointer's offset in the shared window.
bool isSharedAddressConversion(llvm::StringRef N) {
  return N == "__cvta_generic_to_shared" || N == "__nvvm_get_smem_pointer" ||
         N == "__cvta_generic_to_shared_impl";
}

} // namespace

std::optional<SharedLoc> FunctionWalker::sharedAddressOf(const Expr *E) {
  E = skipDefaults(E);
  if (const auto *CE = dyn_cast<CastExpr>(E))
    if (CE->getType()->isIntegerType() && CE->getSubExpr()->getType()->isIntegerType())
      return sharedAddressOf(CE->getSubExpr());
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (Callee->getIdentifier() && isSharedAddressConversion(Callee->getName()) &&
          Call->getNumArgs() >= 1)
        return ptrOf(Call->getArg(0));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto It = Vars.SharedAddrs.find(VD);
      if (It != Vars.SharedAddrs.end())
        return It->second;
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return std::nullopt;
    const Expr *Addr = BO->getLHS(), *Off = BO->getRHS();
    auto Base = sharedAddressOf(Addr);
    if (!Base && BO->getOpcode() == BO_Add) {
      std::swap(Addr, Off);
      Base = sharedAddressOf(Addr);
    }
    if (!Base)
      return std::nullopt;
    SymRef Delta = SymExpr::cast(intOf(Off), IntType::i64());
    if (BO->getOpcode() == BO_Sub)
      Delta = SymExpr::unary(Opcode::Neg, Delta, IntType::i64());
    Base->ByteOffset = SymExpr::binary(Opcode::Add, Base->ByteOffset, Delta, IntType::i64());
    return Base;
  }
  return std::nullopt;
}

SharedAccess *FunctionWalker::addAccess(const Expr *At, const SharedLoc &Loc, AccessOp Op,
                                        unsigned Width) {
  if (!Recording || !Out)
    return nullptr;
  Out->Accesses.push_back(newAccess(At, Loc, Op));
  Out->Accesses.back().Width = Width;
  return &Out->Accesses.back();
}

void FunctionWalker::recordAtomic(const Expr *At, const SharedLoc &Loc, const AtomicInstruction &I,
                                  std::string Instruction) {
  if (SharedAccess *A = addAccess(At, Loc, I.Op, I.Width)) {
    A->Atomic = I.Rule;
    A->Unsupported = I.Unmodelled;
    A->Instruction = std::move(Instruction);
  }
}

void FunctionWalker::recordUnsupported(const Expr *At, const SharedLoc &Loc, AccessOp Op,
                                       unsigned Width, std::string Reason) {
  if (SharedAccess *A = addAccess(At, Loc, Op, Width))
    A->Unsupported = std::move(Reason);
}

std::optional<SharedLoc> FunctionWalker::atomicRefTarget(const Expr *Obj) {
  // Through temporaries, cleanups and implicit casts, and `T(x)` casts.
  Obj = Obj->IgnoreImplicit()->IgnoreParens();
  while (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Obj))
    Obj = F->getSubExpr()->IgnoreImplicit()->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto It = Vars.AtomicRefs.find(VD);
      if (It != Vars.AtomicRefs.end())
        return It->second;
      return std::nullopt;
    }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Obj))
    if (CE->getNumArgs() >= 1 && isAtomicRefType(CE->getType()))
      return lvalOf(CE->getArg(0));
  return std::nullopt;
}

/// A call of a cuda::atomic_ref member (fetch_add, load, ++, ...) on an
/// object in shared memory: an atomic of that object.
bool FunctionWalker::recordAtomicRefCall(const CallExpr *Call) {
  const Expr *Obj = nullptr;
  std::optional<AtomicOp> Op;
  std::string Name;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    Obj = MC->getImplicitObjectArgument();
    Op = atomicRefMethodOp(MC->getMethodDecl());
    Name = MC->getMethodDecl() ? MC->getMethodDecl()->getNameAsString() : "";
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (OC->getNumArgs() == 0)
      return false;
    Obj = OC->getArg(0);
    Op = atomicRefOperatorOp(OC->getOperator());
    Name = std::string("operator") + getOperatorSpelling(OC->getOperator());
  }
  // Members such as fetch_add live in libcu++'s base classes: look through
  // the derived-to-base conversion to the atomic_ref object.
  if (!Obj || !isAtomicRefType(Obj->IgnoreParenImpCasts()->getType()))
    return false;
  auto Loc = atomicRefTarget(Obj);
  if (!Loc)
    return false;
  QualType T = Loc->Type;
  std::string Spelling = "atomic_ref::" + Name;
  if (!Op) { // notify_one, is_lock_free, ...: no shared-memory access
    if (Name.rfind("notify", 0) == 0 || Name == "is_lock_free")
      return true;
    Op = AtomicOp::Other;
  }
  uint64_t Size = T.isNull() ? 0 : sizeOf(T);
  recordAtomic(Call, *Loc,
               classifyGenericAtomic(*Op, atomicValueOf(T), unsigned(Size > 16 ? 0 : Size), Spelling),
               Spelling);
  return true;
}

bool FunctionWalker::recordUnsupportedCall(const CallExpr *Call) {
  if (recordAtomicRefCall(Call))
    return true;
  if (Call->containsErrors() && !Call->getDirectCallee()) {
    // A call Clang could not resolve because it uses a declaration Clang marks
    // invalid (a __shared__ cuda::barrier): its shared-memory arguments are
    // reported, not dropped.
    bool Any = false;
    for (const Expr *Arg : Call->arguments()) {
      const Expr *A = Arg->IgnoreParenImpCasts();
      std::optional<SharedLoc> Loc = ptrOf(Arg);
      if (!Loc)
        Loc = lvalOf(A);
      if (!Loc)
        continue;
      recordUnsupported(Call, *Loc, AccessOp::Load, 0,
                        "in a call Clang rejects (it uses a declaration Clang marks invalid, e.g. a "
                        "__shared__ cuda::barrier): not analysed");
      Any = true;
    }
    return Any;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  auto WidthOf = [&](QualType T) {
    uint64_t S = T.isNull() || T->isVoidType() ? 0 : sizeOf(T);
    return unsigned(S > 16 ? 0 : S);
  };
  if (auto Op = atomicOpOfName(Name)) {
    if (Call->getNumArgs() == 0)
      return false;
    auto Loc = ptrOf(Call->getArg(0));
    if (!Loc)
      return false; // an atomic on global memory
    QualType T = Call->getArg(0)->getType()->getPointeeType();
    if (T.isNull())
      T = Loc->Type;
    recordAtomic(Call, *Loc, classifyAtomic(*Op, atomicValueOf(T), WidthOf(T), Name), Name.str());
    return true;
  }
  // Library asynchronous copies (cuda::memcpy_async, cooperative_groups::
  // memcpy_async, __pipeline_memcpy_async) lower to cp.async or
  // cp.async.bulk: one record at the call, not one per branch inside.
  if (Name == "memcpy_async" || Name == "__pipeline_memcpy_async")
    for (const Expr *Arg : Call->arguments())
      if (auto Loc = ptrOf(Arg)) {
        recordUnsupported(Call, *Loc, AccessOp::Store, 0,
                          "asynchronous copy into shared memory ('" + Name.str() +
                              "': cp.async or cp.async.bulk) is not bank-modelled: the H100's "
                              "shared-memory counters do not show its destination's bank cost "
                              "(measured for cp.async, docs/bank-model.md)");
        return true;
      }
  const FunctionDecl *Def = nullptr;
  if (Callee->hasBody(Def) || isSharedAddressConversion(Name))
    return false; // walked in place, or only computes an address
  bool Any = false;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    const ParmVarDecl *P = I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
    std::optional<SharedLoc> Loc = ptrOf(Arg);
    if (!Loc && P && P->getType()->isReferenceType())
      Loc = lvalOf(Arg);
    if (!Loc)
      continue;
    recordUnsupported(Call, *Loc, AccessOp::Load, WidthOf(Loc->Type),
                      "call to '" + Name.str() +
                          "', whose body is not available, with a pointer into shared memory "
                          "(argument " + std::to_string(I + 1) + ")");
    Any = true;
  }
  return Any;
}

void FunctionWalker::recordUnsupportedAsm(const GCCAsmStmt *Asm) {
  std::string Text = Asm->getAsmString()->getString().str();
  auto Class = ptxClass(Text);
  std::string Opcode = Class ? opcodeAt(Text, Class->Opcode) : "inline assembly";
  std::optional<PtxAtomic> Atomic = ptxAtomic(Opcode);
  const bool Copy = llvm::StringRef(Opcode).starts_with("cp.async");
  bool CopyRecorded = false;
  std::optional<uint32_t> MatrixLanes = matrixAddressLanes(Opcode);
  std::optional<unsigned> PlainWidth = sharedLoadStoreWidth(Opcode);
  auto Check = [&](const Expr *Operand) {
    std::optional<SharedLoc> Loc = ptrOf(Operand);
    if (!Loc)
      Loc = lvalOf(Operand);
    if (!Loc)
      Loc = sharedAddressOf(Operand);
    if (!Loc)
      return;
    if (MatrixLanes || PlainWidth) {
      if (SharedAccess *A = addAccess(Operand, *Loc, Class->Op, MatrixLanes ? 16 : *PlainWidth)) {
        A->Matrix = MatrixLanes.has_value();
        A->AddressLanes = MatrixLanes.value_or(0xffffffffu);
        A->Instruction = Opcode;
      }
      return;
    }
    if (Atomic)
      return recordAtomic(Operand, *Loc, classifyAtomic(Atomic->Op, Atomic->Value, Atomic->Width, Opcode),
                          Opcode);
    if (Copy) {
      // A copy's destination is its first shared operand (an mbarrier may follow).
      if (!CopyRecorded)
        recordUnsupported(Operand, *Loc, AccessOp::Store, 0, copyReason(Opcode));
      CopyRecorded = true;
      return;
    }
    recordUnsupported(Operand, *Loc, Class ? Class->Op : AccessOp::Load, 0,
                      "inline PTX '" + Opcode + "' with an operand in shared memory: not "
                      "modelled yet");
  };
  for (const Expr *In : Asm->inputs())
    Check(In);
  // An output is an address only as a memory operand ("=m"); a register
  // output ("=r"(v)) receives a value.
  for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
    if (Asm->getOutputConstraint(I).contains('m'))
      Check(Asm->getOutputExpr(I));
}

} // namespace cbl
