//===- HostValues.h - Host values at a launch, over its block size (private) ===//
//
// What a launch passes for a kernel parameter is often not a constant but a
// function of the block size the same launch uses:
//
//   szLocalWorkSize = system_size;          // one assignment, before the launch
//   int iterations = log2(system_size / 2);
//   dim3 lws(szLocalWorkSize);
//   k<<<grid, lws>>>(..., system_size, iterations);
//
// Here 'system_size' is blockDim.x and 'iterations' is log2(blockDim.x / 2),
// whatever the program reads at run time. This file finds the variables a
// launch's block size is (per axis) and translates a host expression into
// the access model's expressions over blockDim, following each local to its
// one definition: a never-written variable's initialiser, or the one plain
// assignment of a local that stands directly in the function's body before
// the launch. Anything else (a second write, a write in a branch or loop, a
// call, floating-point arithmetic other than (int)log2 of an integer) is not
// followed: the parameter then stays unknown.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_HOSTVALUES_H
#define CUDA_BANK_LINT_LIB_FRONTEND_HOSTVALUES_H

#include "cuda-bank-lint/AccessModel/SymExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace cbl {

/// The writes of user code's variables, gathered by one pass (BlockShapes'
/// launch scanner).
struct HostWrites {
  struct Writes {
    unsigned Count = 0;                        ///< assignments, ++/--, &v, non-const references
    const clang::BinaryOperator *Sole = nullptr; ///< the plain `v = e`, when it is the only write
  };
  llvm::DenseMap<const clang::VarDecl *, Writes> Of;
  /// Statements standing directly in a function's body (each runs once per
  /// call, in order), with that body.
  llvm::DenseMap<const clang::Stmt *, const clang::CompoundStmt *> TopLevel;

  void written(const clang::VarDecl *VD, const clang::BinaryOperator *PlainAssignment);
  void noteBody(const clang::Stmt *Body);
};

/// E without the temporaries, casts and copies a dim3 argument is wrapped in.
const clang::Expr *withoutCopies(const clang::Expr *E);

/// The variables that launch K's block size is, by axis (dim3 lws(n): n is
/// blockDim.x), followed through one-definition locals; empty when the block
/// argument is built otherwise (arithmetic, a call, a constant).
using BlockVariables = llvm::DenseMap<const clang::VarDecl *, Axis>;
BlockVariables blockVariables(const clang::CUDAKernelCallExpr *K, const HostWrites &W,
                              clang::ASTContext &Ctx);

/// The value E has at launch K as an expression over blockDim, where the
/// variables of Block are the block size; nullopt when E is not such a
/// function. Definition: the first definition that is more than a variable
/// ("log2(system_size / 2)"), for the note that says where the value came from.
std::optional<SymRef> hostValueAt(const clang::Expr *E, const clang::CUDAKernelCallExpr *K,
                                  const HostWrites &W, const BlockVariables &Block,
                                  clang::ASTContext &Ctx, std::string *Definition = nullptr);

} // namespace cbl

#endif
