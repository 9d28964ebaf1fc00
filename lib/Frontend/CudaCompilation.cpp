//===- CudaCompilation.cpp - Device-side Clang command lines ---------------===//
#include "cuda-bank-lint/Frontend/CudaCompilation.h"
#include "cuda-bank-lint/Support/BuildConfig.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace cbl {

namespace {
// Generated from lib/Frontend/Prelude/*.h by CMake.
struct EmbeddedFile {
  const char *Name;
  const char *Text;
};
#include "PreludeFiles.inc"

constexpr const char *PreludeDir = "/__cuda_bank_lint__/prelude";
constexpr const char *ShimDir = "/__cuda_bank_lint__/cuda13-shim";
} // namespace

const char *preludeDirectory() { return PreludeDir; }

const char *cudaModeName(CudaMode M) {
  switch (M) {
  case CudaMode::Auto: return "auto";
  case CudaMode::Headers: return "cuda-headers";
  case CudaMode::Prelude: return "prelude";
  }
  return "?";
}

static bool hasToolkit(const std::string &Root) {
  llvm::SmallString<256> P(Root);
  llvm::sys::path::append(P, "include", "cuda_runtime.h");
  return !Root.empty() && llvm::sys::fs::exists(P);
}

/// Runs the host compiler: hostCompilerIncludeDirs() asks once per process
/// (the language server resolves its options for every analysis).
static std::vector<std::string> askHostCompilerIncludeDirs() {
  std::vector<std::string> Dirs;
  for (const char *Name : {"g++", "gcc", "c++"}) {
    llvm::ErrorOr<std::string> Path = llvm::sys::findProgramByName(Name);
    if (!Path)
      continue;
    llvm::SmallString<128> Out;
    if (llvm::sys::fs::createTemporaryFile("cbl-host-include", "txt", Out))
      return Dirs;
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Out), std::nullopt};
    int RC = llvm::sys::ExecuteAndWait(*Path, {*Path, "-print-file-name=include"}, std::nullopt,
                                       Redirects, /*SecondsToWait=*/20);
    auto Text = llvm::MemoryBuffer::getFile(Out);
    llvm::sys::fs::remove(Out);
    if (RC != 0 || !Text)
      continue;
    std::string Dir = llvm::StringRef((*Text)->getBuffer()).trim().str();
    if (llvm::sys::path::is_absolute(Dir) && llvm::sys::fs::is_directory(Dir))
      Dirs.push_back(Dir);
    break;
  }
  return Dirs;
}

std::vector<std::string> hostCompilerIncludeDirs() {
  static const std::vector<std::string> Dirs = askHostCompilerIncludeDirs();
  return Dirs;
}

CudaSetup resolveCudaSetup(CudaMode Requested, const std::string &CudaPath,
                           std::string &Error) {
  CudaSetup S;
  S.ResourceDir = CBL_CLANG_RESOURCE_DIR;
  S.HostIncludeDirs = hostCompilerIncludeDirs();
  std::string Root = CudaPath.empty() ? "/usr/local/cuda" : CudaPath;
  if (Requested == CudaMode::Prelude) {
    S.Mode = CudaMode::Prelude;
    return S;
  }
  if (hasToolkit(Root)) {
    S.Mode = CudaMode::Headers;
    S.CudaPath = Root;
    return S;
  }
  if (Requested == CudaMode::Headers || !CudaPath.empty())
    Error = "no CUDA toolkit at '" + Root + "' (include/cuda_runtime.h not found)";
  S.Mode = CudaMode::Prelude;
  return S;
}

std::string clampGpuArch(const std::string &Arch) {
  llvm::StringRef A(Arch);
  A.consume_front("sm_") || A.consume_front("compute_");
  unsigned N = 0;
  llvm::StringRef Digits = A.take_while([](char C) { return C >= '0' && C <= '9'; });
  if (Digits.empty() || Digits.getAsInteger(10, N))
    return "sm_90";
  if (N > 90 || N < 50)
    return "sm_90";
  return "sm_" + std::to_string(N);
}

