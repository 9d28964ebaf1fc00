//===- Inputs.cpp - Directories, --exclude and stdin -----------------------===//
#include "cuda-bank-lint/Driver/Inputs.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace cbl {

namespace {

bool isCudaSource(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

/// Bytes of a sample that no source text has: control characters other than
/// whitespace, and bytes that are not part of a valid UTF-8 character.
size_t strayBytes(llvm::StringRef Sample) {
  size_t Stray = 0;
  const llvm::UTF8 *P = Sample.bytes_begin(), *End = Sample.bytes_end();
  while (P < End) {
    if (*P < 0x80) {
      Stray += (*P < 0x20 && !llvm::isSpace(char(*P))) || *P == 0x7f;
      ++P;
      continue;
    }
    unsigned N = llvm::getNumBytesForUTF8(*P);
    if (P + N > End)
      break; // a character cut by the end of the sample
    if (llvm::isLegalUTF8Sequence(P, P + N)) {
      P += N;
    } else {
      ++Stray;
      ++P;
    }
  }
  return Stray;
}

} // namespace

std::string notSourceText(llvm::StringRef Start) {
  llvm::StringRef Sample = Start.take_front(8192);
  if (Sample.contains('\0'))
    return "NUL bytes in its first 8 KiB";
  // A few stray bytes (a Latin-1 comment) are text; a tenth is not.
  if (size_t Stray = strayBytes(Sample); Stray * 10 > Sample.size())
    return "not text: " + std::to_string(Stray) + " of its first " +
           std::to_string(Sample.size()) + " bytes are neither UTF-8 nor whitespace";
  return "";
}

namespace {

/// notSourceText of the file's start; "" when it cannot be read (the
/// analysis says why).
std::string notSourceFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return Buf ? notSourceText((*Buf)->getBuffer()) : "";
}

/// Path relative to the current directory, or empty if it is outside it.
std::string relativeToCwd(const std::string &Abs) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "";
  llvm::SmallString<256> P(Abs);
  if (!llvm::sys::path::replace_path_prefix(P, Cwd, ""))
    return "";
  return llvm::StringRef(P).ltrim('/').str();
}

} // namespace

std::string displayPath(const std::string &Path) {
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd))
    if (std::string Rel = pathInRoot(Path, std::string(Cwd)); !Rel.empty())
      return Rel;
  return withoutDots(Path);
}

std::optional<ExcludeFilter> ExcludeFilter::create(const std::vector<std::string> &Globs,
                                                   std::string &Error) {
  ExcludeFilter F;
  for (const std::string &G : Globs) {
    F.Texts.push_back(std::make_unique<const std::string>(G));
    auto P = llvm::GlobPattern::create(*F.Texts.back());
    if (!P) {
      Error = "invalid --exclude '" + G + "': " + llvm::toString(P.takeError());
      return std::nullopt;
    }
    F.Patterns.push_back(std::move(*P));
  }
  return F;
}

bool ExcludeFilter::excluded(const std::string &Path) const {
  if (Patterns.empty())
    return false;
  llvm::SmallString<256> Given(Path);
  llvm::sys::path::remove_dots(Given, /*remove_dot_dot=*/false);
  std::string Abs = absolutePath(Path);
  for (const std::string &Spelling : {std::string(Given), Abs, relativeToCwd(Abs)})
    for (llvm::StringRef P = Spelling; !P.empty() && P != "/"; P = llvm::sys::path::parent_path(P))
      for (const llvm::GlobPattern &G : Patterns)
        if (G.match(P) || G.match(llvm::sys::path::filename(P)))
          return true;
  return false;
}

