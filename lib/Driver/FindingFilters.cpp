//===- FindingFilters.cpp - --line-filter, --exclude-header-filter, names ---===//
#include "cuda-bank-lint/Driver/FindingFilters.h"
#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

#include <set>

namespace cbl {

namespace {

struct RawEntry {
  std::string Name;
  std::vector<std::vector<int64_t>> Lines;
};

bool fromJSON(const llvm::json::Value &V, RawEntry &E, llvm::json::Path P) {
  llvm::json::ObjectMapper O(V, P);
  return O && O.map("name", E.Name) && O.mapOptional("lines", E.Lines);
}

} // namespace

std::optional<LineFilter> LineFilter::parse(const std::string &Text, std::string &Error) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    // json::ParseError reads "[line:col, byte=N]: message".
    std::string Msg = llvm::toString(V.takeError());
    llvm::SmallVector<llvm::StringRef, 4> M;
    if (llvm::Regex("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$").match(Msg, &M))
      Msg = (M[1] + ":" + M[2] + ": " + M[3]).str();
    Error = Msg;
    return std::nullopt;
  }
  std::vector<RawEntry> Raw;
  llvm::json::Path::Root Root("");
  if (!fromJSON(*V, Raw, Root)) {
    Error = llvm::toString(Root.getError());
    return std::nullopt;
  }
  LineFilter F;
  for (size_t I = 0; I < Raw.size(); ++I) {
    File Out{Raw[I].Name, {}};
    for (const std::vector<int64_t> &R : Raw[I].Lines) {
      if (R.size() != 2 || R[0] < 1 || R[1] < R[0]) {
        Error = "expected [first, last] line numbers (1 <= first <= last) at [" +
                std::to_string(I) + "].lines";
        return std::nullopt;
      }
      Out.Lines.push_back({unsigned(R[0]), unsigned(R[1])});
    }
    F.Files.push_back(std::move(Out));
  }
  return F;
}

bool LineFilter::passes(const std::string &File, unsigned Line) const {
  if (Files.empty())
    return true;
  for (const LineFilter::File &F : Files) {
    if (!llvm::StringRef(File).ends_with(F.Name))
      continue;
    return F.Lines.empty() || llvm::any_of(F.Lines, [&](const auto &R) {
             return R.first <= Line && Line <= R.second;
           });
  }
  return false;
}

size_t applyFindingFilters(RunReport &R, const FindingFilters &F) {
  std::set<std::string> Main;
  for (const std::string &M : F.MainFiles)
    Main.insert(absolutePath(M));
  llvm::Regex Exclude(F.ExcludeHeaders);
  auto hidden = [&](const Finding &X) {
    if (!checkEnabled(X.Check, F.CheckGlobs))
      return true;
    std::string Shown = F.DisplayName ? F.DisplayName(X.Where.File) : X.Where.File;
    if (F.Lines && !F.Lines->passes(Shown, X.Where.Line))
      return true;
    return !F.ExcludeHeaders.empty() && !Main.count(absolutePath(X.Where.File)) &&
           Exclude.match(X.Where.File);
  };
  size_t Before = R.Findings.size();
  llvm::erase_if(R.Findings, hidden);
  return Before - R.Findings.size();
}

std::string globsToRun(const std::string &Globs) {
  std::string Run = Globs;
  for (const CheckInfo &C : registeredChecks())
    if (!checkEnabled(C.Name, Globs) &&
        llvm::any_of(C.FindingNames, [&](const std::string &N) { return checkEnabled(N, Globs); }))
      Run += "," + C.Name;
  return Run;
}

} // namespace cbl
