//===- CompileCommands.cpp - Database discovery, nvcc translation, inference ===//
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Driver/NvccTranslation.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace cbl {

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Path.empty())
    return "";
  llvm::SmallString<256> P;
  if (llvm::sys::path::is_absolute(Path) || Dir.empty()) {
    P = Path;
    llvm::sys::fs::make_absolute(P);
  } else {
    P = Dir;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

namespace {

bool isCudaEntry(const CompileCommand &C) {
  llvm::StringRef Ext = llvm::sys::path::extension(C.Filename);
  if (Ext == ".cu" || Ext == ".cuh" || isNvccCommand(C.CommandLine))
    return true;
  for (size_t I = 0; I < C.CommandLine.size(); ++I) {
    llvm::StringRef A(C.CommandLine[I]);
    if (A == "-xcuda" || A.starts_with("--cuda-gpu-arch") ||
        (A == "-x" && I + 1 < C.CommandLine.size() && C.CommandLine[I + 1] == "cuda"))
      return true;
  }
  return false;
}

/// The translated CUDA entries of a database, by absolute file path.
class TranslatedDatabase : public CompilationDatabase {
public:
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    auto It = ByFile.find(absolutePath(FilePath));
    if (It == ByFile.end())
      return {};
    return It->second;
  }
  std::vector<std::string> getAllFiles() const override { return Files; }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    std::vector<CompileCommand> All;
    for (const std::string &F : Files)
      for (const CompileCommand &C : ByFile.find(F)->second)
        All.push_back(C);
    return All;
  }
  void add(CompileCommand C) {
    auto &Slot = ByFile[C.Filename];
    if (Slot.empty())
      Files.push_back(C.Filename);
    Slot.push_back(std::move(C));
  }

private:
  llvm::StringMap<std::vector<CompileCommand>> ByFile;
  std::vector<std::string> Files;
};

/// compile_commands.json in Dir, or in its build/, out/, cmake-build-*/ or
/// _build/ subdirectory.
std::string databaseNear(llvm::StringRef Dir) {
  auto has = [](llvm::StringRef D) {
    llvm::SmallString<256> P(D);
    llvm::sys::path::append(P, "compile_commands.json");
    return llvm::sys::fs::exists(P) ? std::string(P) : std::string();
  };
  if (std::string P = has(Dir); !P.empty())
    return P;
  std::vector<std::string> Subdirs = {"build", "out"};
  std::vector<std::string> CMakeDirs;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::sys::path::filename(It->path()).starts_with("cmake-build-"))
      CMakeDirs.push_back(It->path());
  std::sort(CMakeDirs.begin(), CMakeDirs.end());
  for (std::string &S : Subdirs) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, S);
    S = std::string(P);
  }
  Subdirs.insert(Subdirs.end(), CMakeDirs.begin(), CMakeDirs.end());
  llvm::SmallString<256> Underscore(Dir);
  llvm::sys::path::append(Underscore, "_build");
  Subdirs.push_back(std::string(Underscore));
  for (const std::string &S : Subdirs)
    if (std::string P = has(S); !P.empty())
      return P;
  return "";
}

} // namespace

