//===- WalkerSupport.h - Small pieces shared by the walker's files (private) -===//
//
// Boolean helpers on guard conditions and the visitor that lists the locals a
// statement assigns; used by FunctionWalker.cpp and ControlFlowWalker.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_WALKERSUPPORT_H
#define CUDA_BANK_LINT_LIB_FRONTEND_WALKERSUPPORT_H

#include "SharedArrays.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include "clang/AST/RecursiveASTVisitor.h"

namespace cbl {

inline SymRef trueValue() { return SymExpr::constant(1, IntType::boolean()); }
inline bool isTrue(const SymRef &C) { return !C || (C->isConst() && C->Value != 0); }
inline bool isFalse(const SymRef &C) { return C && C->isConst() && C->Value == 0; }
inline SymRef andOf(const SymRef &A, const SymRef &B) {
  if (isTrue(A)) return B ? B : trueValue();
  if (isTrue(B)) return A;
  if (isFalse(A) || isFalse(B)) return SymExpr::constant(0, IntType::boolean());
  return SymExpr::binary(Opcode::LAnd, A, B, IntType::boolean());
}

/// The linear thread index in the block, x + y * Dx + z * Dx * Dy, in type T
/// (cooperative groups' thread_rank(); %laneid is it modulo 32).
inline SymRef linearThreadIndex(IntType T) {
  SymRef X = SymExpr::cast(SymExpr::threadIdx(Axis::X), T);
  SymRef Y = SymExpr::cast(SymExpr::threadIdx(Axis::Y), T);
  SymRef Z = SymExpr::cast(SymExpr::threadIdx(Axis::Z), T);
  SymRef DX = SymExpr::cast(SymExpr::blockDim(Axis::X), T);
  SymRef DY = SymExpr::cast(SymExpr::blockDim(Axis::Y), T);
  return SymExpr::binary(
      Opcode::Add, SymExpr::binary(Opcode::Add, X, SymExpr::binary(Opcode::Mul, Y, DX, T), T),
      SymExpr::binary(Opcode::Mul, Z, SymExpr::binary(Opcode::Mul, DX, DY, T), T), T);
}

/// The number of threads of the block, Dx * Dy * Dz, in type T.
inline SymRef blockThreadCount(IntType T) {
  SymRef DX = SymExpr::cast(SymExpr::blockDim(Axis::X), T);
  SymRef DY = SymExpr::cast(SymExpr::blockDim(Axis::Y), T);
  SymRef DZ = SymExpr::cast(SymExpr::blockDim(Axis::Z), T);
  return SymExpr::binary(Opcode::Mul, SymExpr::binary(Opcode::Mul, DX, DY, T), DZ, T);
}

/// A cooperative_groups query (thread_rank, size, num_threads,
/// meta_group_rank, meta_group_size) of a thread_block or thread_block_tile
/// (RD, the object's class) as a value of type T; null when it is none of
/// these (CooperativeGroups.cpp). The rank in a tile of no static size is a
/// lane-varying unknown named Spelling() (the call as written; only then
/// spelled).
SymRef cooperativeGroupQuery(const std::string &Name, const clang::CXXRecordDecl *RD, IntType T,
                             llvm::function_ref<std::string()> Spelling);

/// The C++ integer type T has (bool, enums by their underlying type; 64-bit
/// signed for anything else).
inline IntType intTypeOf(clang::QualType T, const clang::ASTContext &Ctx) {
  T = T.getCanonicalType();
  if (T->isBooleanType())
    return IntType::boolean();
  if (const auto *ET = T->getAs<clang::EnumType>())
    T = ET->getDecl()->getIntegerType();
  if (T->isIntegerType())
    return {unsigned(Ctx.getIntWidth(T)), T->isSignedIntegerOrEnumerationType()};
  return IntType::i64();
}

/// The access model's operator for an arithmetic, bitwise or comparison
/// operator of Clang's (not assignments, commas, && or ||).
inline std::optional<Opcode> arithmeticOpcode(clang::BinaryOperatorKind K) {
  using namespace clang;
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

/// E without parentheses, default arguments and default member initialisers
/// (their expressions stand where they are used).
inline const clang::Expr *skipDefaults(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *D = llvm::dyn_cast<clang::CXXDefaultInitExpr>(E))
      E = D->getExpr();
    else if (const auto *A = llvm::dyn_cast<clang::CXXDefaultArgExpr>(E))
      E = A->getExpr();
    else
      return E;
  }
}

/// Locals assigned anywhere inside a statement (for loops).
struct AssignedVars : clang::RecursiveASTVisitor<AssignedVars> {
  llvm::SmallVector<const clang::VarDecl *, 8> Vars;
  /// Members of class objects assigned (this->x = ..., obj.x += ...).
  llvm::SmallVector<const clang::FieldDecl *, 4> Fields;
  void note(const clang::Expr *E) {
    if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E->IgnoreParenImpCasts()))
      if (const auto *FD = llvm::dyn_cast<clang::FieldDecl>(ME->getMemberDecl()))
        if (llvm::find(Fields, FD) == Fields.end())
          Fields.push_back(FD);
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
        if (VD->isLocalVarDeclOrParm() && !isSharedVar(VD) &&
            llvm::find(Vars, VD) == Vars.end())
          Vars.push_back(VD);
  }
  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      note(UO->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0)
      note(OC->getArg(0));
    return true;
  }
  /// Locals declared in what was traversed: a loop body's own variables
  /// start afresh each iteration and are not carried by the loop.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Declared;
  bool VisitVarDecl(clang::VarDecl *VD) {
    if (!VD->isStaticLocal())
      Declared.insert(VD);
    return true;
  }
  /// The assigned variables, less those declared in what was traversed.
  void dropDeclared() {
    llvm::erase_if(Vars, [&](const clang::VarDecl *VD) { return Declared.count(VD) != 0; });
  }
};

/// Does the loop body leave an iteration early (break, continue, return,
/// goto)? Breaks and continues of nested loops and switches do not count.
bool leavesEarly(const clang::Stmt *Body);

/// Does S call an atomic (atomicCAS, atomicAdd, __nv_atomic_*, a member
/// compare_exchange/fetch_* of cuda::atomic)?
bool callsAtomic(const clang::Stmt *S);

/// The first atomic retry loop in S (see ControlFlowWalker.cpp), or null.
const clang::Stmt *findRetryLoop(const clang::Stmt *S);

/// threadIdx.x and friends (MS property references on Clang's builtin
/// variables): the leaf, a uniform unknown (blockIdx, gridDim) or null.
SymRef builtinVarMember(const clang::PseudoObjectExpr *POE);

} // namespace cbl

#endif
