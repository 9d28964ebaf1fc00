//===- NvccTranslation.cpp - nvcc and clang compile commands for the parser ===//
#include "cuda-bank-lint/Driver/NvccTranslation.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Frontend/CudaCompilation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace cbl {

namespace {


bool sameFile(llvm::StringRef Dir, llvm::StringRef A, llvm::StringRef B) {
  return absolutePath(A, Dir) == absolutePath(B, Dir);
}

/// Expands @file arguments (nvcc's --options-file F and -optf F become @F
/// first), relative to the entry's directory. Unreadable files stay as they
/// are, so the parse reports them.
std::vector<std::string> expandResponseFiles(const std::vector<std::string> &Args,
                                             const std::string &Dir, bool Nvcc) {
  std::vector<std::string> Marked;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A(Args[I]);
    if (Nvcc && (A == "--options-file" || A == "-optf" || A == "-options-file") &&
        I + 1 < Args.size()) {
      Marked.push_back("@" + Args[++I]);
      continue;
    }
    if (Nvcc && (A.consume_front("--options-file=") || A.consume_front("-optf=") ||
                 A.consume_front("-options-file="))) {
      Marked.push_back("@" + A.str());
      continue;
    }
    Marked.push_back(Args[I]);
  }
  if (std::none_of(Marked.begin(), Marked.end(),
                   [](const std::string &S) { return llvm::StringRef(S).starts_with("@"); }))
    return Marked;
  llvm::BumpPtrAllocator Alloc;
  llvm::cl::ExpansionContext Ctx(Alloc, llvm::cl::TokenizeGNUCommandLine);
  Ctx.setCurrentDir(Dir);
  llvm::SmallVector<const char *, 64> Argv;
  for (const std::string &S : Marked)
    Argv.push_back(S.c_str());
  if (llvm::Error E = Ctx.expandResponseFiles(Argv)) {
    llvm::consumeError(std::move(E));
    return Marked;
  }
  return std::vector<std::string>(Argv.begin(), Argv.end());
}

/// Flags whose value is a path, in the forms "-I dir", "-Idir", "-I=dir".
constexpr const char *PathFlags[] = {"-I", "-isystem", "-iquote", "-idirafter", "-isysroot",
                                     "-include", "-imacros", "--sysroot"};
constexpr const char *JoinedPathFlags[] = {"-I", "-isystem", "-iquote", "-idirafter",
                                           "--sysroot=", "--cuda-path="};

/// Pushes In[I] (and its value) onto Out with relative paths made absolute
/// against Dir.
void pushWithAbsolutePaths(std::vector<std::string> &Out, const std::vector<std::string> &In,
                           size_t &I, const std::string &Dir) {
  llvm::StringRef A(In[I]);
  for (llvm::StringRef F : PathFlags)
    if (A == F && I + 1 < In.size()) {
      Out.push_back(In[I]);
      Out.push_back(absolutePath(In[++I], Dir));
      return;
    }
  for (llvm::StringRef F : JoinedPathFlags)
    if (A.starts_with(F) && A.size() > F.size()) {
      llvm::StringRef V = A.drop_front(F.size());
      bool Eq = V.consume_front("=");
      Out.push_back((F + (Eq ? "=" : "") + absolutePath(V, Dir)).str());
      return;
    }
  Out.push_back(In[I]);
}

/// nvcc flags that mean nothing for parsing device code: dropped silently.
/// The bool says whether the flag takes a separate value ("-ccbin g++").
struct DropRule {
  const char *Name; ///< without leading dashes
  bool TakesValue;
};
constexpr DropRule NvccDrops[] = {
    {"expt-relaxed-constexpr", false}, {"expt-extended-lambda", false},
    {"extended-lambda", false}, {"forward-unknown-to-host-compiler", false},
    {"forward-unknown-to-host-linker", false}, {"forward-unknown-opts", false},
    {"ccbin", true}, {"compiler-bindir", true}, {"Xptxas", true}, {"ptxas-options", true},
    {"Xnvlink", true}, {"nvlink-options", true}, {"Xcudafe", true}, {"Xlinker", true},
    {"linker-options", true}, {"Xarchive", true}, {"archive-options", true},
    {"Xfatbin", true}, {"fatbin-options", true}, {"lineinfo", false},
    {"generate-line-info", false}, {"G", false}, {"device-debug", false}, {"g", false},
    {"debug", false}, {"maxrregcount", true}, {"use_fast_math", false},
    {"use-fast-math", false}, {"ftz", true}, {"prec-div", true}, {"prec-sqrt", true},
    {"fmad", true}, {"diag-suppress", true}, {"diag-warn", true}, {"diag-error", true},
    {"display-error-number", false}, {"no-display-error-number", false},
    {"Werror", true}, {"keep", false}, {"keep-dir", true}, {"res-usage", false},
    {"resource-usage", false}, {"threads", true}, {"t", true}, {"split-compile", true},
    {"time", true}, {"allow-unsupported-compiler", false}, {"m64", false},
    {"machine", true}, {"cudart", true}, {"cudadevrt", true}, {"shared", false},
    {"c", false}, {"compile", false}, {"o", true}, {"output-file", true},
    {"MD", false}, {"MMD", false}, {"MT", true}, {"MF", true}, {"M", false},
    {"generate-dependencies", false}, {"generate-nonsystem-dependencies", false},
    {"dependency-output", true}, {"static-global-template-stub", true},
    {"device-link", false}, {"dlink", false}, {"dw", false}, {"objdir-as-tempdir", false},
    {"optimize", true}, {"dopt", true}, {"extra-device-vectorization", false},
    {"restrict", false}, {"Wreorder", false}, {"Wno-deprecated-gpu-targets", false},
    {"Wno-deprecated-declarations", false}, {"Wext-lambda-captures-this", false},
    {"Wdefault-stream-launch", false}, {"Wmissing-launch-bounds", false}, {"w", false},
    {"disable-warnings", false}, {"std", true}, {"L", true}, {"l", true},
    {"library", true}, {"library-path", true}, {"lib", false}, {"link", false},
    {"run", false}, {"cubin", false}, {"ptx", false}, {"fatbin", false},
    {"nvlink", false}, {"odir", true}, {"Xlto", true}, {"dlto", false},
    {"dlink-time-opt", false}, {"list-gpu-arch", false}, {"list-gpu-code", false},
    {"Wall", false}, {"Wextra", false}};

