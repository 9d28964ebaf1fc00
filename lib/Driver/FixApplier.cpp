//===- FixApplier.cpp - Rewriting sources with the findings' fix-its -------===//
#include "cuda-bank-lint/Driver/FixApplier.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "clang/Tooling/Core/Replacement.h"
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

namespace tooling = clang::tooling;

std::string at(const SourcePos &P) {
  return P.File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

/// The fix-its for one file: tooling::Replacements refuses one that
/// conflicts with those already taken (overlapping, or an insertion at the
/// same place); an identical one is taken once.
struct FileFixes {
  std::string File;
  size_t Size = 0; ///< of the file now
  tooling::Replacements Replacements;
  std::vector<std::pair<const FixIt *, const Finding *>> Taken;
  std::set<std::tuple<unsigned, unsigned, std::string>> Seen;

  /// Empty, or why the fix-it is not applied.
  std::string take(const FixIt &X, const Finding &F) {
    if (!Seen.insert({X.Range.Begin.Offset, X.Range.Length, X.Text}).second)
      return "";
    if (size_t(X.Range.Begin.Offset) + X.Range.Length > Size)
      return at(X.Range.Begin) + ": note: fix-it '" + X.Text + "' [" + F.Check +
             "] not applied: it lies past the end of the file, which changed since it was read\n";
    tooling::Replacement R(File, X.Range.Begin.Offset, X.Range.Length, X.Text);
    if (llvm::Error E = Replacements.add(R)) {
      llvm::consumeError(std::move(E));
      return at(X.Range.Begin) + ": note: fix-it '" + X.Text + "' [" + F.Check +
             "] not applied: it conflicts with " + conflicting(X) + "\n";
    }
    Taken.push_back({&X, &F});
    return "";
  }

  std::string conflicting(const FixIt &X) const {
    unsigned B = X.Range.Begin.Offset, E = B + X.Range.Length;
    for (const auto &[Y, F] : Taken) {
      unsigned YB = Y->Range.Begin.Offset, YE = YB + Y->Range.Length;
      if (B == YB || (B < YE && YB < E))
        return "the fix-it '" + Y->Text + "' [" + F->Check + "] at " + at(Y->Range.Begin);
    }
    return "another fix-it";
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

/// The new text of one file with its fix-its, or false with the reason.
bool rewrite(const std::string &File,
             const std::vector<std::pair<const FixIt *, const Finding *>> &Fixes,
             std::string &NewText, FixOutcome &Out) {
  if (std::string Why = checkWritable(File); !Why.empty()) {
    Out.Messages += "error: " + Why + "; no file was changed\n";
    return false;
  }
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf) {
    Out.Messages += "error: cannot read '" + File + "': " + Buf.getError().message() +
                    "; no file was changed\n";
    return false;
  }
  FileFixes Taken{File, (*Buf)->getBufferSize()};
  for (const auto &[X, F] : Fixes)
    Out.Messages += Taken.take(*X, *F);
  llvm::Expected<std::string> Text =
      tooling::applyAllReplacements((*Buf)->getBuffer(), Taken.Replacements);
  if (!Text) {
    Out.Messages += "error: cannot apply the fix-its to '" + File +
                    "': " + llvm::toString(Text.takeError()) + "; no file was changed\n";
    return false;
  }
  NewText = std::move(*Text);
  Out.Applied += Taken.Taken.size();
  return true;
}

/// Writes Text to a temporary file beside File, with File's mode, and
/// renames it over File; empty, or what went wrong.
std::string replaceFile(const std::string &File, const std::string &Text) {
  llvm::SmallString<256> Model(File), Temp;
  Model += ".cbl-fix-%%%%%%";
  int FD = -1;
  llvm::sys::fs::file_status St;
  llvm::sys::fs::status(File, St);
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return "cannot write a temporary file next to '" + File + "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  llvm::sys::fs::setPermissions(Temp, St.permissions());
  if (std::error_code EC = llvm::sys::fs::rename(Temp, File)) {
    llvm::sys::fs::remove(Temp);
    return "cannot replace '" + File + "': " + EC.message();
  }
  return "";
}

} // namespace

FixOutcome applyFixes(const RunReport &R) {
  FixOutcome Out;
  std::map<std::string, std::vector<std::pair<const FixIt *, const Finding *>>> ByFile;
  for (const Finding &F : R.Findings)
    for (const FixIt &X : F.Fixes)
      ByFile[absolutePath(X.Range.Begin.File)].push_back({&X, &F});
  // Check everything before writing anything.
  std::map<std::string, std::string> NewText;
  for (const auto &[File, Fixes] : ByFile)
    if (!rewrite(File, Fixes, NewText[File], Out)) {
      Out.Failed = true;
      return Out;
    }
  for (const auto &[File, Text] : NewText) {
    if (std::string Why = replaceFile(File, Text); !Why.empty()) {
      Out.Messages += "error: " + Why + "\n";
      Out.Failed = true;
      return Out;
    }
    ++Out.Files;
  }
  return Out;
}

} // namespace cbl
