//===- IslConditions.cpp - Parameter values that make lanes conflict ------===//
#include "cuda-bank-lint/Symbolic/IslConditions.h"
#include "IslContextImpl.h"

#include <isl/set.h>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace cbl {

/// isl's residue classes in words: "(d) mod 2 = 0" is "d is even", "(a + b)
/// mod 4 = 0" is "a + b is a multiple of 4", "(d) mod 4 = 1" is "d mod 4 = 1";
/// and "s < 0 or s > 0" is "s != 0". (llvm::Regex, whose matching is
/// thread-safe; std::regex's locale cache is not.)
static std::string inWords(const std::string &Cond) {
  static const llvm::Regex Residue(R"(\(([^()]*)\) mod ([0-9]+) = ([0-9]+))");
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 4> M;
  llvm::StringRef Rest(Cond);
  while (Residue.match(Rest, &M)) {
    Out += Rest.take_front(M[0].data() - Rest.data()).str();
    std::string X = M[1].str(), Mod = M[2].str(), R = M[3].str();
    if (Mod == "2")
      Out += X + (R == "0" ? " is even" : " is odd");
    else if (R == "0")
      Out += X + " is a multiple of " + Mod;
    else
      Out += (X.find(' ') == std::string::npos ? X : "(" + X + ")") + " mod " + Mod + " = " + R;
    Rest = Rest.drop_front(M[0].data() + M[0].size() - Rest.data());
  }
  Out += Rest.str();
  // "s < 0 or s > 0": "s != 0" (the same name and number on both sides,
  // whole words).
  static const llvm::Regex Unequal(
      "([A-Za-z_][A-Za-z_0-9]*) < (-?[0-9]+) or ([A-Za-z_][A-Za-z_0-9]*) > (-?[0-9]+)");
  auto IsWord = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  std::string Result;
  llvm::StringRef Text(Out);
  while (Unequal.match(Text, &M)) {
    size_t At = M[0].data() - Text.data(), End = At + M[0].size();
    bool Whole = (At == 0 || !IsWord(Text[At - 1])) && (End == Text.size() || !IsWord(Text[End]));
    Result += Text.take_front(At).str();
    if (M[1] == M[3] && M[2] == M[4] && Whole) {
      Result += M[1].str() + " != " + M[2].str();
      Text = Text.drop_front(End);
    } else {
      // Not the pattern here: keep its first character and look further.
      Result += Text[At];
      Text = Text.drop_front(At + 1);
    }
  }
  return Result + Text.str();
}

