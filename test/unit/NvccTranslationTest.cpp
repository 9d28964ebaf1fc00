//===- NvccTranslationTest.cpp - nvcc -> Clang flag table (platform.md) ----===//
#include "cuda-bank-lint/Driver/NvccTranslation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace cbl;

namespace {

bool has(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}

TranslatedCommand translate(std::vector<std::string> Args, const std::string &Dir = "/proj/build",
                            const std::string &File = "/proj/src/k.cu") {
  return translateCompileCommand(Args, Dir, File, File);
}

// What CMake's Ninja generator writes for a CUDA target (CMake 3.25, nvcc 13).
TEST(NvccTranslation, CMakeNinjaLine) {
  auto T = translate({"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DTILE=32",
                      "-I/proj/include", "-isystem", "/opt/inc", "-O3", "-DNDEBUG",
                      "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                      "-Xcompiler=-fPIC", "--expt-relaxed-constexpr", "--extended-lambda",
                      "-rdc=true", "-std=c++17", "-MD", "-MT", "k.o", "-MF", "k.o.d", "-x", "cu",
                      "-c", "/proj/src/k.cu", "-o", "k.o"});
  EXPECT_TRUE(T.FromNvcc);
  ASSERT_FALSE(T.Args.empty());
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_EQ(T.Args.back(), "/proj/src/k.cu");
  EXPECT_TRUE(has(T.Args, "--cuda-path=/usr/local/cuda"));
  EXPECT_TRUE(has(T.Args, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(has(T.Args, "-fgpu-rdc"));
  EXPECT_TRUE(has(T.Args, "-DTILE=32"));
  EXPECT_TRUE(has(T.Args, "-I/proj/include"));
  EXPECT_TRUE(has(T.Args, "-std=c++17"));
  EXPECT_TRUE(has(T.Args, "-O3"));
  for (const char *Gone : {"-fPIC", "-forward-unknown-to-host-compiler", "--expt-relaxed-constexpr",
                           "--extended-lambda", "-MD", "k.o", "k.o.d", "-c", "-o"})
    EXPECT_FALSE(has(T.Args, Gone)) << Gone;
  EXPECT_EQ(std::count(T.Args.begin(), T.Args.end(), "/proj/src/k.cu"), 1);
  EXPECT_TRUE(T.Dropped.empty()) << T.Dropped.front();
}

TEST(NvccTranslation, LowestRealArchCappedAtSm90) {
  EXPECT_EQ(lowestNvccArch({"arch=compute_80,code=[compute_80,sm_80]", "arch=compute_75,code=sm_75"}), 75u);
  EXPECT_EQ(lowestNvccArch({"arch=compute_70,code=compute_70"}), 70u);
  EXPECT_EQ(lowestNvccArch({"native"}), 0u);
  EXPECT_EQ(lowestNvccArch({"all-major"}), 0u);
  EXPECT_EQ(lowestNvccArch({"sm_90a"}), 90u);
  auto T = translate({"nvcc", "-gencode", "arch=compute_100,code=sm_100", "-c", "/proj/src/k.cu"});
  EXPECT_TRUE(has(T.Args, "--cuda-gpu-arch=sm_90"));
  auto Native = translate({"nvcc", "-arch=native", "-c", "/proj/src/k.cu"});
  EXPECT_TRUE(std::none_of(Native.Args.begin(), Native.Args.end(), [](const std::string &A) {
    return A.rfind("--cuda-gpu-arch", 0) == 0;
  }));
  auto Arch = translate({"nvcc", "-arch", "sm_86", "-code=sm_86", "-c", "/proj/src/k.cu"});
  EXPECT_TRUE(has(Arch.Args, "--cuda-gpu-arch=sm_86"));
}

TEST(NvccTranslation, LongFormsBecomeShortForms) {
  auto T = translate({"nvcc", "--include-path", "inc", "--define-macro=N=4", "--undefine-macro", "M",
                      "--system-include=/sys", "--pre-include", "pre.h", "--std", "c++20",
                      "--compiler-options", "-Wall,-DHOST=1,-fno-exceptions,-fPIC", "-c",
                      "/proj/src/k.cu"});
  EXPECT_TRUE(has(T.Args, "-I/proj/build/inc")) << "relative to the entry's directory";
  EXPECT_TRUE(has(T.Args, "-DN=4"));
  EXPECT_TRUE(has(T.Args, "-UM"));
  EXPECT_TRUE(has(T.Args, "/sys"));
  EXPECT_TRUE(has(T.Args, "-include"));
  EXPECT_TRUE(has(T.Args, "-std=c++20"));
  EXPECT_TRUE(has(T.Args, "-DHOST=1"));
  EXPECT_TRUE(has(T.Args, "-fno-exceptions"));
  EXPECT_FALSE(has(T.Args, "-Wall"));
  EXPECT_FALSE(has(T.Args, "-fPIC"));
}

TEST(NvccTranslation, DropsKnownFlagsQuietlyAndNotesUnknownOnes) {
  auto T = translate({"nvcc", "-ccbin", "g++-12", "-Xptxas", "-v", "-lineinfo", "-G",
                      "-maxrregcount=64", "--use_fast_math", "--ftz=true", "--prec-div=false",
                      "--fmad=true", "--diag-suppress=177", "-Werror", "all-warnings",
                      "--made-up-flag", "-c", "/proj/src/k.cu"});
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_FALSE(has(T.Args, "g++-12"));
  EXPECT_FALSE(has(T.Args, "-v"));
  EXPECT_FALSE(has(T.Args, "all-warnings"));
  ASSERT_EQ(T.Dropped.size(), 1u);
  EXPECT_EQ(T.Dropped.front(), "--made-up-flag");
}

// nvcc options that take a separate value are dropped with it; those worth a
// note are named once, with their value.
TEST(NvccTranslation, SeparateValuesAreDroppedWithTheirOption) {
  auto T = translate({"nvcc", "--default-stream", "per-thread", "-ftemplate-depth", "512",
                      "--optimization-info", "inline", "-Xptxas", "-v", "-Werror", "-c",
                      "-ccbin=g++", "--threads", "4", "-t", "2", "--split-compile", "0", "-MF",
                      "k.d", "-o", "k.o", "-lcudart", "-L", "/opt/lib", "-odir", "obj", "-O", "3",
                      "-c", "/proj/src/k.cu"});
  EXPECT_EQ(T.Dropped, (std::vector<std::string>{"--default-stream per-thread",
                                                 "-ftemplate-depth 512"}));
  for (const char *Gone : {"per-thread", "512", "inline", "-v", "4", "2", "0", "k.d", "k.o", "obj",
                           "3", "-lcudart", "/opt/lib"})
    EXPECT_FALSE(has(T.Args, Gone)) << Gone;
  EXPECT_EQ(T.Args.back(), "/proj/src/k.cu");
  auto Joined = translate({"nvcc", "--default-stream=legacy", "-c", "/proj/src/k.cu"});
  EXPECT_EQ(Joined.Dropped, std::vector<std::string>{"--default-stream=legacy"});
}

TEST(NvccTranslation, OptionsFileRelativeToTheEntryDirectory) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cbl-nvcc", Dir));
  llvm::SmallString<128> Rsp(Dir);
  llvm::sys::path::append(Rsp, "includes_CUDA.rsp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Rsp, EC);
    ASSERT_FALSE(EC);
    OS << "-I" << Dir << "/inc --define-macro=FROM_RSP=1\n";
  }
  auto T = translateCompileCommand({"nvcc", "--options-file", "includes_CUDA.rsp", "-x", "cu", "-c",
                                    "k.cu"},
                                   std::string(Dir), "k.cu", "/abs/k.cu");
  EXPECT_TRUE(has(T.Args, "-I" + std::string(Dir) + "/inc"));
  EXPECT_TRUE(has(T.Args, "-DFROM_RSP=1"));
  EXPECT_EQ(T.Args.back(), "/abs/k.cu");
  EXPECT_FALSE(has(T.Args, "k.cu"));
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccTranslation, ClangLinesPassThrough) {
  auto T = translate({"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_80", "-Iinc", "-c",
                      "../src/k.cu", "-o", "k.o"});
  EXPECT_FALSE(T.FromNvcc);
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_TRUE(has(T.Args, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(has(T.Args, "-I/proj/build/inc"));
  EXPECT_FALSE(has(T.Args, "k.o"));
  EXPECT_FALSE(has(T.Args, "../src/k.cu")) << "the entry's file names the same path";
  EXPECT_EQ(T.Args.back(), "/proj/src/k.cu");
}

TEST(NvccTranslation, LaunchersAreSeenThrough) {
  EXPECT_TRUE(isNvccCommand({"/usr/bin/ccache", "/usr/local/cuda/bin/nvcc", "-c", "k.cu"}));
  EXPECT_FALSE(isNvccCommand({"clang++", "-c", "k.cu"}));
  auto T = translate({"ccache", "nvcc", "-DX", "-c", "/proj/src/k.cu"});
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_TRUE(has(T.Args, "-DX"));
}

} // namespace
