//===- Coverage.h - Shared memory the tool could not model -----------------===//
//
// Never silently blind: per input file, the kernels whose shared memory the
// tool sees but could not model (an access with status unsupported or
// unknown, or no access recognised at all), grouped by reason, once per kernel however many
// instantiations it has. The run's summary lists them; --strict (config
// `Strict: true`) makes them errors. The reasons are read from the front
// end's texts (an access's reason, its note about a kernel without a
// recognised access), the one place that knows their wording.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_COVERAGE_H
#define CUDA_BANK_LINT_DRIVER_COVERAGE_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Report/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cbl {

enum class UnmodelledReason {
  NoAccessRecognised, ///< it names shared memory, but no access to it was recognised
  CallWithoutBody,    ///< a call whose body is not available receives shared memory
  AsyncCopy,          ///< cp.async, cp.async.bulk, memcpy_async
  Atomic,             ///< an atomic without a measured rule
  InlinePtx,          ///< other inline PTX with a shared operand
  Wmma,               ///< a WMMA fragment load or store
  RejectedCode,       ///< a call Clang rejects
  SharedConstructor,  ///< a __shared__ object with a constructor: Clang drops it (and its uses)
  Expression,         ///< an address or guard computed by an operation the engine does not model
  RunTimeValues,      ///< an address or guard that depends on values not known statically
  TimeBudget,         ///< the file's time limit ran out first
  Other,
};

/// "call whose body is not available": what the summary groups by.
const char *unmodelledReasonText(UnmodelledReason R);

/// The group of an unsupported access's reason.
UnmodelledReason classifyUnsupported(llvm::StringRef Reason);

/// The group of an unknown access's reason: an operation the engine does not
/// model ("'extractelement' not modelled", "result of call to '__nv_popc'",
/// an expression too large to track), else values not known statically.
UnmodelledReason classifyUnknown(llvm::StringRef Reason);

/// The kernel (or function) a front-end note names, and why, when it is the
/// note "kernel 'K' uses shared memory, but no access to it was recognised
/// ..." or "kernel 'K' has a __shared__ object with a constructor ...".
std::optional<std::pair<std::string, UnmodelledReason>> unmodelledByNote(const FrontEndNote &N);

/// One kernel (all its instantiations) and one reason.
struct UnmodelledKernel {
  std::string Kernel; ///< without template arguments
  SourcePos Where;    ///< its first such access, or the kernel
  UnmodelledReason Reason = UnmodelledReason::Other;
  bool IsKernel = true; ///< false: a device function analysed on its own
};

/// One file's: from its access records (status unsupported or unknown), its front
/// end's notes and the functions not analysed because they use a __shared__
/// object with a constructor; one entry per kernel and reason, in order of
/// first sight.
std::vector<UnmodelledKernel> unmodelledKernels(const std::vector<AccessRecord> &Accesses,
                                                const std::vector<FrontEndNote> &Notes,
                                                const std::vector<SkippedFunction> &Skipped = {});

/// What the summary prints for one file: "k.cu: shared memory not modelled
/// in 3 kernels:" and a line per reason ("  2 kernels: call whose body is
/// not available ('a', 'b')"); an error with Strict.
std::string describeUnmodelled(const std::string &File,
                               const std::vector<UnmodelledKernel> &Kernels, bool Strict);

} // namespace cbl

#endif