std::unique_ptr<CompileCommands>
CompileCommands::load(const std::string &BuildPath, const std::string &FirstInput,
                      std::unique_ptr<CompilationDatabase> Fixed, std::string &Error) {
  auto Result = std::unique_ptr<CompileCommands>(new CompileCommands());
  std::string Path;
  if (!BuildPath.empty()) {
    Path = llvm::sys::fs::is_directory(BuildPath) ? databaseNear(BuildPath) : BuildPath;
    if (Path.empty() || !llvm::sys::fs::exists(Path)) {
      Error = "no compile_commands.json in '" + BuildPath + "' (-p names the build directory)";
      return nullptr;
    }
  } else if (!Fixed && !FirstInput.empty()) {
    // clang-tidy: explicit "--" flags mean "do not look for a database".
    llvm::SmallString<256> Dir(absolutePath(FirstInput));
    if (!llvm::sys::fs::is_directory(Dir))
      llvm::sys::path::remove_filename(Dir);
    for (llvm::StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D))
      if (std::string P = databaseNear(D); !P.empty()) {
        Path = P;
        break;
      }
  }
  Result->Fixed = std::move(Fixed);
  if (Path.empty())
    return Result;

  uint64_t Size = 0;
  if (!llvm::sys::fs::file_size(Path, Size) && Size == 0) {
    Error = "compilation database '" + Path + "' is empty";
    return nullptr;
  }
  std::string LoadError;
  auto Json = clang::tooling::JSONCompilationDatabase::loadFromFile(
      Path, LoadError, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Json) {
    Error = "cannot load compilation database '" + Path + "': " + LoadError;
    return nullptr;
  }
  std::vector<CompileCommand> All = Json->getAllCompileCommands();
  if (All.empty()) {
    Error = "compilation database '" + Path + "' has no entries";
    return nullptr;
  }
  Result->DatabasePath = Path;
  auto Translated = std::make_unique<TranslatedDatabase>();
  for (const CompileCommand &C : All) {
    if (!isCudaEntry(C) || C.CommandLine.empty())
      continue;
    std::string File = absolutePath(C.Filename, C.Directory);
    TranslatedCommand T = translateCompileCommand(C.CommandLine, C.Directory, C.Filename, File);
    Result->Dropped[File] = T.Dropped;
    Result->FromNvcc[File] = T.FromNvcc;
    Translated->add(CompileCommand(C.Directory, File, std::move(T.Args), C.Output));
  }
  Result->Cuda = clang::tooling::inferMissingCompileCommands(std::move(Translated));
  return Result;
}

std::vector<std::string> CompileCommands::entries() const {
  std::vector<std::string> Files;
  if (Cuda)
    for (const std::string &F : Cuda->getAllFiles())
      Files.push_back(absolutePath(F));
  return Files;
}

CompileCommands::Resolved CompileCommands::resolve(const std::string &File) const {
  Resolved R;
  std::string Abs = absolutePath(File);
  std::vector<CompileCommand> Found;
  if (Cuda)
    Found = Cuda->getCompileCommands(Abs);
  if (!Found.empty()) {
    CompileCommand &C = Found.front();
    if (!llvm::sys::fs::is_directory(C.Directory)) {
      R.Error = "error: the compilation database entry for '" + File + "' in '" + DatabasePath +
                "' names directory '" + C.Directory + "', which does not exist\n";
      return R;
    }
    std::string Entry = Abs;
    llvm::StringRef H(C.Heuristic);
    if (H.consume_front("inferred from "))
      Entry = H.str();
    auto NvccIt = FromNvcc.find(Entry);
    bool Nvcc = NvccIt != FromNvcc.end() && NvccIt->second;
    R.OwnEntry = C.Heuristic.empty();
    if (C.Heuristic.empty())
      R.Notes += File + ": note: using the " + (Nvcc ? "nvcc " : "") + "compile command of '" +
                 Entry + "' from '" + DatabasePath + "'\n";
    else
      R.Notes += File + ": note: not in '" + DatabasePath + "'; using the " +
                 (Nvcc ? "nvcc " : "") + "flags of the closest entry '" + Entry + "'\n";
    auto DroppedIt = Dropped.find(Entry);
    if (DroppedIt != Dropped.end())
      for (const std::string &D : DroppedIt->second)
        R.Notes += File + ": note: dropped nvcc flag '" + D + "' (no Clang equivalent for parsing)\n";
    R.Args = C.CommandLine;
    // The interpolated command ends in "-- <file>" or names the file as the
    // entry did: the parser wants the file last, after every flag.
    R.Args.erase(std::remove_if(R.Args.begin() + 1, R.Args.end(),
                                [&](const std::string &A) {
                                  return A == "--" || (!llvm::StringRef(A).starts_with("-") &&
                                                       absolutePath(A, C.Directory) == Abs);
                                }),
                 R.Args.end());
    R.Args.push_back(File);
    return R;
  }
  if (Fixed) {
    std::vector<CompileCommand> F = Fixed->getCompileCommands(File);
    if (!F.empty()) {
      R.Args = F.front().CommandLine;
      R.Args.back() = File;
      return R;
    }
  }
  if (!DatabasePath.empty())
    R.Notes += File + ": note: no CUDA entry in '" + DatabasePath + "' to borrow flags from; " +
               "parsing with default flags\n";
  R.Args = {"clang++", File};
  return R;
}

} // namespace cbl
