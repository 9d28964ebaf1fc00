//===- FindingText.cpp - Wording shared by the checks' findings ------------===//
#include "FindingText.h"

#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace cbl {

namespace {

/// Whether S is one parenthesised expression: '(' and its match last.
bool wrapped(llvm::StringRef S) {
  if (S.size() < 2 || S.front() != '(' || S.back() != ')')
    return false;
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
    if (Depth == 0)
      return I + 1 == S.size();
  }
  return false;
}

/// E (an expression, a condition or !(condition)) as written; unchanged
/// when nothing is known of it and Strip is off (JSON's lists keep
/// '(n / 2)', the name of an opaque value).
std::string spelled(llvm::StringRef E, const FunctionModel &Fn, bool Strip) {
  bool Not = E.starts_with("!(") && wrapped(E.drop_front());
  llvm::StringRef Inner = Not ? E.drop_front() : E;
  while (wrapped(Inner))
    Inner = Inner.drop_front().drop_back();
  auto It = Fn.ConditionSpellings.find(Inner.str());
  if (It != Fn.ConditionSpellings.end() && !It->second.empty())
    return Not ? "!(" + It->second + ")" : It->second;
  return Strip && !Not ? Inner.str() : E.str();
}

} // namespace

std::string asWritten(const std::string &Text, const FunctionModel &Fn) {
  // Each quoted stretch; a quote that is an apostrophe pairs with nothing
  // rewritable, and the search goes on from the next character.
  std::string Out;
  size_t Done = 0;
  for (size_t Q = Text.find('\''); Q != std::string::npos; Q = Text.find('\'', Q + 1)) {
    size_t End = Text.find('\'', Q + 1);
    if (End == std::string::npos)
      break;
    llvm::StringRef Quoted = llvm::StringRef(Text).slice(Q + 1, End);
    std::string New = spelled(Quoted, Fn, /*Strip=*/true);
    if (New == Quoted)
      continue;
    Out += Text.substr(Done, Q + 1 - Done) + New + "'";
    Done = End + 1;
    Q = End;
  }
  return Out + Text.substr(Done);
}

void asWritten(Finding &F, const FunctionModel &Fn) {
  F.Message = asWritten(F.Message, Fn);
  for (FindingNote &N : F.Notes)
    N.Message = asWritten(N.Message, Fn);
}

void asWritten(AccessRecord &R, const FunctionModel &Fn) {
  R.Reason = asWritten(R.Reason, Fn);
  R.Boundary = asWritten(R.Boundary, Fn);
  for (std::vector<std::string> *List : {&R.Parameters, &R.AssumedUniform, &R.BoundBy, &R.BoundaryBy})
    for (std::string &E : *List)
      E = spelled(E, Fn, /*Strip=*/false);
}

std::string listNumbers(const std::vector<unsigned> &Ns) {
  std::vector<std::pair<unsigned, unsigned>> Runs;
  for (unsigned N : Ns)
    if (!Runs.empty() && Runs.back().second + 1 == N)
      Runs.back().second = N;
    else
      Runs.push_back({N, N});
  std::string S;
  if (Runs.size() <= 4) {
    for (size_t I = 0; I < Runs.size(); ++I)
      S += (I ? ", " : "") + (Runs[I].first == Runs[I].second
                                  ? std::to_string(Runs[I].first)
                                  : fmt::format("{}-{}", Runs[I].first, Runs[I].second));
    return S;
  }
  for (size_t I = 0; I < Ns.size() && I < 6; ++I)
    S += (I ? ", " : "") + std::to_string(Ns[I]);
  return S + fmt::format(", ... ({} in all)", Ns.size());
}

std::string lanesText(uint32_t Mask) {
  std::vector<unsigned> Ls;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (Mask >> L & 1)
      Ls.push_back(L);
  return (Ls.size() == 1 ? "lane " : "lanes ") + listNumbers(Ls);
}


