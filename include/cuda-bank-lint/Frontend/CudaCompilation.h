//===- CudaCompilation.h - How a CUDA file is parsed for analysis ---------===//
//
// Turns a user's compiler flags into the Clang command line that parses the
// device side of a .cu/.cuh file, in one of two modes:
//  - cuda-headers: a real CUDA toolkit (default /usr/local/cuda). Clang 19 knows
//    CUDA only up to 12.5, so for CUDA 13 we add a shim directory with an empty
//    texture_fetch_functions.h and the CCCL include directory;
//  - prelude: no toolkit; -nocudainc plus cbl_prelude.h and stand-ins for
//    cuda_runtime.h & co., served from memory.
// See shared/notes/platform.md for why each flag is there.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_FRONTEND_CUDACOMPILATION_H
#define CUDA_BANK_LINT_FRONTEND_CUDACOMPILATION_H

#include <string>
#include <utility>
#include <vector>

namespace cbl {

enum class CudaMode { Auto, Headers, Prelude };

struct CudaSetup {
  CudaMode Mode = CudaMode::Prelude; ///< resolved: Headers or Prelude
  std::string CudaPath;              ///< toolkit root in Headers mode
  std::string GpuArch = "sm_90";     ///< the one device arch parsed
  std::string ResourceDir;           ///< Clang's builtin headers
  /// The host compiler's own include directories (GCC's omp.h, ...), which
  /// nvcc finds through its host compiler; searched after everything else.
  std::vector<std::string> HostIncludeDirs;
};

/// The include directory of the host compiler that nvcc would use (g++, else
/// gcc or c++ on PATH): what `g++ -print-file-name=include` prints, if it
/// exists. Empty when there is no host compiler.
std::vector<std::string> hostCompilerIncludeDirs();

/// Decides the mode: Headers if Requested is Headers, or Auto and a toolkit
/// with include/cuda_runtime.h exists at CudaPath (or /usr/local/cuda).
/// Returns an error message in Error when Headers was requested but no
/// toolkit is there.
CudaSetup resolveCudaSetup(CudaMode Requested, const std::string &CudaPath,
                           std::string &Error);

const char *cudaModeName(CudaMode M);

/// Clamps an --cuda-gpu-arch / -arch value to what Clang 19 accepts for
/// parsing (sm_XX up to sm_90; 'a'/'f' suffixes and newer archs map to sm_90).
std::string clampGpuArch(const std::string &Arch);

/// Rewrites a compile command (argv[0] = compiler, last = the file, as
/// clang::tooling gives it) so Clang parses only the device side.
std::vector<std::string> deviceSideCommand(const std::vector<std::string> &Cmd,
                                           const CudaSetup &Setup);

/// In-memory files to register with the tool (prelude headers, CUDA 13 shim).
std::vector<std::pair<std::string, std::string>> virtualFiles(const CudaSetup &Setup);

/// The in-memory directory that holds the prelude (for error classification).
const char *preludeDirectory();

} // namespace cbl

#endif