const DropRule *findDrop(llvm::StringRef Name) {
  for (const DropRule &R : NvccDrops)
    if (Name == R.Name)
      return &R;
  return nullptr;
}

/// Host-compiler flags (-Xcompiler a,b) worth keeping for parsing.
bool keepHostFlag(llvm::StringRef F) {
  return F.starts_with("-D") || F.starts_with("-U") || F.starts_with("-I") ||
         F.starts_with("-std=") || F == "-fexceptions" || F == "-fno-exceptions" ||
         F.starts_with("-isystem");
}

TranslatedCommand translateNvcc(const std::vector<std::string> &In, const std::string &Dir,
                                const std::string &EntryFile, const std::string &File) {
  TranslatedCommand T;
  T.FromNvcc = true;
  size_t First = 0;
  llvm::StringRef Launcher = llvm::sys::path::stem(In[0]);
  if (Launcher == "ccache" || Launcher == "sccache")
    First = 1;
  llvm::StringRef Nvcc = In[First];
  T.Args.push_back("clang++");
  // nvcc's own toolkit (<root>/bin/nvcc), when the command names it by path.
  if (llvm::sys::path::has_parent_path(Nvcc)) {
    std::string Bin = llvm::sys::path::parent_path(absolutePath(Nvcc, Dir)).str();
    if (llvm::sys::path::filename(Bin) == "bin")
      T.Args.push_back("--cuda-path=" + llvm::sys::path::parent_path(Bin).str());
  }
  std::vector<std::string> ArchValues;
  bool Rdc = false;
  std::vector<std::string> Kept; // before path absolutisation
  auto valueOf = [&](size_t &I, llvm::StringRef Joined) -> std::string {
    if (!Joined.empty())
      return Joined.str();
    return I + 1 < In.size() ? In[++I] : std::string();
  };
  for (size_t I = First + 1; I < In.size(); ++I) {
    llvm::StringRef A(In[I]);
    if (!A.starts_with("-")) {
      if (sameFile(Dir, A, EntryFile) || sameFile(Dir, A, File))
        continue;
      T.Dropped.push_back(A.str()); // another input: nvcc would compile it separately
      continue;
    }
    // Short forms with joined values that Clang spells the same way.
    if ((A.starts_with("-I") || A.starts_with("-D") || A.starts_with("-U")) && A.size() > 2) {
      Kept.push_back(A.str());
      continue;
    }
    if (A == "-I" || A == "-D" || A == "-U" || A == "-isystem" || A == "-include" ||
        A == "-iquote" || A == "-idirafter") {
      Kept.push_back(A.str());
      if (I + 1 < In.size())
        Kept.push_back(In[++I]);
      continue;
    }
    if (A.starts_with("-O") && A.size() <= 3) {
      Kept.push_back(A.str());
      continue;
    }
    llvm::StringRef Name = A.ltrim('-');
    auto [Key, Joined] = Name.split('=');
    bool HasEq = Name.contains('=');
    if (Key == "x" || Key == "language") {
      valueOf(I, Joined); // -x cu: the parser forces -x cuda anyway
      Kept.push_back("-x");
      Kept.push_back("cuda");
      continue;
    }
    if (Key == "std") {
      std::string V = valueOf(I, HasEq ? Joined : llvm::StringRef());
      Kept.push_back("-std=" + V);
      continue;
    }
    if (Key == "include-path" || Key == "system-include" || Key == "pre-include" ||
        Key == "define-macro" || Key == "undefine-macro" || Key == "isystem") {
      std::string V = valueOf(I, HasEq ? Joined : llvm::StringRef());
      const char *Short = Key == "include-path"    ? "-I"
                          : Key == "define-macro"  ? "-D"
                          : Key == "undefine-macro" ? "-U"
                          : Key == "pre-include"   ? "-include"
                                                   : "-isystem";
      if (Key == "define-macro" || Key == "undefine-macro" || Key == "include-path") {
        Kept.push_back(Short + V);
      } else {
        Kept.push_back(Short);
        Kept.push_back(V);
      }
      continue;
    }
    if (Key == "arch" || Key == "gpu-architecture" || Key == "code" || Key == "gpu-code" ||
        Key == "gencode" || Key == "generate-code") {
      ArchValues.push_back(valueOf(I, HasEq ? Joined : llvm::StringRef()));
      continue;
    }
    if (Key == "rdc" || Key == "relocatable-device-code") {
      std::string V = valueOf(I, HasEq ? Joined : llvm::StringRef());
      Rdc = Rdc || V == "true";
      continue;
    }
    if (Key == "dc" || Key == "device-c") {
      Rdc = true;
      continue;
    }
    if (Key == "Xcompiler" || Key == "compiler-options") {
      std::string V = valueOf(I, HasEq ? Joined : llvm::StringRef());
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      llvm::StringRef(V).split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts)
        if (keepHostFlag(P.trim()))
          Kept.push_back(P.trim().str());
      continue;
    }
    if (const DropRule *R = findDrop(Key)) {
      // "-Werror all-warnings", "-ccbin g++": skip the separate value too.
      // -Xptxas/-Xcompiler-style values are flags themselves ("-Xptxas -v").
      bool ValueIsFlag = Key.starts_with("X") || Key.ends_with("-options");
      if (R->TakesValue && !HasEq && I + 1 < In.size() &&
          (ValueIsFlag || !llvm::StringRef(In[I + 1]).starts_with("-")))
        ++I;
      continue;
    }
    if (A.starts_with("-W") || A.starts_with("-f") || A.starts_with("-m")) {
      // Host warnings and codegen flags forwarded by -forward-unknown-to-host-compiler.
      T.Dropped.push_back(A.str());
      continue;
    }
    T.Dropped.push_back(A.str());
  }
  if (unsigned Arch = lowestNvccArch(ArchValues))
    T.Args.push_back("--cuda-gpu-arch=" + clampGpuArch("sm_" + std::to_string(Arch)));
  if (Rdc)
    T.Args.push_back("-fgpu-rdc");
  for (size_t I = 0; I < Kept.size(); ++I)
    pushWithAbsolutePaths(T.Args, Kept, I, Dir);
  T.Args.push_back(File);
  return T;
}

} // namespace

