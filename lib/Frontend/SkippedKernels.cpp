//===- SkippedKernels.cpp - Kernels in code the preprocessor skipped --------===//
#include "SkippedKernels.h"
#include "SharedArrays.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

using namespace clang;

namespace cbl {

namespace {

bool identChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// Text with its comments, string and character literals and preprocessor
/// directives blanked (the same length, newlines kept).
std::string codeOnly(llvm::StringRef T) {
  std::string Out(T.size(), ' ');
  bool LineStart = true;
  size_t I = 0;
  auto ToLineEnd = [&](bool Continued) {
    while (I < T.size() && T[I] != '\n')
      I += Continued && T[I] == '\\' && I + 1 < T.size() && T[I + 1] == '\n' ? 2 : 1;
  };
  while (I < T.size()) {
    char C = T[I];
    if (C == '\n') {
      Out[I++] = '\n';
      LineStart = true;
    } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
    } else if (LineStart && C == '#') {
      ToLineEnd(true); // a directive, with its continuation lines
    } else if (T.substr(I).starts_with("//")) {
      ToLineEnd(false);
    } else if (T.substr(I).starts_with("/*")) {
      size_t End = T.find("*/", I + 2);
      I = End == llvm::StringRef::npos ? T.size() : End + 2;
      LineStart = false;
    } else if (C == '"' || (C == '\'' && (I == 0 || !identChar(T[I - 1])))) {
      // A literal on its line (a quote after a digit separates digits).
      for (++I; I < T.size() && T[I] != C && T[I] != '\n'; ++I)
        if (T[I] == '\\')
          ++I;
      ++I;
      LineStart = false;
    } else {
      Out[I++] = C;
      LineStart = false;
    }
  }
  return Out;
}

/// Skips the balanced Open ... Close that starts at I.
size_t skipBalanced(llvm::StringRef C, size_t I, char Open, char Close) {
  int Depth = 0;
  for (; I < C.size(); ++I) {
    if (C[I] == Open)
      ++Depth;
    else if (C[I] == Close && --Depth == 0)
      return I + 1;
    else if (C[I] == ';' || C[I] == '{')
      return I;
  }
  return I;
}

/// The name a `__global__` at I declares: the identifier before the first
/// parameter list that is not an attribute's; "" when none comes first.
std::string kernelNameAt(llvm::StringRef C, size_t I) {
  static const llvm::StringRef Attributes[] = {"__launch_bounds__", "__attribute__", "__declspec",
                                               "alignas", "__cluster_dims__", "__maxnreg__",
                                               "decltype"};
  std::string Last;
  const size_t Limit = std::min(C.size(), I + 2000);
  while (I < Limit) {
    char Ch = C[I];
    if (identChar(Ch)) {
      size_t Begin = I;
      while (I < C.size() && identChar(C[I]))
        ++I;
      Last = C.slice(Begin, I).str();
    } else if (Ch == '<' && !Last.empty()) {
      I = skipBalanced(C, I, '<', '>'); // a specialisation's arguments
    } else if (Ch == '(') {
      if (std::find(std::begin(Attributes), std::end(Attributes), Last) == std::end(Attributes))
        return Last.empty() || std::isdigit(static_cast<unsigned char>(Last[0])) ? "" : Last;
      I = skipBalanced(C, I, '(', ')');
      Last.clear();
    } else if (Ch == ';' || Ch == '{' || Ch == '}') {
      return "";
    } else {
      ++I;
    }
  }
  return "";
}

/// "'a', 'b' and 2 more" (Quote "'"), or without quotes.
std::string listed(const std::vector<std::string> &Names, size_t Shown, const char *Quote) {
  std::string Out;
  for (size_t I = 0; I < Names.size() && I < Shown; ++I)
    Out += (I ? ", " : "") + (Quote + Names[I]) + Quote;
  if (Names.size() > Shown)
    Out += fmt::format(" and {} more", Names.size() - Shown);
  return Out;
}

class Callbacks : public PPCallbacks {
public:
  explicit Callbacks(std::function<void(SourceRange)> OnSkip) : OnSkip(std::move(OnSkip)) {}
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override { OnSkip(Range); }

private:
  std::function<void(SourceRange)> OnSkip;
};

} // namespace

