//===- SarifReporter.cpp - SARIF 2.1.0 for GitHub code scanning ------------===//
//
// What GitHub's upload action reads (shared/notes/ecosystem.md): rules with
// descriptions, help and a helpUri, results with ruleId, level, message and a
// physical location relative to %SRCROOT%. No partialFingerprints: the upload
// action computes them, and a line-dependent hash would break alert tracking.
// Fix-its become results' fixes; files and kernels not analysed become the
// invocation's toolExecutionNotifications (and executionSuccessful false).
// Columns are UTF-16 code units (columnKind), counted in the source text.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

namespace cbl {

namespace {

const char *sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note:
  case Severity::Remark: return "note";
  }
  return "warning";
}

/// RFC 3986: keep unreserved characters and '/', percent-encode the rest.
std::string uriEncode(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/')
      Out += char(C);
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

std::string fileUri(llvm::StringRef Path) {
  return "file://" + uriEncode(llvm::sys::path::convert_to_slash(absolutePath(Path)));
}

/// The files' text, read once, to turn Clang's byte positions into SARIF
/// regions: 1-based lines, columns in UTF-16 code units (the run's
/// columnKind; the same as bytes on ASCII lines).
class SourceText {
public:
  /// The region of a position: byte column converted where the file is read.
  llvm::json::Object region(const SourcePos &P) {
    llvm::json::Object Region{{"startLine", P.Line}};
    if (!P.Column)
      return Region;
    unsigned Column = P.Column;
    if (const Text *T = text(P.File); T && P.Line <= T->Starts.size()) {
      size_t Start = T->Starts[P.Line - 1];
      size_t End = P.Line < T->Starts.size() ? T->Starts[P.Line] : T->Buffer->getBufferSize();
      if (Start + P.Column - 1 <= End)
        Column = column(*T, Start, Start + P.Column - 1);
    }
    Region["startColumn"] = Column;
    return Region;
  }

  /// The region a fix-it replaces, from its byte offsets; by offset where
  /// the file cannot be read.
  llvm::json::Object region(const SourceSpan &S) {
    size_t Begin = S.Begin.Offset, End = Begin + S.Length;
    const Text *T = text(S.Begin.File);
    if (!T || End > T->Buffer->getBufferSize())
      return llvm::json::Object{{"byteOffset", Begin}, {"byteLength", S.Length}};
    auto [BeginLine, BeginColumn] = lineColumn(*T, Begin);
    auto [EndLine, EndColumn] = lineColumn(*T, End);
    return llvm::json::Object{{"startLine", BeginLine},
                              {"startColumn", BeginColumn},
                              {"endLine", EndLine},
                              {"endColumn", EndColumn}};
  }

private:
  struct Text {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<size_t> Starts; ///< byte offset of each line
  };
  std::map<std::string, std::optional<Text>> Files;

  const Text *text(const std::string &File) {
    auto [It, New] = Files.try_emplace(File);
    if (New) {
      auto Buf = llvm::MemoryBuffer::getFile(File);
      if (Buf) {
        Text T{std::move(*Buf), {0}};
        llvm::StringRef S = T.Buffer->getBuffer();
        for (size_t I = 0; I < S.size(); ++I)
          if (S[I] == '\n')
            T.Starts.push_back(I + 1);
        It->second = std::move(T);
      }
    }
    return It->second ? &*It->second : nullptr;
  }

  /// 1-based UTF-16 column of a byte offset: the code units before it on
  /// its line (a 4-byte UTF-8 sequence is two units), plus one.
  static unsigned column(const Text &T, size_t LineStart, size_t Offset) {
    unsigned Units = 1;
    for (unsigned char C : T.Buffer->getBuffer().slice(LineStart, Offset))
      Units += ((C & 0xC0) != 0x80) + (C >= 0xF0);
    return Units;
  }

  static std::pair<unsigned, unsigned> lineColumn(const Text &T, size_t Offset) {
    unsigned Line = std::upper_bound(T.Starts.begin(), T.Starts.end(), Offset) - T.Starts.begin();
    return {Line, column(T, T.Starts[Line - 1], Offset)};
  }
};

bool sameFixes(const std::vector<FixIt> &A, const std::vector<FixIt> &B) {
  return std::equal(A.begin(), A.end(), B.begin(), B.end(), [](const FixIt &X, const FixIt &Y) {
    return X.Range.Begin.File == Y.Range.Begin.File &&
           X.Range.Begin.Offset == Y.Range.Begin.Offset && X.Range.Length == Y.Range.Length &&
           X.Text == Y.Text;
  });
}

llvm::json::Object ruleObject(const RuleInfo &Rule, const std::string &Id, Severity Level) {
  llvm::json::Object O{
      {"id", Id},
      {"shortDescription", llvm::json::Object{{"text", Rule.ShortDescription}}},
      {"fullDescription", llvm::json::Object{{"text", Rule.FullDescription}}},
      {"help", llvm::json::Object{{"text", Rule.Help}}},
      {"defaultConfiguration", llvm::json::Object{{"level", sarifLevel(Level)}}}};
  if (!Rule.HelpUri.empty())
    O["helpUri"] = Rule.HelpUri;
  return O;
}

/// The registered checks, then the names a check reports under without
/// registering them (e.g. cuda-barrier-early-exit from cuda-barrier-
/// divergence), described by the registered check sharing the longest prefix.
llvm::json::Array ruleArray(const std::vector<RuleInfo> &Rules, const RunReport &R,
                            std::map<std::string, unsigned> &Index) {
  llvm::json::Array Array;
  for (const RuleInfo &Rule : Rules) {
    Index[Rule.Id] = unsigned(Array.size());
    Array.push_back(ruleObject(Rule, Rule.Id, Rule.DefaultLevel));
  }
  for (const Finding &F : R.Findings) {
    if (Index.count(F.Check) || Rules.empty())
      continue;
    const RuleInfo *Best = &Rules.front();
    size_t BestLen = 0;
    for (const RuleInfo &Rule : Rules) {
      size_t N = 0;
      while (N < Rule.Id.size() && N < F.Check.size() && Rule.Id[N] == F.Check[N])
        ++N;
      if (N > BestLen)
        Best = &Rule, BestLen = N;
    }
    Index[F.Check] = unsigned(Array.size());
    Array.push_back(ruleObject(*Best, F.Check, F.Level));
  }
  return Array;
}

class SarifWriter {
public:
  SarifWriter(const RunReport &R, const std::string &Root) : Paths(R, Root) {}

  llvm::json::Object result(const Finding &F, const std::map<std::string, unsigned> &RuleIndex);
  llvm::json::Object invocation(const RunReport &R);

private:
  RootPaths Paths;
  SourceText Src;

  llvm::json::Object artifact(const std::string &File) {
    std::string Rel = Paths.relative(File);
    if (!Rel.empty())
      return llvm::json::Object{{"uri", uriEncode(Rel)}, {"uriBaseId", "%SRCROOT%"}};
    return llvm::json::Object{{"uri", fileUri(File)}};
  }

  llvm::json::Object location(const SourcePos &P) {
    llvm::json::Object Physical{{"artifactLocation", artifact(P.File)}};
    if (P.valid())
      Physical["region"] = Src.region(P);
    return llvm::json::Object{{"physicalLocation", std::move(Physical)}};
  }

  llvm::json::Object fix(const std::vector<FixIt> &Fixes, const std::string &Description);
  llvm::json::Array fixes(const Finding &F);
  FixesOnce Once; ///< a replacement several results offer goes with the first
};

/// One fix: its replacements grouped by file, in the order given.
llvm::json::Object SarifWriter::fix(const std::vector<FixIt> &Fixes,
                                    const std::string &Description) {
  std::vector<std::string> Files;
  std::map<std::string, llvm::json::Array> Replacements;
  for (const FixIt &X : Fixes) {
    if (!Replacements.count(X.Range.Begin.File))
      Files.push_back(X.Range.Begin.File);
    Replacements[X.Range.Begin.File].push_back(
        llvm::json::Object{{"deletedRegion", Src.region(X.Range)},
                           {"insertedContent", llvm::json::Object{{"text", X.Text}}}});
  }
  llvm::json::Array Changes;
  for (const std::string &File : Files)
    Changes.push_back(llvm::json::Object{{"artifactLocation", artifact(File)},
                                         {"replacements", std::move(Replacements[File])}});
  llvm::json::Object Fix{{"artifactChanges", std::move(Changes)}};
  if (!Description.empty())
    Fix["description"] = llvm::json::Object{{"text", Paths.text(Description)}};
  return Fix;
}

/// The finding's own fix-its first (described by the note that offers the
/// same ones), then each note's other fix-its as alternatives; without the
/// replacements an earlier result offers.
llvm::json::Array SarifWriter::fixes(const Finding &F) {
  std::vector<std::vector<FixIt>> Done;
  llvm::json::Array Out;
  auto Offered = [&](const std::vector<FixIt> &X) {
    return std::any_of(Done.begin(), Done.end(),
                       [&](const std::vector<FixIt> &D) { return sameFixes(D, X); });
  };
  if (std::vector<FixIt> Own = Once.fresh(F.Fixes, F); !Own.empty()) {
    auto Note = std::find_if(F.Notes.begin(), F.Notes.end(),
                             [&](const FindingNote &N) { return sameFixes(N.Fixes, F.Fixes); });
    Out.push_back(fix(Own, Note != F.Notes.end() ? Note->Message : ""));
    Done.push_back(F.Fixes);
  }
  for (const FindingNote &N : F.Notes)
    if (std::vector<FixIt> Own = Once.fresh(N.Fixes, F); !Own.empty() && !Offered(N.Fixes)) {
      Out.push_back(fix(Own, N.Message));
      Done.push_back(N.Fixes);
    }
  return Out;
}

llvm::json::Object SarifWriter::result(const Finding &F,
                                       const std::map<std::string, unsigned> &RuleIndex) {
  llvm::json::Object Res{{"ruleId", F.Check},
                         {"level", sarifLevel(F.Level)},
                         {"message", llvm::json::Object{{"text", Paths.text(F.Message)}}},
                         {"locations", llvm::json::Array{location(F.Where)}}};
  auto It = RuleIndex.find(F.Check);
  if (It != RuleIndex.end())
    Res["ruleIndex"] = It->second;
  llvm::json::Array Related;
  for (const FindingNote &N : F.Notes) {
    if (!N.Where.valid())
      continue;
    llvm::json::Object L = location(N.Where);
    L["id"] = int64_t(Related.size());
    L["message"] = llvm::json::Object{{"text", Paths.text(N.Message)}};
    Related.push_back(std::move(L));
  }
  if (!Related.empty())
    Res["relatedLocations"] = std::move(Related);
  llvm::json::Array Fixes = fixes(F);
  if (!Fixes.empty())
    Res["fixes"] = std::move(Fixes);
  return Res;
}

/// Files that did not compile and kernels not analysed: the run did not
/// do what it was asked (exit code 2), and says where.
llvm::json::Object SarifWriter::invocation(const RunReport &R) {
  llvm::json::Array Notifications;
  bool Successful = true;
  for (const UnitProblem &P : unitProblems(R, Paths)) {
    Successful &= P.Level != Severity::Error;
    SourcePos Where = P.Where;
    if (Where.File.empty())
      Where.File = P.File;
    Notifications.push_back(llvm::json::Object{{"level", sarifLevel(P.Level)},
                                               {"message", llvm::json::Object{{"text", P.Message}}},
                                               {"locations", llvm::json::Array{location(Where)}}});
  }
  return llvm::json::Object{{"executionSuccessful", Successful},
                            {"toolExecutionNotifications", std::move(Notifications)}};
}

} // namespace