namespace {

/// A difference between two lanes' words: the constant and one
/// coefficient per parameter.
using WordDifference = std::pair<int64_t, std::vector<int64_t>>;

/// The differences of every pair of lanes of each warp that can meet in a
/// bank for some parameter values (not the same word, not always apart);
/// false past 4096 of them.
bool laneDifferences(const std::vector<std::vector<LinearWord>> &Warps, unsigned Banks,
                     const std::vector<std::string> &Names, std::set<WordDifference> &Diffs) {
  for (const auto &W : Warps)
    for (size_t I = 0; I < W.size(); ++I)
      for (size_t J = I + 1; J < W.size(); ++J) {
        std::vector<int64_t> D(Names.size(), 0);
        bool AllZero = true;
        for (size_t K = 0; K < Names.size(); ++K) {
          auto A = W[I].Terms.find(Names[K]), B = W[J].Terms.find(Names[K]);
          D[K] = (A == W[I].Terms.end() ? 0 : A->second) - (B == W[J].Terms.end() ? 0 : B->second);
          AllZero &= D[K] == 0;
        }
        int64_t DC = W[I].C - W[J].C;
        if (AllZero && (DC == 0 || DC % int64_t(Banks) != 0))
          continue; // same word, or different banks, for every parameter value
        Diffs.insert({DC, D});
        if (Diffs.size() > 4096)
          return false;
      }
  return true;
}

/// isl's text of the set Text ("[p0] -> { : C }" reduced to C, which is
/// empty for every value), coalesced; none when isl fails. Empty: whether
/// the set is.
std::optional<std::string> coalescedCondition(const std::string &Text, bool &Empty) {
  IslContext Isl(20000000);
  isl_set *S = isl_set_read_from_str(Isl.impl().Ctx, Text.c_str());
  if (!S)
    return std::nullopt;
  S = isl_set_coalesce(S);
  if (!S)
    return std::nullopt;
  isl_bool None = isl_set_is_empty(S);
  char *Str = None == isl_bool_false ? isl_set_to_str(S) : nullptr;
  isl_set_free(S);
  Empty = None == isl_bool_true;
  if (None == isl_bool_error)
    return std::nullopt;
  if (Empty)
    return std::string();
  if (!Str)
    return std::nullopt;
  std::string Cond = Str;
  free(Str);
  size_t Colon = Cond.find(" : ");
  size_t Close = Cond.rfind('}');
  if (Colon != std::string::npos && Close != std::string::npos && Close > Colon)
    Cond = Cond.substr(Colon + 3, Close - Colon - 3);
  while (!Cond.empty() && Cond.back() == ' ')
    Cond.pop_back();
  return Cond;
}

/// isl's identifiers p0, p1, ... replaced by the source names; isl writes
/// coefficients next to identifiers (15p0), which become "15*stride".
std::string withSourceNames(const std::string &Cond, const std::vector<std::string> &Names) {
  std::string Named;
  for (size_t I = 0; I < Cond.size();) {
    bool IdStart = Cond[I] == 'p' && I + 1 < Cond.size() && isdigit(Cond[I + 1]) &&
                   (I == 0 || !(isalpha(Cond[I - 1]) || Cond[I - 1] == '_'));
    if (!IdStart) {
      Named += Cond[I++];
      continue;
    }
    size_t J = I + 1;
    while (J < Cond.size() && isdigit(Cond[J]))
      ++J;
    size_t K = std::stoul(Cond.substr(I + 1, J - I - 1));
    if (I > 0 && isdigit(Cond[I - 1]))
      Named += '*';
    Named += K < Names.size() ? Names[K] : Cond.substr(I, J - I);
    I = J;
  }
  return Named;
}

} // namespace

std::optional<ParameterConflicts>
conflictingParameters(const std::vector<std::vector<LinearWord>> &Warps, unsigned Banks) {
  // isl identifiers p0, p1, ... stand for the source names (blockIdx.x, n).
  std::vector<std::string> Names;
  for (const auto &W : Warps)
    for (const LinearWord &L : W)
      for (const auto &KV : L.Terms)
        if (std::find(Names.begin(), Names.end(), KV.first) == Names.end())
          Names.push_back(KV.first);
  // Conflicts depend only on differences between two lanes' words.
  std::set<WordDifference> Diffs;
  if (!laneDifferences(Warps, Banks, Names, Diffs))
    return std::nullopt;
  ParameterConflicts Out;
  if (Diffs.empty()) {
    Out.ConflictFree = true;
    return Out;
  }
  // [p0, p1] -> { : (exists k: d0*p0 + d1*p1 + dc = 32k) and d0*p0 + ... != 0 or ... }
  std::string Params;
  for (size_t K = 0; K < Names.size(); ++K)
    Params += (K ? ", p" : "p") + std::to_string(K);
  std::string Pieces;
  for (const auto &[DC, D] : Diffs) {
    std::string Lin = std::to_string(DC);
    for (size_t K = 0; K < D.size(); ++K)
      if (D[K])
        Lin += " + " + std::to_string(D[K]) + "p" + std::to_string(K);
    Pieces += (Pieces.empty() ? "" : " or ") + std::string("(exists (k: ") + Lin + " = " +
              std::to_string(Banks) + "k) and " + Lin + " != 0)";
  }
  bool Empty = false;
  std::optional<std::string> Cond = coalescedCondition("[" + Params + "] -> { : " + Pieces + " }", Empty);
  if (!Cond)
    return std::nullopt;
  if (Empty) {
    Out.ConflictFree = true;
    return Out;
  }
  std::string Text = inWords(withSourceNames(*Cond, Names));
  // Long unions stay exact in JSON-sized form but are cut for messages.
  constexpr size_t MaxText = 400;
  if (Text.size() > MaxText) {
    size_t Cut = Text.rfind(" or ", MaxText);
    Text = Text.substr(0, Cut == std::string::npos ? MaxText : Cut) + " or ... (" +
           std::to_string(std::count(Text.begin(), Text.end(), '(')) + " terms in all)";
  }
  Out.Condition = Text;
  return Out;
}

} // namespace cbl