std::vector<std::string> kernelsInText(llvm::StringRef Text) {
  std::string Code = codeOnly(Text);
  llvm::StringRef C(Code);
  const llvm::StringRef Key = "__global__";
  std::vector<std::string> Out;
  for (size_t At = C.find(Key); At != llvm::StringRef::npos; At = C.find(Key, At + Key.size())) {
    size_t End = At + Key.size();
    if ((At > 0 && identChar(C[At - 1])) || (End < C.size() && identChar(C[End])))
      continue;
    Out.push_back(kernelNameAt(C, End));
  }
  return Out;
}

SkippedKernels::SkippedKernels(const SourceManager &SM, std::vector<std::string> ToolkitDirs)
    : SM(SM), ToolkitDirs(std::move(ToolkitDirs)) {
  for (std::string &D : this->ToolkitDirs)
    D = absolutePath(D);
}

std::unique_ptr<PPCallbacks> SkippedKernels::callbacks() {
  return std::make_unique<Callbacks>([this](SourceRange R) { skipped(R); });
}

bool SkippedKernels::userFile(FileID ID) const {
  if (SM.isInSystemHeader(SM.getLocForStartOfFile(ID)))
    return false;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(ID);
  if (!FE)
    return false;
  std::string Path = absolutePath(FE->getName());
  return std::none_of(ToolkitDirs.begin(), ToolkitDirs.end(), [&](const std::string &D) {
    return llvm::StringRef(Path).starts_with(D + "/");
  });
}

void SkippedKernels::skipped(SourceRange Range) {
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return;
  auto [ID, From] = SM.getDecomposedLoc(Range.getBegin());
  auto [EndID, To] = SM.getDecomposedLoc(Range.getEnd());
  if (ID != EndID || To <= From)
    return;
  auto [It, New] = Known.try_emplace(ID, false);
  if (New)
    It->second = userFile(ID);
  if (!It->second)
    return;
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(ID, &Invalid);
  if (Invalid)
    return;
  llvm::StringRef Text = Buffer.slice(From, std::min<size_t>(To, Buffer.size()));
  std::vector<std::string> Kernels = kernelsInText(Text);
  if (Kernels.empty())
    return;
  // The directive that starts the region, on one line.
  std::string Directive;
  for (char C : Text.take_until([](char C) { return C == '\n'; }).rtrim("\\ \t\r"))
    if (!(std::isspace(static_cast<unsigned char>(C)) && (Directive.empty() || Directive.back() == ' ')))
      Directive += std::isspace(static_cast<unsigned char>(C)) ? ' ' : C;
  if (Directive.size() > 60)
    Directive = Directive.substr(0, 57) + "...";
  auto [Regions, First] = Files.try_emplace(ID);
  if (First)
    Order.push_back(ID);
  Regions->second.push_back({Range.getBegin(), Directive, std::move(Kernels)});
}

std::vector<FrontEndNote> SkippedKernels::notes() const {
  std::vector<FrontEndNote> Out;
  for (FileID ID : Order) {
    const std::vector<Region> &Regions = Files.at(ID);
    std::vector<std::string> Names, Where;
    std::set<std::string> Seen;
    size_t Unnamed = 0;
    for (const Region &R : Regions) {
      for (const std::string &K : R.Kernels)
        if (K.empty())
          ++Unnamed;
        else if (Seen.insert(K).second)
          Names.push_back(K);
      Where.push_back(fmt::format("{} at line {}", R.Directive, SM.getSpellingLineNumber(R.Hash)));
    }
    size_t N = Names.size() + Unnamed;
    std::string Which = Names.empty() ? "" : " (" + listed(Names, 4, "'") + ")";
    Out.push_back({toSourcePos(SM, Regions.front().Hash),
                   fmt::format("{}{} {} in code the preprocessor skipped ({}); the tool analyses "
                               "what the compiler compiles",
                               N == 1 ? "kernel" : fmt::format("{} kernels", N),
                               N == 1 && Names.size() == 1 ? " '" + Names[0] + "'" : Which,
                               N == 1 ? "is" : "are", listed(Where, 3, ""))});
    Out.back().SkippedKernels = Names;
    Out.back().SkippedKernels.resize(N); // a kernel whose name was not found: ""
  }
  return Out;
}

} // namespace cbl
