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
// whatever the program reads at run time. This file translates the block
// size and a host expression into the access model's expressions over the
// host values they are computed from (parameters, values read at run time:
// unknowns), following each local to its one definition: a never-written
// variable's initialiser, or the one plain assignment of a local that
// stands directly in the function's body before the launch. Each block
// size's expression is then replaced by blockDim wherever it occurs in the
// argument; the argument is fixed when no host value is left (a block of
// n / 2 threads fixes log2(n / 2) but not n, which may be 2 * blockDim.x or
// one more). A parameter of the host function that launches is followed to
// the calls of that function in the file when each passes the same value
// (fwtBatchGPU(d, 1, log2Data) everywhere: log2N is log2Data). A call of
// the program's own integer helper (int log2(int n)
// { while (n > 1) ... }) is compiled (HostFunctions.h) and run once its
// arguments are known. Not followed: a second write, a write in a branch
// or loop, another call (but (int)log2 of an integer), floating point.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_HOSTVALUES_H
#define CUDA_BANK_LINT_LIB_FRONTEND_HOSTVALUES_H

#include "cuda-bank-lint/AccessModel/SymExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
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

  /// The calls of each user function, and how often its name is used (a
  /// function used other than called may be called with anything).
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> Calls;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> Uses;

  void noteWrite(const clang::VarDecl *VD, const clang::BinaryOperator *PlainAssignment);
  bool isWritten(const clang::VarDecl *VD) const { return Of.count(VD) != 0; }
  void noteBody(const clang::Stmt *Body);
};

/// E without the temporaries, casts and copies a dim3 argument is wrapped in.
const clang::Expr *withoutCopies(const clang::Expr *E);

/// The variable E names (through parentheses and implicit casts), or null.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// The size of launch K's block per axis as an expression over the host
/// values it is computed from (dim3 lws(n / 2): n / 2 for x), null where
/// it is a constant or not such an expression.
using BlockSizes = std::array<SymRef, 3>;
BlockSizes blockSizes(const clang::CUDAKernelCallExpr *K, const HostWrites &W, clang::ASTContext &Ctx);

/// The value E has at launch K as an expression over blockDim: E
/// translated over the same host values, every occurrence of a block
/// size's expression replaced by blockDim; nullopt when E is not such a
/// function (a host value remains). Description: what the note says
/// ("log2(system_size / 2) with blockDim.x = system_size / 2").
std::optional<SymRef> hostValueAt(const clang::Expr *E, const clang::CUDAKernelCallExpr *K,
                                  const HostWrites &W, const BlockSizes &Block,
                                  clang::ASTContext &Ctx, std::string *Description = nullptr);

} // namespace cbl

#endif
