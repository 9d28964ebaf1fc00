//===- IslContext.h - Ownership of isl state for one analysis -------------===//
//
// The symbolic layer owns every isl_ctx. Other layers see only this header,
// which includes no isl header: the version string (for --version, proving
// which isl was linked) and a bounded context handle for the analyses.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_ISLCONTEXT_H
#define CUDA_BANK_LINT_SYMBOLIC_ISLCONTEXT_H

#include <memory>
#include <string>

namespace cbl {

/// isl's own version string of the library linked at run time.
std::string islRuntimeVersion();

/// One isl context with an operations budget (isl_ctx_set_max_operations).
/// Declared before, and so destroyed after, any isl object that uses it.
class IslContext {
public:
  explicit IslContext(unsigned long MaxOperations = 2000000);
  ~IslContext();
  IslContext(const IslContext &) = delete;
  IslContext &operator=(const IslContext &) = delete;
  struct Impl;
  Impl &impl() { return *State; }
  /// Smoke-tests the linked isl: builds { [i] : 0 <= i < 32 } and counts it.
  /// Returns -1 if isl fails; used by --version to prove isl works.
  long selfTest();

private:
  std::unique_ptr<Impl> State;
};

} // namespace cbl

#endif