std::string inferredShape(const BlockShape &S) {
  switch (S.From) {
  case BlockShape::Source::CommandLine:
  case BlockShape::Source::Config:
  case BlockShape::Source::Annotation:
    return "";
  case BlockShape::Source::Launch:
  case BlockShape::Source::LaunchBounds:
    return describeBlockShape(S);
  case BlockShape::Source::Assumed:
    break;
  }
  if (S.known())
    return describeBlockShape(S);
  return "block shape not known: a 1-D block of " + std::string(S.MaxThreads < 32 ? "up to " : "32 to ") +
         std::to_string(S.MaxThreads) + " threads assumed" +
         (S.MaxThreads < 1024 ? " (__launch_bounds__'s maximum)" : "") + "; --block-dim pins it";
}

void addToKeyNote(Finding &F, const std::string &What) {
  if (What.empty())
    return;
  auto Key = std::find_if(F.Notes.begin(), F.Notes.end(),
                          [](const FindingNote &N) { return N.Role == NoteRole::Key; });
  (Key == F.Notes.end() ? F.Message : Key->Message) += " (" + What + ")";
}

std::string shortFunctionName(const std::string &Name) {
  constexpr size_t Longest = 80, TopArguments = 4;
  if (Name.size() <= Longest)
    return Name;
  // Argument lists below the first level become <...>.
  std::string S;
  unsigned Depth = 0;
  for (char C : Name) {
    if (C == '<') {
      ++Depth;
      S += Depth == 1 ? "<" : Depth == 2 ? "<...>" : "";
    } else if (C == '>') {
      if (Depth-- == 1)
        S += C;
    } else if (Depth <= 1) {
      S += C;
    }
  }
  if (S.size() <= Longest)
    return S;
  // Still too long: the first few top-level arguments.
  size_t Open = S.find('<'), At = Open, Commas = 0;
  Depth = 0;
  for (; At != std::string::npos && At < S.size(); ++At) {
    if (S[At] == '<')
      ++Depth;
    else if (S[At] == '>')
      --Depth;
    else if (S[At] == ',' && Depth == 1 && ++Commas == TopArguments)
      return S.substr(0, At) + ", ...>";
  }
  return S;
}

/// "ldmatrix.x4.trans" for "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16".
std::string shortMatrixName(const std::string &Opcode) {
  std::string S = Opcode.substr(0, Opcode.find('.'));
  for (const char *Part : {".x1", ".x2", ".x4", ".trans"})
    if (Opcode.find(Part) != std::string::npos)
      S += Part;
  return S;
}

/// "reading", "writing", "in 'ldmatrix.x4' reading", or "in 'atomicAdd' on"
/// before the array's name.
std::string doing(const SharedAccess &A) {
  if (A.Op == AccessOp::Atomic)
    return fmt::format("in '{}' on", A.Instruction);
  const char *Dir = A.Op == AccessOp::Load ? "reading" : "writing";
  if (A.Matrix)
    return fmt::format("in '{}' {}", shortMatrixName(A.Instruction), Dir);
  if (!A.Instruction.empty()) // inline PTX ld/st.shared
    return fmt::format("in '{}' {}", A.Instruction, Dir);
  return Dir;
}

std::string arrayAsWritten(const SharedAccess &A, const std::string &Array) {
  llvm::StringRef S = llvm::StringRef(A.Spelling).ltrim();
  size_t N = 0;
  while (N < S.size() && (std::isalnum(static_cast<unsigned char>(S[N])) || S[N] == '_'))
    ++N;
  llvm::StringRef Name = S.take_front(N);
  if (Name.empty() || std::isdigit(static_cast<unsigned char>(Name[0])) || Name == Array ||
      !S.drop_front(N).ltrim().starts_with("["))
    return "'" + Array + "'";
  return fmt::format("'{}' through '{}'", Array, Name.str());
}

} // namespace cbl