bool isNvccCommand(const std::vector<std::string> &Args) {
  if (Args.empty())
    return false;
  size_t I = 0;
  llvm::StringRef S = llvm::sys::path::stem(Args[0]);
  if ((S == "ccache" || S == "sccache") && Args.size() > 1)
    S = llvm::sys::path::stem(Args[++I]);
  return S == "nvcc";
}

unsigned lowestNvccArch(const std::vector<std::string> &ArchValues) {
  unsigned Real = 0, Virtual = 0;
  auto note = [](unsigned &Slot, unsigned N) {
    if (N && (!Slot || N < Slot))
      Slot = N;
  };
  for (const std::string &V : ArchValues) {
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    llvm::StringRef(V).split(Parts, ',', -1, false);
    for (llvm::StringRef P : Parts) {
      P = P.trim();
      P.consume_front("arch=");
      P.consume_front("code=");
      P = P.trim("[]");
      bool IsReal = P.consume_front("sm_");
      bool IsVirtual = !IsReal && P.consume_front("compute_");
      unsigned N = 0;
      llvm::StringRef Digits = P.take_while(llvm::isDigit);
      if ((!IsReal && !IsVirtual) || Digits.getAsInteger(10, N))
        continue; // native, all, all-major: the default arch
      note(IsReal ? Real : Virtual, N);
    }
  }
  return Real ? Real : Virtual;
}

TranslatedCommand translateCompileCommand(const std::vector<std::string> &Args,
                                          const std::string &Directory,
                                          const std::string &EntryFile,
                                          const std::string &File) {
  bool Nvcc = isNvccCommand(Args);
  std::vector<std::string> In = expandResponseFiles(Args, Directory, Nvcc);
  if (In.empty())
    return TranslatedCommand{{"clang++", File}, false, {}};
  if (Nvcc)
    return translateNvcc(In, Directory, EntryFile, File);
  TranslatedCommand T;
  T.Args.push_back(In[0]);
  for (size_t I = 1; I < In.size(); ++I) {
    llvm::StringRef A(In[I]);
    // The entry's own file goes last; "--" would make the flags the parser
    // appends look like inputs.
    if (A == "--" || (!A.starts_with("-") && (sameFile(Directory, A, EntryFile) ||
                                                sameFile(Directory, A, File))))
      continue;
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") {
      ++I;
      continue;
    }
    pushWithAbsolutePaths(T.Args, In, I, Directory);
  }
  T.Args.push_back(File);
  return T;
}

} // namespace cbl