namespace {

/// A directory's CUDA files, sorted, into Out; false when it has none.
bool expandDirectory(const std::string &In, const ExcludeFilter &Exclude, ExpandedInputs &Out) {
  std::vector<std::string> Found;
  size_t Cuda = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(In, EC), End; It != End && !EC;
       It.increment(EC)) {
    bool Dir = llvm::sys::fs::is_directory(It->path());
    if (Dir && Exclude.excluded(It->path())) {
      It.no_push();
      continue;
    }
    if (Dir || !isCudaSource(It->path()))
      continue;
    ++Cuda;
    if (!Exclude.excluded(It->path()))
      Found.push_back(It->path());
  }
  if (EC)
    Out.Errors += "error: cannot read directory '" + In + "': " + EC.message() + "\n";
  std::sort(Found.begin(), Found.end());
  // A binary file named .cu (an object, an archive) is not parsed as source.
  for (std::string &F : Found) {
    std::string Why = notSourceFile(F);
    if (Why.empty()) {
      Out.Files.push_back(std::move(F));
      continue;
    }
    Out.Notes += F + ": note: skipped: not CUDA source (" + Why + ")\n";
    Out.NotSource.push_back(std::move(F));
  }
  return Cuda;
}

} // namespace

ExpandedInputs expandInputs(const std::vector<std::string> &Inputs, const ExcludeFilter &Exclude) {
  ExpandedInputs Out;
  std::string &Errors = Out.Errors;
  std::vector<std::string> &Files = Out.Files;
  for (const std::string &In : Inputs) {
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(In, St) || !llvm::sys::fs::exists(St)) {
      Errors += "error: no such file or directory: '" + In + "'\n";
      continue;
    }
    if (Exclude.excluded(In))
      continue;
    if (llvm::sys::fs::is_directory(St)) {
      if (!expandDirectory(In, Exclude, Out))
        Errors += "error: no CUDA source files (.cu, .cuh) in directory '" + In + "'\n";
      continue;
    }
    if (!notSourceFile(In).empty()) {
      Errors += "error: '" + In + "' is a binary file, not CUDA source\n";
      continue;
    }
    Files.push_back(In);
  }
  return Out;
}

std::unique_ptr<StdinInput> StdinInput::read(const std::string &AssumedName,
                                             std::string &Error) {
  auto Source = llvm::MemoryBuffer::getSTDIN();
  if (!Source) {
    Error = "cannot read stdin: " + Source.getError().message();
    return nullptr;
  }
  std::unique_ptr<StdinInput> In(new StdinInput());
  In->Display = AssumedName.empty() ? "<stdin>" : AssumedName;
  llvm::StringRef Ext = llvm::sys::path::extension(AssumedName);
  std::string Suffix = Ext == ".cuh" ? "cuh" : "cu";
  llvm::SmallString<256> Model(llvm::sys::path::parent_path(AssumedName));
  llvm::sys::path::append(Model, ".cuda-bank-lint-stdin-%%%%%%%%." + Suffix);
  int FD = -1;
  llvm::SmallString<256> Path;
  if (llvm::sys::fs::createUniqueFile(Model, FD, Path) &&
      llvm::sys::fs::createTemporaryFile("cuda-bank-lint-stdin", Suffix, FD, Path)) {
    Error = "cannot create a temporary file for stdin in '" +
            std::string(llvm::sys::path::parent_path(Model)) + "' or the temporary directory";
    return nullptr;
  }
  In->Path = std::string(Path);
  llvm::sys::RemoveFileOnSignal(In->Path);
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << (*Source)->getBuffer();
  OS.close();
  if (OS.has_error()) {
    Error = "cannot write '" + In->Path + "': " + OS.error().message();
    OS.clear_error();
    return nullptr;
  }
  return In;
}

StdinInput::~StdinInput() {
  if (Path.empty())
    return;
  llvm::sys::fs::remove(Path);
  llvm::sys::DontRemoveFileOnSignal(Path);
}

std::string StdinInput::mapBack(std::string Text) const {
  auto replaceAll = [&](const std::string &From, const std::string &To) {
    for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
      Text.replace(At, From.size(), To);
  };
  // The name is unique: replacing it wherever it appears (absolute, relative
  // to a SARIF root, escaped in no format) is safe.
  bool Assumed = Display != "<stdin>";
  replaceAll(absolutePath(Path), Assumed ? absolutePath(Display) : Display);
  replaceAll(Path, Display);
  replaceAll(llvm::sys::path::filename(Path).str(), llvm::sys::path::filename(Display).str());
  return Text;
}

} // namespace cbl
