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
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>

namespace cbl {

namespace {


bool sameFile(llvm::StringRef Dir, llvm::StringRef A, llvm::StringRef B) {
  return absolutePath(A, Dir) == absolutePath(B, Dir);
}

/// The real file system, except that only regular files exist: a response
/// file named by a database must not be a device (@/dev/zero never ends), a
/// FIFO (blocks) or a directory. ExpansionContext leaves an @F whose file does
/// not exist as it is.
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
public:
  RegularFilesOnly() : ProxyFileSystem(llvm::vfs::getRealFileSystem()) {}
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override {
    llvm::ErrorOr<llvm::vfs::Status> S = ProxyFileSystem::status(Path);
    if (S && S->getType() != llvm::sys::fs::file_type::regular_file)
      return std::make_error_code(std::errc::no_such_file_or_directory);
    return S;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    if (!status(Path))
      return std::make_error_code(std::errc::no_such_file_or_directory);
    return ProxyFileSystem::openFileForRead(Path);
  }
};

/// Expands @file arguments (nvcc's --options-file F and -optf F become @F
/// first), relative to the entry's directory. Unreadable files and those
/// that are not regular files stay as they are, so the parse reports them.
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
  RegularFilesOnly FS;
  Ctx.setVFS(&FS);
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

/// nvcc's options (`nvcc --help` of CUDA 13, plus older spellings) that the
/// translation drops: those translated to Clang flags are handled in
/// translateNvcc before this table is consulted. Value: the option takes a
/// value, joined by '=' or as the next argument, which nvcc always consumes
/// ("-ccbin g++", "--default-stream per-thread", "-Xptxas -v"). Noted: the
/// option can change what the code means (a macro, the host dialect), so
/// --verbose names it with its value; the others are dropped silently.
enum NvccArity : bool { Flag = false, Value = true };
enum NvccNote : bool { Silent = false, Noted = true };
struct NvccOption {
  const char *Long;
  const char *Short; ///< nullptr when it is the long name
  NvccArity Arity;
  NvccNote Note = Silent;
};
constexpr NvccOption NvccDropped[] = {
    {"cuda", nullptr, Flag}, {"cubin", nullptr, Flag}, {"fatbin", nullptr, Flag},
    {"ptx", nullptr, Flag}, {"optix-ir", nullptr, Flag}, {"ltoir", nullptr, Flag},
    {"preprocess", "E", Flag, Noted}, {"generate-dependencies", "M", Flag},
    {"generate-nonsystem-dependencies", "MM", Flag},
    {"generate-dependencies-with-compile", "MD", Flag},
    {"generate-nonsystem-dependencies-with-compile", "MMD", Flag},
    {"dependency-output", "MF", Value}, {"generate-dependency-targets", "MP", Flag},
    {"compile", "c", Flag}, {"device-w", "dw", Flag}, {"device-link", "dlink", Flag},
    {"link", nullptr, Flag}, {"lib", nullptr, Flag}, {"run", nullptr, Flag},
    {"output-file", "o", Value}, {"objdir-as-tempdir", "objtemp", Flag}, {"library", "l", Value},
    {"library-path", "L", Value}, {"output-directory", "odir", Value},
    {"compiler-bindir", "ccbin", Value}, {"allow-unsupported-compiler", nullptr, Flag},
    {"archiver-binary", "arbin", Value}, {"cudart", nullptr, Value}, {"cudadevrt", nullptr, Value},
    {"libdevice-directory", "ldir", Value}, {"target-directory", "target-dir", Value},
    {"use-local-env", nullptr, Flag}, {"force-cl-env-setup", nullptr, Flag},
    {"profile", "pg", Flag}, {"debug", "g", Flag}, {"device-debug", "G", Flag},
    {"generate-line-info", "lineinfo", Flag}, {"optimization-info", "opt-info", Value},
    {"optimize", "O", Value}, {"Ofast-compile", "Ofc", Value}, {"dopt", nullptr, Value},
    {"dlink-time-opt", "dlto", Flag}, {"lto", nullptr, Flag}, {"gen-opt-lto", nullptr, Flag},
    {"ftemplate-backtrace-limit", nullptr, Value, Noted},
    {"ftemplate-depth", nullptr, Value, Noted}, {"no-exceptions", "noeh", Flag, Noted},
    {"shared", nullptr, Flag}, {"no-host-device-initializer-list", "nohdinitlist", Flag, Noted},
    {"no-host-device-move-forward", "nohdmoveforward", Flag, Noted},
    {"expt-relaxed-constexpr", nullptr, Flag}, {"extended-lambda", nullptr, Flag},
    {"expt-extended-lambda", nullptr, Flag}, {"machine", "m", Value}, {"m64", nullptr, Flag},
    {"linker-options", "Xlinker", Value}, {"archive-options", "Xarchive", Value},
    {"ptxas-options", "Xptxas", Value}, {"nvlink-options", "Xnvlink", Value},
    {"static-global-template-stub", nullptr, Value},
    {"device-entity-has-hidden-visibility", nullptr, Value, Noted},
    {"forward-unknown-to-host-compiler", nullptr, Flag},
    {"forward-unknown-to-host-linker", nullptr, Flag}, {"forward-unknown-opts", nullptr, Flag},
    {"dont-use-profile", "noprof", Flag}, {"dryrun", nullptr, Flag}, {"verbose", "v", Flag},
    {"threads", "t", Value}, {"split-compile", nullptr, Value},
    {"split-compile-extended", nullptr, Value}, {"fdevice-syntax-only", nullptr, Flag, Noted},
    {"fdevice-time-trace", nullptr, Value}, {"keep", nullptr, Flag}, {"keep-dir", nullptr, Value},
    {"save-temps", nullptr, Flag}, {"clean-targets", "clean", Flag}, {"time", nullptr, Value},
    {"run-args", nullptr, Value}, {"input-drive-prefix", "idp", Value},
    {"dependency-drive-prefix", "ddp", Value}, {"drive-prefix", "dp", Value},
    {"dependency-target-name", "MT", Value}, {"no-align-double", nullptr, Flag},
    {"no-device-link", "nodlink", Flag}, {"entries", "e", Value}, {"maxrregcount", nullptr, Value},
    {"use_fast_math", nullptr, Flag}, {"ftz", nullptr, Value}, {"prec-div", nullptr, Value},
    {"prec-sqrt", nullptr, Value}, {"fmad", nullptr, Value},
    {"extra-device-vectorization", nullptr, Flag}, {"default-stream", nullptr, Value, Noted},
    {"disable-warnings", "w", Flag}, {"keep-device-functions", nullptr, Flag},
    {"source-in-ptx", "src-in-ptx", Flag}, {"restrict", nullptr, Flag},
    {"Wreorder", nullptr, Flag}, {"Wdefault-stream-launch", nullptr, Flag},
    {"Wmissing-launch-bounds", nullptr, Flag}, {"Wext-lambda-captures-this", nullptr, Flag},
    {"Wno-deprecated-declarations", nullptr, Flag}, {"Wno-deprecated-gpu-targets", nullptr, Flag},
    {"Werror", nullptr, Value}, {"resource-usage", "res-usage", Flag},
    {"extensible-whole-program", "ewp", Flag, Noted}, {"no-compress", nullptr, Flag},
    {"qpp-config", nullptr, Value, Noted}, {"compile-as-tools-patch", "astoolspatch", Flag},
    {"list-gpu-code", "code-ls", Flag}, {"list-gpu-arch", "arch-ls", Flag},
    {"display-error-number", "err-no", Flag}, {"no-display-error-number", "no-err-no", Flag},
    {"diag-error", nullptr, Value}, {"diag-suppress", nullptr, Value},
    {"diag-warn", nullptr, Value}, {"host-linker-script", "hls", Value},
    {"augment-host-linker-script", "aug-hls", Flag}, {"relocatable-link", "r", Flag},
    {"brief-diagnostics", "brief-diag", Value}, {"jump-table-density", "jtd", Value},
    {"relocatable-ptx", "reloc-ptx", Flag}, {"device-stack-protector", nullptr, Value},
    {"compress-mode", nullptr, Value}, {"frandom-seed", nullptr, Value},
    {"sanitize", nullptr, Value, Noted}, {"jobserver", nullptr, Flag}, {"help", "h", Flag},
    {"version", "V", Flag}, {"Xcudafe", nullptr, Value}, {"fatbin-options", "Xfatbin", Value},
    {"Xlto", nullptr, Value}, {"Wall", nullptr, Flag}, {"Wextra", nullptr, Flag},
    {"nvlink", nullptr, Flag}};

const NvccOption *findNvccOption(llvm::StringRef Name) {
  for (const NvccOption &O : NvccDropped)
    if (Name == O.Long || (O.Short && Name == O.Short))
      return &O;
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
    if (A.starts_with("-O") && A.size() == 3) {
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
    if (const NvccOption *O = findNvccOption(Key)) {
      std::string Dropped = A.str();
      if (O->Arity == Value && !HasEq && I + 1 < In.size())
        Dropped += " " + In[++I];
      if (O->Note == Noted)
        T.Dropped.push_back(Dropped);
      continue;
    }
    if ((A.starts_with("-l") || A.starts_with("-L")) && A.size() > 2)
      continue; // -lcudart, -L/opt/lib: linking only
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