std::vector<std::string> deviceSideCommand(const std::vector<std::string> &Cmd,
                                           const CudaSetup &Setup) {
  std::vector<std::string> Out;
  if (Cmd.empty())
    return Out;
  Out.push_back(Cmd.front());
  std::string Arch = Setup.GpuArch;
  // Flags that would make Clang do something other than parse the device side,
  // or that conflict with the ones we add.
  for (size_t I = 1; I + 1 < Cmd.size(); ++I) {
    llvm::StringRef A(Cmd[I]);
    if (A == "-c" || A == "-fsyntax-only" || A == "--cuda-host-only" ||
        A == "--cuda-device-only" || A == "-E" || A == "-S" || A == "-M" ||
        A == "-MD" || A == "-MMD")
      continue;
    if (A == "-o" || A == "-x" || A == "-MF" || A == "-MT" || A == "-MQ") {
      ++I;
      continue;
    }
    if (A.starts_with("-o") || A.starts_with("-x") || A.starts_with("-MF"))
      continue;
    if (A.consume_front("--cuda-gpu-arch=") || A.consume_front("--offload-arch=")) {
      Arch = clampGpuArch(A.str());
      continue;
    }
    if (A.starts_with("--cuda-path=") && Setup.Mode == CudaMode::Prelude)
      continue;
    Out.push_back(Cmd[I]);
  }
  Out.push_back("-x");
  Out.push_back("cuda");
  Out.push_back("--cuda-device-only");
  Out.push_back("--cuda-gpu-arch=" + Arch);
  Out.push_back("-fsyntax-only");
  Out.push_back("-ferror-limit=0");
  Out.push_back("-w"); // we report our findings, not Clang's warnings
  Out.push_back("-fno-caret-diagnostics"); // no "N errors generated" on stderr
  Out.push_back("-Wno-unknown-cuda-version");
  Out.push_back("-Wno-register"); // nvcc accepts 'register' in C++17 code
  Out.push_back("-resource-dir");
  Out.push_back(Setup.ResourceDir);
  if (Setup.Mode == CudaMode::Headers) {
    Out.push_back("--cuda-path=" + Setup.CudaPath);
    Out.push_back("-isystem");
    Out.push_back(ShimDir);
    Out.push_back("-isystem");
    Out.push_back(Setup.CudaPath + "/include/cccl");
    // After Clang's own -include of its CUDA wrapper.
    Out.push_back("-include");
    Out.push_back(std::string(ShimDir) + "/cbl_cuda_compat.h");
  } else {
    Out.push_back("-nocudainc");
    Out.push_back("-nocudalib");
    Out.push_back("-isystem");
    Out.push_back(PreludeDir);
    Out.push_back("-include");
    Out.push_back("cbl_prelude.h");
    Out.push_back("-include");
    Out.push_back("cbl_cuda_compat.h");
  }
  for (const std::string &Dir : Setup.HostIncludeDirs) {
    Out.push_back("-idirafter");
    Out.push_back(Dir);
  }
  Out.push_back(Cmd.back());
  return Out;
}

std::vector<std::pair<std::string, std::string>> virtualFiles(const CudaSetup &Setup) {
  std::vector<std::pair<std::string, std::string>> Files;
  if (Setup.Mode == CudaMode::Headers) {
    // CUDA 13 dropped texture_fetch_functions.h, which Clang 19's wrapper includes.
    Files.push_back({std::string(ShimDir) + "/texture_fetch_functions.h",
                     "/* empty: cuda-bank-lint shim for Clang 19 with CUDA 13 */\n"});
    for (const EmbeddedFile &F : PreludeFileTable)
      if (llvm::StringRef(F.Name) == "cbl_cuda_compat.h")
        Files.push_back({std::string(ShimDir) + "/" + F.Name, F.Text});
    return Files;
  }
  for (const EmbeddedFile &F : PreludeFileTable)
    Files.push_back({std::string(PreludeDir) + "/" + F.Name, F.Text});
  return Files;
}

} // namespace cbl
