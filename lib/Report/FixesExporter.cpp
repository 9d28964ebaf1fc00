//===- FixesExporter.cpp - Fix-its as clang-apply-replacements YAML --------===//
//
// The format clang-tidy's --export-fixes writes (clang/Tooling/
// DiagnosticsYaml.h): MainSourceFile, then Diagnostics with DiagnosticName,
// DiagnosticMessage {Message, FilePath, FileOffset, Replacements}, Level and
// BuildDirectory. Written by hand so the report layer needs no Clang; strings
// are double-quoted YAML so that newlines and quotes survive.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cbl {

namespace {

std::string yamlString(llvm::StringRef S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"': Out += "\\\""; break;
    case '\\': Out += "\\\\"; break;
    case '\n': Out += "\\n"; break;
    case '\r': Out += "\\r"; break;
    case '\t': Out += "\\t"; break;
    default:
      if (C < 0x20)
        Out += "\\x" + llvm::utohexstr(C, false, 2);
      else
        Out += char(C);
    }
  }
  return Out + "\"";
}

std::string absolute(const std::string &File) {
  llvm::SmallString<256> P(File);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, true);
  return std::string(P);
}

} // namespace

void exportFixes(const RunReport &R, const std::string &MainSourceFile,
                 const std::string &BuildDirectory, llvm::raw_ostream &OS) {
  OS << "---\n";
  OS << "MainSourceFile:  " << yamlString(MainSourceFile.empty() ? "" : absolute(MainSourceFile))
     << "\n";
  OS << "Diagnostics:";
  bool Any = false;
  for (const Finding &F : R.Findings) {
    if (F.Fixes.empty())
      continue;
    Any = true;
    OS << "\n  - DiagnosticName:  " << yamlString(F.Check) << "\n";
    OS << "    DiagnosticMessage:\n";
    OS << "      Message:         " << yamlString(F.Message) << "\n";
    OS << "      FilePath:        " << yamlString(absolute(F.Where.File)) << "\n";
    OS << "      FileOffset:      " << F.Where.Offset << "\n";
    OS << "      Replacements:";
    for (const FixIt &X : F.Fixes) {
      OS << "\n        - FilePath:        " << yamlString(absolute(X.Range.Begin.File)) << "\n";
      OS << "          Offset:          " << X.Range.Begin.Offset << "\n";
      OS << "          Length:          " << X.Range.Length << "\n";
      OS << "          ReplacementText: " << yamlString(X.Text);
    }
    OS << "\n    Level:           " << (F.Level == Severity::Error ? "Error" : "Warning") << "\n";
    OS << "    BuildDirectory:  " << yamlString(BuildDirectory);
  }
  if (!Any)
    OS << " []";
  OS << "\n...\n";
}

} // namespace cbl
