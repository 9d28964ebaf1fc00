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

#include <memory>

namespace cbl {

/// FD compiled, or null (see above). Functions in system headers are not
/// compiled: a library's meaning is the library's (log2 is Opcode::Log2).
std::shared_ptr<const HostFunction> compileHostFunction(const clang::FunctionDecl *FD,
                                                        clang::ASTContext &Ctx);

} // namespace cbl

#endif
