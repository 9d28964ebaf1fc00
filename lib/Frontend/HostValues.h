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
// A launch made by a generic launcher (a function that receives the kernel
// and its configuration as parameters) is evaluated at each call of it: a
// chain of BoundCalls binds the launcher's parameters to what that call
// passes, evaluated where the call is (Launchers.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_HOSTVALUES_H
#define CUDA_BANK_LINT_LIB_FRONTEND_HOSTVALUES_H

#include "cuda-bank-lint/AccessModel/SymExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// The writes of user code's variables, gathered by one pass (BlockShapes'
/// launch scanner).
struct HostWrites {
  struct Writes {
    unsigned Count = 0;                        ///< assignments, ++/--, &v, non-const references
    const clang::BinaryOperator *Sole = nullptr; ///< the plain `v = e`, when it is the only write
    std::vector<const clang::Expr *> Assigned; ///< the right-hand sides of the plain `v = e`
  };
  llvm::DenseMap<const clang::VarDecl *, Writes> Of;
  /// Statements standing directly in a function's body (each runs once per
  /// call, in order), with that body.
  llvm::DenseMap<const clang::Stmt *, const clang::CompoundStmt *> TopLevel;

  /// The calls of each user function, and how often its name is used (a
  /// function used other than called may be called with anything).
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> Calls;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> Uses;

  /// The writes of a local's members (cfg.blockDim = b, cfg.blockDim.x = 32;
  /// each also counted in Of), by variable: the member of the variable
  /// written, whether the write is of that whole member, the value a plain
  /// assignment gives it (null otherwise), and the writing expression.
  struct MemberWrite {
    const clang::FieldDecl *Field = nullptr;
    bool Whole = false;
    const clang::Expr *Value = nullptr;
    const clang::Stmt *At = nullptr;
  };
  llvm::DenseMap<const clang::VarDecl *, std::vector<MemberWrite>> Members;

  /// A node of the AST on the way from a call up to its function.
  using Node = llvm::PointerUnion<const clang::Stmt *, const clang::Decl *>;
  /// The parent of each node on the way from a call of Calls or a launch up
  /// to the function that holds it (the first declaration that is one), as
  /// the scan met them: what the branches around a launch say, and which
  /// function makes a call, without the whole translation unit's parent map.
  llvm::DenseMap<Node, Node> Parents;
  /// Ancestors: the nodes the scan is inside, outermost first; noteWay
  /// records those of the innermost one, a call.
  void noteWay(llvm::ArrayRef<Node> Ancestors);
  /// S's parent on such a way (null when none was recorded).
  Node parentOf(Node S) const { return Parents.lookup(S); }

  void noteWrite(const clang::VarDecl *VD, const clang::BinaryOperator *PlainAssignment);
  bool isWritten(const clang::VarDecl *VD) const { return Of.count(VD) != 0; }
  void noteBody(const clang::Stmt *Body);
  /// S stands directly in the body of the function that holds Inside, and
  /// ends before Before (it runs once, before, on every path to there).
  bool topLevelBefore(const clang::Stmt *S, clang::SourceLocation Inside, clang::SourceLocation Before,
                      const clang::SourceManager &SM) const;
};

/// A call whose callee's parameters stand for the arguments it passes, each
/// evaluated where the call is, in Outer's scope (null: the caller's own
/// parameters are not bound): a launcher called with a kernel and its
/// configuration, or the constructor of a struct of launch parameters.
struct BoundCall {
  const clang::FunctionDecl *Callee = nullptr;
  llvm::ArrayRef<const clang::Expr *> Args;
  clang::SourceLocation At;
  const BoundCall *Outer = nullptr;
};

/// The argument that the innermost call of Frame's chain to P's function
/// passes for P (a default argument: its expression), with Frame set to
/// the scope it is evaluated in; null when no call of the chain binds P.
const clang::Expr *boundArgument(const clang::ParmVarDecl *P, const BoundCall *&Frame);

/// E's value where Frame binds the parameters (locals followed as at a
/// launch, HostFunctions run), when it is a constant.
std::optional<int64_t> boundConstant(const clang::Expr *E, const BoundCall *Frame, const HostWrites &W,
                                     clang::ASTContext &Ctx);

/// E without the temporaries, casts and copies a dim3 argument is wrapped in.
const clang::Expr *withoutCopies(const clang::Expr *E);

/// The variable E names (through parentheses and implicit casts), or null.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// The size per axis of the block that Block (a launch's block argument,
/// at the launch At) gives, as an expression over the host values it is
/// computed from (dim3 lws(n / 2): n / 2 for x), null where it is a
/// constant or not such an expression.
using BlockSizes = std::array<SymRef, 3>;
BlockSizes blockSizes(const clang::Expr *Block, clang::SourceLocation At, const HostWrites &W,
                      clang::ASTContext &Ctx);

/// The value E has at the launch at At as an expression over blockDim: E
/// translated over the same host values, every occurrence of a block
/// size's expression replaced by blockDim; nullopt when E is not such a
/// function (a host value remains). Description: what the note says
/// ("log2(system_size / 2) with blockDim.x = system_size / 2").
std::optional<SymRef> hostValueAt(const clang::Expr *E, clang::SourceLocation At,
                                  const HostWrites &W, const BlockSizes &Block,
                                  clang::ASTContext &Ctx, std::string *Description = nullptr);

} // namespace cbl

#endif
