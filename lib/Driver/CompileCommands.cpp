//===- CompileCommands.cpp - Database discovery, nvcc translation, inference ===//
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Driver/NvccTranslation.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace cbl {

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

/// An entry the project mode lints: a .cu file, or a command that compiles
/// its file as CUDA (nvcc's -x cu, Clang's -x cuda).
bool compilesCuda(const CompileCommand &C) {
  if (llvm::sys::path::extension(C.Filename) == ".cu")
    return true;
  auto isCuda = [](llvm::StringRef L) { return L == "cu" || L == "cuda"; };
  const std::vector<std::string> &A = C.CommandLine;
  for (size_t I = 0; I < A.size(); ++I) {
    llvm::StringRef S(A[I]);
    bool Separate = S == "-x" || S == "--x" || S == "-language" || S == "--language";
    if (Separate && I + 1 < A.size() && isCuda(A[I + 1]))
      return true;
    for (llvm::StringRef Joined : {"-x", "-x=", "--x=", "--language=", "-language="})
      if (S.starts_with(Joined) && isCuda(S.drop_front(Joined.size())))
        return true;
  }
  return false;
}

/// Checks what JSONCompilationDatabase would half-accept: the YAML/JSON
/// syntax (it prints such errors raw and keeps the entries read so far) and
/// the shape of each entry. The error reads "file:line:col: message" (without
/// the source line: a database is often one long line).
class DatabaseValidator {
public:
  explicit DatabaseValidator(llvm::MemoryBufferRef Buffer) : Buffer(Buffer), OS(Errors) {
    SM.setDiagHandler(
        [](const llvm::SMDiagnostic &D, void *Ctx) {
          auto *Self = static_cast<DatabaseValidator *>(Ctx);
          if (!Self->Failed)
            Self->OS << D.getFilename() << ":" << D.getLineNo() << ":" << D.getColumnNo() + 1
                     << ": " << D.getMessage();
          Self->Failed = true;
        },
        this);
  }

  /// Empty when the database is well-formed, else its first error.
  std::string run() {
    {
      // Syntax first: the entries are read lazily, so a truncated file would
      // otherwise show as an entry with a missing value.
      llvm::yaml::Stream Syntax(Buffer, SM, /*ShowColors=*/false);
      for (llvm::yaml::Document &D : Syntax)
        D.skip();
      if (!Failed && Syntax.failed())
        OS << Buffer.getBufferIdentifier() << ": malformed JSON";
      if (Failed || Syntax.failed())
        return OS.str();
    }
    llvm::yaml::Stream S(Buffer, SM, /*ShowColors=*/false);
    Stream = &S;
    llvm::yaml::document_iterator Doc = S.begin();
    llvm::yaml::Node *Root = Doc == S.end() ? nullptr : Doc->getRoot();
    if (!Failed && Root) {
      if (auto *Entries = llvm::dyn_cast<llvm::yaml::SequenceNode>(Root)) {
        for (auto It = Entries->begin(); It != Entries->end() && !Failed; ++It)
          entry(*It);
      } else if (!Failed) {
        fail(Root, "a compilation database is a JSON array of entries");
      }
    }
    return OS.str();
  }

private:
  llvm::MemoryBufferRef Buffer;
  llvm::SourceMgr SM;
  llvm::yaml::Stream *Stream = nullptr;
  std::string Errors;
  llvm::raw_string_ostream OS;
  bool Failed = false;

  void fail(llvm::yaml::Node *N, const llvm::Twine &Message) {
    if (!Failed)
      Stream->printError(N, Message);
  }

  void entry(llvm::yaml::Node &E) {
    auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(&E);
    if (!Map)
      return fail(&E, "an entry must be an object with \"directory\", \"file\" and "
                      "\"command\" or \"arguments\"");
    bool Directory = false, File = false, Command = false;
    for (llvm::yaml::KeyValueNode &KV : *Map) {
      auto *K = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
      llvm::yaml::Node *V = KV.getValue();
      if (!K)
        return fail(KV.getKey(), "expected a string key");
      llvm::SmallString<16> Storage;
      llvm::StringRef Key = K->getValue(Storage);
      bool IsString = llvm::isa_and_nonnull<llvm::yaml::ScalarNode>(V) ||
                      llvm::isa_and_nonnull<llvm::yaml::BlockScalarNode>(V);
      if (Key == "arguments") {
        auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(V);
        if (!Seq)
          return fail(V, "\"arguments\" must be an array of strings");
        for (llvm::yaml::Node &A : *Seq)
          if (!llvm::isa<llvm::yaml::ScalarNode>(A))
            return fail(&A, "\"arguments\" must be an array of strings");
        Command = true;
      } else if (Key == "directory" || Key == "file" || Key == "command" || Key == "output") {
        if (!IsString)
          return fail(V, "\"" + Key + "\" must be a string");
        Directory |= Key == "directory";
        File |= Key == "file";
        Command |= Key == "command";
      }
    }
    if (!Directory || !File || !Command)
      fail(&E, std::string("entry without ") +
                   (!Directory ? "\"directory\"" : !File ? "\"file\"" : "\"command\" or \"arguments\""));
  }
};

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

std::string CompileCommands::locate(const std::string &BuildPath, const std::string &FirstInput,
                                    bool HasFixed, std::string &Error) {
  std::string Path;
  if (!BuildPath.empty()) {
    Path = llvm::sys::fs::is_directory(BuildPath) ? databaseNear(BuildPath) : BuildPath;
    if (Path.empty() || !llvm::sys::fs::exists(Path))
      Error = "no compile_commands.json in '" + BuildPath + "' (-p names the build directory)";
  } else if (!HasFixed && !FirstInput.empty()) {
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
  return Error.empty() ? Path : "";
}

std::unique_ptr<CompileCommands>
CompileCommands::load(const std::string &BuildPath, const std::string &FirstInput,
                      std::unique_ptr<CompilationDatabase> Fixed, std::string &Error) {
  auto Result = std::unique_ptr<CompileCommands>(new CompileCommands());
  std::string Path = locate(BuildPath, FirstInput, Fixed != nullptr, Error);
  if (!Error.empty())
    return nullptr;
  Result->Fixed = std::move(Fixed);
  if (Path.empty())
    return Result;

  uint64_t Size = 0;
  if (!llvm::sys::fs::file_size(Path, Size) && Size == 0) {
    Error = "compilation database '" + Path + "' is empty";
    return nullptr;
  }
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    Error = "cannot read compilation database '" + Path + "': " + Buf.getError().message();
    return nullptr;
  }
  auto Loaded = fromBuffer((*Buf)->getBuffer(), Path, Error);
  if (Loaded)
    Loaded->Fixed = std::move(Result->Fixed);
  return Loaded;
}

std::unique_ptr<CompileCommands> CompileCommands::fromBuffer(llvm::StringRef Json,
                                                             const std::string &Path,
                                                             std::string &Error) {
  auto Result = std::unique_ptr<CompileCommands>(new CompileCommands());
  auto Buf = llvm::MemoryBuffer::getMemBufferCopy(Json, Path);
  std::string Invalid = DatabaseValidator(Buf->getMemBufferRef()).run();
  if (!Invalid.empty()) {
    Error = "invalid compilation database: " + Invalid + " (nothing analysed)";
    return nullptr;
  }
  std::string LoadError;
  auto Database = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Json, LoadError, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Database) {
    Error = "cannot load compilation database '" + Path + "': " + LoadError;
    return nullptr;
  }
  std::vector<CompileCommand> All = Database->getAllCompileCommands();
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
    if (compilesCuda(C) && !llvm::is_contained(Result->Sources, File))
      Result->Sources.push_back(File);
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
