//===- IslContextImpl.h - The isl_ctx inside IslContext (private) ----------===//
//
// Only the symbolic layer's .cpp files include this (and isl's headers).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_SYMBOLIC_ISLCONTEXTIMPL_H
#define CUDA_BANK_LINT_LIB_SYMBOLIC_ISLCONTEXTIMPL_H

#include "cuda-bank-lint/Symbolic/IslContext.h"

#include <isl/ctx.h>

namespace cbl {

struct IslContext::Impl {
  isl_ctx *Ctx = nullptr;
};

} // namespace cbl

#endif
