//===- CiPaths.cpp - What the CI formats share: root paths, units' problems ===//
//
// SARIF and GitHub annotations show every path relative to the source root
// (the repository), including the paths that messages quote, and report the
// files and kernels that were not analysed beside the findings.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace cbl {

std::string pathInRoot(const std::string &File, const std::string &Root) {
  const std::string Abs = absolutePath(File), Base = absolutePath(Root);
  llvm::StringRef A = Abs, B = Base;
  B = B.rtrim('/');
  if (!A.consume_front(B) || !A.consume_front("/"))
    return "";
  return llvm::sys::path::convert_to_slash(A);
}

namespace {

/// Every file the report locates something in, as Clang spelled it.
std::vector<std::string> filesOf(const RunReport &R) {
  std::vector<std::string> Files;
  auto Add = [&](const std::string &F) {
    if (!F.empty())
      Files.push_back(F);
  };
  for (const Finding &F : R.Findings) {
    Add(F.Where.File);
    for (const FixIt &X : F.Fixes)
      Add(X.Range.Begin.File);
    for (const FindingNote &N : F.Notes) {
      Add(N.Where.File);
      for (const FixIt &X : N.Fixes)
        Add(X.Range.Begin.File);
    }
  }
  for (const UnitStatus &U : R.Units) {
    Add(U.File);
    Add(U.ErrorWhere.File);
    for (const SkippedFunction &S : U.Skipped) {
      Add(S.Where.File);
      Add(S.ErrorWhere.File);
    }
    for (const FrontEndNote &N : U.Notes)
      Add(N.Where.File);
  }
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

/// A path quoted in a message stands alone: after a space, quote or
/// parenthesis, before a ':' (line), quote, parenthesis, comma or space.
bool opensPath(char C) { return C == ' ' || C == '\'' || C == '"' || C == '(' || C == '`'; }
bool closesPath(char C) {
  return C == ':' || C == '\'' || C == '"' || C == ')' || C == ',' || C == ' ' || C == '`' ||
         C == ';';
}

} // namespace

RootPaths::RootPaths(const RunReport &R, const std::string &Root) : Root(Root) {
  for (const std::string &F : filesOf(R)) {
    std::string Rel = pathInRoot(F, Root);
    Relative[F] = Rel;
    if (std::string Shown = path(F); Shown != F)
      Renames.emplace_back(F, Shown);
  }
  // "../src/k.cu" before "k.cu": the longer spelling wins where both match.
  std::stable_sort(Renames.begin(), Renames.end(), [](const auto &A, const auto &B) {
    return A.first.size() > B.first.size();
  });
}

std::string RootPaths::relative(const std::string &File) const {
  auto It = Relative.find(File);
  return It != Relative.end() ? It->second : pathInRoot(File, Root);
}

std::string RootPaths::path(const std::string &File) const {
  std::string Rel = relative(File);
  if (!Rel.empty())
    return Rel;
  return withoutDots(File);
}

std::string RootPaths::position(const SourcePos &P) const {
  return path(P.File) + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

std::string RootPaths::text(llvm::StringRef Message) const {
  std::string Out;
  size_t I = 0;
  while (I < Message.size()) {
    const std::pair<std::string, std::string> *Hit = nullptr;
    if (I == 0 || opensPath(Message[I - 1]))
      for (const auto &Rename : Renames) {
        size_t End = I + Rename.first.size();
        if (Message.substr(I).starts_with(Rename.first) &&
            (End == Message.size() || closesPath(Message[End]))) {
          Hit = &Rename;
          break;
        }
      }
    if (Hit) {
      Out += Hit->second;
      I += Hit->first.size();
    } else {
      Out += Message[I++];
    }
  }
  return Out;
}

namespace {

UnitProblem failedUnit(const UnitStatus &U, const RootPaths &Paths) {
  std::string Why = Paths.text(U.Error);
  if (Why.empty() && !U.MissingHeader.empty())
    Why = "header '" + U.MissingHeader + "' not found";
  return {Severity::Error, U.File, U.ErrorWhere,
          "'" + Paths.path(U.File) + "' does not compile for the device side" +
              (Why.empty() ? "" : " (" + Why + ")") + "; nothing analysed"};
}

UnitProblem skippedFunction(const UnitStatus &U, const SkippedFunction &S,
                            const RootPaths &Paths) {
  return {S.What == SkippedFunction::Kind::Kernel ? Severity::Error : Severity::Note, U.File,
          S.Where,
          skippedMessage(S, [&](const std::string &T) { return Paths.text(T); },
                         [&](const SourcePos &P) { return Paths.position(P); })};
}

} // namespace

std::string skippedMessage(const SkippedFunction &S,
                           llvm::function_ref<std::string(const std::string &)> Text,
                           llvm::function_ref<std::string(const SourcePos &)> Position) {
  std::string Message = std::string(S.What == SkippedFunction::Kind::Kernel ? "kernel '"
                                                                            : "device function '") +
                        S.Name + "' not analysed: ";
  if (S.Why == SkippedFunction::Cause::ClangError)
    Message += "Clang rejects " + (S.Via.empty() ? "its code" : "'" + S.Via + "', which it calls") + ": ";
  Message += Text(S.Error);
  // Where the cause is, unless the message is already there.
  if (S.ErrorWhere.valid() && (S.ErrorWhere.File != S.Where.File || S.ErrorWhere.Offset != S.Where.Offset))
    Message += " (" + Position(S.ErrorWhere) + ")";
  return Message;
}

std::vector<UnitProblem> unitProblems(const RunReport &R, const RootPaths &Paths) {
  std::vector<UnitProblem> Problems;
  for (const UnitStatus &U : R.Units) {
    if (U.Status == UnitStatus::State::Failed) {
      Problems.push_back(failedUnit(U, Paths));
      continue;
    }
    // Host code Clang rejects does not stop the device analysis.
    for (const SkippedFunction &S : U.Skipped)
      if (S.What != SkippedFunction::Kind::Host)
        Problems.push_back(skippedFunction(U, S, Paths));
  }
  return Problems;
}

} // namespace cbl
