//===- FixApplier.cpp - Rewriting sources with the findings' fix-its -------===//
#include "cuda-bank-lint/Driver/FixApplier.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <tuple>

namespace cbl {

namespace {

struct Edit {
  unsigned Offset, Length;
  std::string Text;
  bool operator<(const Edit &O) const {
    return std::tie(Offset, Length, Text) < std::tie(O.Offset, O.Length, O.Text);
  }
};

/// A file with no write bit set is read-only for us, even as root.
std::string checkWritable(const std::string &File) {
  llvm::sys::fs::file_status St;
  if (std::error_code EC = llvm::sys::fs::status(File, St))
    return "cannot apply fix-its to '" + File + "': " + EC.message();
  if (!(St.permissions() & (llvm::sys::fs::owner_write | llvm::sys::fs::group_write |
                            llvm::sys::fs::others_write)))
    return "cannot apply fix-its to '" + File + "': the file is read-only";
  if (llvm::sys::fs::access(File, llvm::sys::fs::AccessMode::Write))
    return "cannot apply fix-its to '" + File + "': permission denied";
  return "";
}

} // namespace

FixOutcome applyFixes(const RunReport &R) {
  FixOutcome Out;
  std::map<std::string, std::set<Edit>> ByFile;
  for (const Finding &F : R.Findings)
    for (const FixIt &X : F.Fixes)
      ByFile[X.Range.Begin.File].insert({X.Range.Begin.Offset, X.Range.Length, X.Text});
  // Check everything before writing anything.
  std::map<std::string, std::string> NewText;
  for (auto &[File, Edits] : ByFile) {
    if (std::string Why = checkWritable(File); !Why.empty()) {
      Out.Messages += "error: " + Why + "; no file was changed\n";
      Out.Failed = true;
      return Out;
    }
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Out.Messages += "error: cannot read '" + File + "': " + Buf.getError().message() +
                      "; no file was changed\n";
      Out.Failed = true;
      return Out;
    }
    llvm::StringRef Old = (*Buf)->getBuffer();
    std::string Text;
    unsigned Pos = 0;
    for (const Edit &E : Edits) {
      if (E.Offset < Pos || E.Offset + E.Length > Old.size()) {
        Out.Messages += File + ": note: skipped a fix-it at offset " + std::to_string(E.Offset) +
                        " that overlaps another\n";
        continue;
      }
      Text += Old.slice(Pos, E.Offset).str() + E.Text;
      Pos = E.Offset + E.Length;
      ++Out.Applied;
    }
    Text += Old.drop_front(Pos).str();
    NewText[File] = std::move(Text);
  }
  for (auto &[File, Text] : NewText) {
    llvm::SmallString<256> Model(File);
    Model += ".cbl-fix-%%%%%%";
    llvm::SmallString<256> Temp;
    int FD = -1;
    llvm::sys::fs::file_status St;
    llvm::sys::fs::status(File, St);
    if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp)) {
      Out.Messages += "error: cannot write a temporary file next to '" + File + "': " +
                      EC.message() + "\n";
      Out.Failed = true;
      return Out;
    }
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << Text;
    }
    llvm::sys::fs::setPermissions(Temp, St.permissions());
    if (std::error_code EC = llvm::sys::fs::rename(Temp, File)) {
      llvm::sys::fs::remove(Temp);
      Out.Messages += "error: cannot replace '" + File + "': " + EC.message() + "\n";
      Out.Failed = true;
      return Out;
    }
    ++Out.Files;
  }
  return Out;
}

} // namespace cbl
