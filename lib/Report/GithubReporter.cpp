//===- GithubReporter.cpp - GitHub Actions workflow-command annotations ----===//
//
// One `::warning file=F,line=L,col=C,title=check::message` (or ::error) per
// finding, its key note and fix-it appended on their own lines (the text
// output's default); before them one
// `::error ...,title=not analysed::` per file that does not compile and per
// kernel Clang rejects (a device function: `::notice`). Escaping per GitHub's
// toolkit: in the message '%', CR and LF; in properties also ':' and ','.
// Paths, also those quoted in messages, are relative to the repository root.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/ADT/StringRef.h"

namespace cbl {

namespace {

std::string escapeData(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '%': Out += "%25"; break;
    case '\r': Out += "%0D"; break;
    case '\n': Out += "%0A"; break;
    default: Out += C;
    }
  }
  return Out;
}

std::string escapeProperty(llvm::StringRef S) {
  std::string Out;
  for (char C : escapeData(S)) {
    switch (C) {
    case ':': Out += "%3A"; break;
    case ',': Out += "%2C"; break;
    default: Out += C;
    }
  }
  return Out;
}

const char *command(Severity S) {
  switch (S) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  default: return "notice";
  }
}

/// One workflow command; a position without a line names the file only.
void annotate(llvm::raw_ostream &OS, Severity Level, const std::string &File,
              const SourcePos &Where, const std::string &Title, const std::string &Message) {
  OS << "::" << command(Level) << " file=" << escapeProperty(File);
  if (Where.valid()) {
    OS << ",line=" << Where.Line;
    if (Where.Column)
      OS << ",col=" << Where.Column;
  }
  OS << ",title=" << escapeProperty(Title) << "::" << escapeData(Message) << "\n";
}

} // namespace

void printGithub(const RunReport &R, const std::string &Root, llvm::raw_ostream &OS) {
  RootPaths Paths(R, Root);
  for (const UnitProblem &P : unitProblems(R, Paths))
    annotate(OS, P.Level, Paths.path(P.Where.valid() ? P.Where.File : P.File), P.Where,
             "not analysed", P.Message);
  FixesOnce Once;
  for (const Finding &F : R.Findings) {
    std::string Message = Paths.text(F.Message);
    for (const FindingNote &N : F.Notes) {
      if (N.Role == NoteRole::Detail || Once.statedBefore(N)) // the key note and the fix, as text prints them
        continue;
      const Finding *E = N.Fixes.empty() ? nullptr : Once.offeredBefore(N.Fixes, F);
      Message += "\n" + (N.Where.valid() ? Paths.position(N.Where) + ": " : std::string()) +
                 "note: " + Paths.text(E ? FixesOnce::sameAs(*E, N.Where) : N.Message);
    }
    annotate(OS, F.Level, Paths.path(F.Where.File), F.Where, F.Check, Message);
  }
}

} // namespace cbl
