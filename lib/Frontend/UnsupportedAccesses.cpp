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

/// Where the instruction Prefix starts in Text, at a word boundary ("red."
/// is not the end of "shared.").
size_t findInstruction(llvm::StringRef Text, llvm::StringRef Prefix) {
  for (size_t P = Text.find(Prefix); P != llvm::StringRef::npos; P = Text.find(Prefix, P + 1)) {
    char Before = P ? Text[P - 1] : ' ';
    if (!isalnum(static_cast<unsigned char>(Before)) && Before != '_' && Before != '.' && Before != ':')
      return P;
  }
  return llvm::StringRef::npos;
}

struct PtxClass {
  const char *Opcode;
  AccessOp Op;
};
/// The shared-memory instruction of an inline-PTX string, most specific first.
std::optional<PtxClass> ptxClass(llvm::StringRef Text) {
  // atom/red with any semantics and scope (atom.relaxed.cta.shared::cta.add.u32),
  // or generic (atom.add.s32) on an operand found in shared memory.
  for (const char *Prefix : {"atom.", "red."})
    if (findInstruction(Text, Prefix) != llvm::StringRef::npos)
      return PtxClass{Prefix, AccessOp::Atomic};
  static const PtxClass Classes[] = {
      {"ldmatrix", AccessOp::Load},        {"stmatrix", AccessOp::Store},
      {"cp.async.bulk", AccessOp::Store},  {"cp.async", AccessOp::Store},
      {"ld.shared", AccessOp::Load},       {"ld.volatile.shared", AccessOp::Load},
      {"st.shared", AccessOp::Store},      {"st.volatile.shared", AccessOp::Store},
      {"mbarrier", AccessOp::Atomic},      {"ld.", AccessOp::Load},
      {"st.", AccessOp::Store}};
  for (const PtxClass &C : Classes)
    if (Text.contains(C.Opcode))
      return C;
  return std::nullopt;
}

/// The full opcode at the first occurrence of Prefix ("ldmatrix.sync.aligned.m8n8.x4.shared.b16").
std::string opcodeAt(llvm::StringRef Text, llvm::StringRef Prefix) {
  size_t P = findInstruction(Text, Prefix);
  if (P == llvm::StringRef::npos)
    return Prefix.str();
  return Text.substr(P).take_while([](char C) { return !isspace(C) && C != ';' && C != '{'; }).str();
}

/// ldmatrix / stmatrix with 8x8 matrices of 16-bit elements (m8n8 .b16,
/// measured on an H100): the lanes that give row addresses, 8 per matrix.
/// The sm_100 .b8 forms (m16n16, m8n16) were not measured: std::nullopt.
std::optional<uint32_t> matrixAddressLanes(llvm::StringRef Opcode) {
  if (!(Opcode.starts_with("ldmatrix") || Opcode.starts_with("stmatrix")) ||
      !Opcode.contains(".m8n8") || !Opcode.contains(".b16"))
    return std::nullopt;
  if (Opcode.contains(".x4"))
    return 0xffffffffu;
  if (Opcode.contains(".x2"))
    return 0xffffu;
  return 0xffu;
}

/// The bytes per lane of an inline-PTX ld/st on shared memory
/// ("ld.shared.v4.u32": 16, "st.volatile.shared.b8": 1); std::nullopt when
/// the opcode is not one or its width is not 1, 2, 4, 8 or 16 bytes. Such
/// an instruction is an LDS/STS like the compiler's own (measured rules).
std::optional<unsigned> sharedLoadStoreWidth(llvm::StringRef Opcode) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  if (Parts.empty() || (Parts[0] != "ld" && Parts[0] != "st"))
    return std::nullopt;
  bool Shared = false;
  unsigned Vec = 1, Bits = 0;
  for (llvm::StringRef T : llvm::ArrayRef(Parts).drop_front()) {
    if (T.starts_with("shared"))
      Shared = true;
    else if (T == "v2" || T == "v4")
      Vec = T == "v2" ? 2 : 4;
    else if (T.size() >= 2 && llvm::StringRef("busf").contains(T[0]) &&
             isdigit(static_cast<unsigned char>(T[1])))
      T.drop_front().getAsInteger(10, Bits);
  }
  unsigned Width = Vec * Bits / 8;
  if (!Shared || Bits % 8 || (Width != 1 && Width != 2 && Width != 4 && Width != 8 && Width != 16))
    return std::nullopt;
  return Width;
}

/// Why a cp.async / cp.async.bulk is recorded but not costed (measured).
std::string copyReason(llvm::StringRef Opcode) {
  if (Opcode.starts_with("cp.async.bulk"))
    return "cp.async.bulk is one bulk transfer (TMA), not bank-modelled: on the H100 the "
           "shared-memory pipe counts no wavefront for it, whatever its size and offset "
           "(measured, docs/bank-model.md)";
  return "cp.async is not bank-modelled: on the H100 the shared-memory counters show no "
         "destination bank conflicts for cp.async.cg and mix the global source with the "
         "destination for cp.async.ca (measured, docs/bank-model.md)";
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
