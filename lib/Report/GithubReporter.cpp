//===- GithubReporter.cpp - GitHub Actions workflow-command annotations ----===//
//
// One `::warning file=F,line=L,col=C,title=check::message` (or ::error) per
// finding, notes appended to the message on their own lines. Escaping per
// GitHub's toolkit: in the message '%', CR and LF; in properties also ':'
// and ','. Paths are relative to the repository root, as the runner needs.
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

std::string position(const SourcePos &P, const std::string &Root) {
  std::string Rel = pathInRoot(P.File, Root);
  return (Rel.empty() ? P.File : Rel) + ":" + std::to_string(P.Line) + ":" +
         std::to_string(P.Column);
}

} // namespace

void printGithub(const RunReport &R, const std::string &Root, llvm::raw_ostream &OS) {
  for (const Finding &F : R.Findings) {
    std::string File = pathInRoot(F.Where.File, Root);
    if (File.empty())
      File = F.Where.File;
    std::string Message = F.Message;
    for (const FindingNote &N : F.Notes)
      Message += "\n" + (N.Where.valid() ? position(N.Where, Root) + ": " : std::string()) +
                 "note: " + N.Message;
    OS << "::" << command(F.Level) << " file=" << escapeProperty(File)
       << ",line=" << F.Where.Line << ",col=" << F.Where.Column
       << ",title=" << escapeProperty(F.Check) << "::" << escapeData(Message) << "\n";
  }
}

} // namespace cbl