void printSarif(const RunReport &R, const std::vector<RuleInfo> &Rules, const std::string &Root,
                llvm::raw_ostream &OS) {
  std::map<std::string, unsigned> RuleIndex;
  llvm::json::Array RuleArray = ruleArray(Rules, R, RuleIndex);
  SarifWriter W(R, Root);
  llvm::json::Array Results;
  Results.reserve(R.Findings.size()); // a growing json::Array copies what it holds
  for (const Finding &F : R.Findings)
    Results.push_back(W.result(F, RuleIndex));
  std::string RootUri = fileUri(Root);
  if (!llvm::StringRef(RootUri).ends_with("/"))
    RootUri += "/";
  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver",
                                   llvm::json::Object{{"name", "cuda-bank-lint"},
                                                      {"version", R.ToolVersion},
                                                      {"semanticVersion", R.ToolVersion},
                                                      {"rules", std::move(RuleArray)}}}}},
      {"invocations", llvm::json::Array{W.invocation(R)}},
      {"originalUriBaseIds",
       llvm::json::Object{{"%SRCROOT%", llvm::json::Object{{"uri", RootUri}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"results", std::move(Results)}};
  llvm::json::Object Doc{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                         {"version", "2.1.0"},
                         {"runs", llvm::json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
}

} // namespace cbl
