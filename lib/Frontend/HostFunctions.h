//===- HostFunctions.h - Host helpers compiled for the model (private) ----===//
//
// A function of the host program that computes an integer from integers
// alone (its parameters and locals; if, while, do, for, break, continue,
// return; calls of other such functions) becomes a HostFunction the access
// model can run on known arguments. Anything else (memory, globals that
// are not constants, floating point, a call of another kind, recursion, a
// function with no body here) is not compiled: the caller keeps the value
// unknown, as before.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_HOSTFUNCTIONS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_HOSTFUNCTIONS_H

#include "cuda-bank-lint/AccessModel/HostFunction.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace cbl {

/// FD compiled, or null (see above). Functions in system headers are not
/// compiled: a library's meaning is the library's (log2 is Opcode::Log2).
std::shared_ptr<const HostFunction> compileHostFunction(const clang::FunctionDecl *FD,
                                                        clang::ASTContext &Ctx);

/// The model's integer type of the C++ type T (bool, enums by their
/// underlying type; 64-bit signed for anything else).
IntType intTypeOf(clang::QualType T, const clang::ASTContext &Ctx);

/// The operators of an integer host expression E as the model's: casts
/// between integers (a conversion to bool is `!= 0`), unary + - ~ !, the
/// arithmetic, bitwise, comparison and logical operators, ?:. Each operand
/// goes through Operand, the caller's own translation (its variables,
/// calls, depth bound). Null when E is none of these or an operand has no
/// translation. Shared by HostFunctions and HostValues.
SymRef integerOperators(const clang::Expr *E, clang::ASTContext &Ctx,
                        llvm::function_ref<SymRef(const clang::Expr *)> Operand);

/// Fn (null: not compiled) applied to Call's arguments, each translated by
/// Operand and converted to its parameter's type; folded when all are known.
SymRef hostCall(std::shared_ptr<const HostFunction> Fn, const clang::CallExpr *Call,
                llvm::function_ref<SymRef(const clang::Expr *)> Operand);

} // namespace cbl

#endif
