//===- IslContext.cpp - isl context ownership and version ------------------===//
#include "cuda-bank-lint/Symbolic/IslContext.h"
#include "IslContextImpl.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>
#include <isl/version.h>

namespace cbl {

std::string islRuntimeVersion() {
  std::string V = isl_version();
  while (!V.empty() && (V.back() == '\n' || V.back() == ' '))
    V.pop_back();
  return V;
}

IslContext::IslContext(unsigned long MaxOperations) : State(std::make_unique<Impl>()) {
  State->Ctx = isl_ctx_alloc();
  // Errors become return values (checked by callers), never aborts.
  isl_options_set_on_error(State->Ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(State->Ctx, MaxOperations);
}

IslContext::~IslContext() {
  if (State && State->Ctx)
    isl_ctx_free(State->Ctx);
}

long IslContext::selfTest() {
  isl_set *S = isl_set_read_from_str(State->Ctx, "{ [i] : 0 <= i < 32 }");
  if (!S)
    return -1;
  isl_val *Card = isl_set_count_val(S);
  isl_set_free(S);
  if (!Card)
    return -1;
  long N = isl_val_get_num_si(Card);
  isl_val_free(Card);
  return N;
}

} // namespace cbl
