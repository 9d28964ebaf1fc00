//===- ModelBuilder.h - Parse one CUDA file into an access model ----------===//
//
// The front end's entry point: runs Clang on the device side of one file and
// returns the TranslationUnitModel, or the compiler's errors. Errors that Clang
// reports only inside host-only functions (nvcc accepts code that Clang's CUDA
// mode rejects there) do not affect device code: the kernels are analysed and
// the skipped host functions are listed.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_FRONTEND_MODELBUILDER_H
#define CUDA_BANK_LINT_FRONTEND_MODELBUILDER_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Frontend/CudaCompilation.h"

#include <string>
#include <vector>

namespace cbl {

struct ParsedFile {
  TranslationUnitModel Model;
  bool Failed = false;         ///< the device side does not compile
  std::string ErrorText;       ///< Clang's diagnostics for the failure
  /// Host-only functions whose bodies Clang rejected, with the first error.
  std::vector<std::string> SkippedHostFunctions;
  std::string HostErrorText;   ///< Clang's text for those errors (--verbose)
};

/// What the front end may infer beyond the source of the kernels.
struct ModelOptions {
  /// Kernel parameters that every launch in the file sets the same way take
  /// that value (config LaunchArguments).
  bool LaunchArguments = true;
};

/// Parses File with the compile command Command (argv[0] = compiler, last
/// element = File) rewritten for the device side under Setup.
ParsedFile parseCudaFile(const std::string &File, const std::vector<std::string> &Command,
                         const CudaSetup &Setup, const ModelOptions &Options = {});

} // namespace cbl

#endif
