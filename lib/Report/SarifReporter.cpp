//===- SarifReporter.cpp - SARIF 2.1.0 for GitHub code scanning ------------===//
//
// What GitHub's upload action reads (shared/notes/ecosystem.md): rules with
// descriptions and help, results with ruleId, level, message and a physical
// location relative to %SRCROOT%. No partialFingerprints: the upload action
// computes them, and a line-dependent hash would break alert tracking.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <map>

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

llvm::json::Object artifact(const std::string &File, const std::string &Root) {
  std::string Rel = pathInRoot(File, Root);
  if (!Rel.empty())
    return llvm::json::Object{{"uri", uriEncode(Rel)}, {"uriBaseId", "%SRCROOT%"}};
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  return llvm::json::Object{{"uri", "file://" + uriEncode(llvm::sys::path::convert_to_slash(Abs))}};
}

llvm::json::Object location(const SourcePos &P, const std::string &Root) {
  llvm::json::Object Region{{"startLine", P.Line}};
  if (P.Column)
    Region["startColumn"] = P.Column;
  return llvm::json::Object{
      {"physicalLocation",
       llvm::json::Object{{"artifactLocation", artifact(P.File, Root)}, {"region", std::move(Region)}}}};
}

} // namespace

std::string pathInRoot(const std::string &File, const std::string &Root) {
  llvm::SmallString<256> Abs(File), Base(Root);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::fs::make_absolute(Base);
  llvm::sys::path::remove_dots(Abs, true);
  llvm::sys::path::remove_dots(Base, true);
  llvm::StringRef A = Abs, B = Base;
  B = B.rtrim('/');
  if (!A.consume_front(B) || !A.consume_front("/"))
    return "";
  return llvm::sys::path::convert_to_slash(A);
}

void printSarif(const RunReport &R, const std::vector<RuleInfo> &Rules, const std::string &Root,
                llvm::raw_ostream &OS) {
  llvm::json::Array RuleArray;
  std::map<std::string, unsigned> RuleIndex;
  for (const RuleInfo &Rule : Rules) {
    RuleIndex[Rule.Id] = unsigned(RuleArray.size());
    RuleArray.push_back(llvm::json::Object{
        {"id", Rule.Id},
        {"shortDescription", llvm::json::Object{{"text", Rule.ShortDescription}}},
        {"fullDescription", llvm::json::Object{{"text", Rule.FullDescription}}},
        {"help", llvm::json::Object{{"text", Rule.Help}}},
        {"defaultConfiguration", llvm::json::Object{{"level", sarifLevel(Rule.DefaultLevel)}}}});
  }
  // A check may report under more names than it registers (e.g.
  // cuda-barrier-early-exit from cuda-barrier-divergence): describe those
  // with the registered check that shares the longest name prefix.
  for (const Finding &F : R.Findings) {
    if (RuleIndex.count(F.Check) || Rules.empty())
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
    RuleIndex[F.Check] = unsigned(RuleArray.size());
    RuleArray.push_back(llvm::json::Object{
        {"id", F.Check},
        {"shortDescription", llvm::json::Object{{"text", Best->ShortDescription}}},
        {"fullDescription", llvm::json::Object{{"text", Best->FullDescription}}},
        {"help", llvm::json::Object{{"text", Best->Help}}},
        {"defaultConfiguration", llvm::json::Object{{"level", sarifLevel(F.Level)}}}});
  }
  llvm::json::Array Results;
  for (const Finding &F : R.Findings) {
    llvm::json::Object Res{{"ruleId", F.Check},
                           {"level", sarifLevel(F.Level)},
                           {"message", llvm::json::Object{{"text", F.Message}}},
                           {"locations", llvm::json::Array{location(F.Where, Root)}}};
    auto It = RuleIndex.find(F.Check);
    if (It != RuleIndex.end())
      Res["ruleIndex"] = It->second;
    llvm::json::Array Related;
    for (const FindingNote &N : F.Notes) {
      if (!N.Where.valid())
        continue;
      llvm::json::Object L = location(N.Where, Root);
      L["id"] = int64_t(Related.size());
      L["message"] = llvm::json::Object{{"text", N.Message}};
      Related.push_back(std::move(L));
    }
    if (!Related.empty())
      Res["relatedLocations"] = std::move(Related);
    Results.push_back(std::move(Res));
  }
  llvm::SmallString<256> RootAbs(Root);
  llvm::sys::fs::make_absolute(RootAbs);
  std::string RootUri = "file://" + uriEncode(llvm::sys::path::convert_to_slash(RootAbs));
  if (!llvm::StringRef(RootUri).ends_with("/"))
    RootUri += "/";
  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver",
                                   llvm::json::Object{{"name", "cuda-bank-lint"},
                                                      {"version", R.ToolVersion},
                                                      {"semanticVersion", R.ToolVersion},
                                                      {"rules", std::move(RuleArray)}}}}},
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
