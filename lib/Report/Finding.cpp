//===- Finding.cpp - Names of report enumerations and ordering -------------===//
#include "cuda-bank-lint/Report/Finding.h"
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cbl {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note: return "note";
  case Severity::Remark: return "remark";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  }
  return "warning";
}

const char *noteRoleName(NoteRole R) {
  switch (R) {
  case NoteRole::Detail: return "detail";
  case NoteRole::Key: return "key";
  case NoteRole::Fix: return "fix";
  }
  return "detail";
}

const char *unitStateName(UnitStatus::State S) {
  switch (S) {
  case UnitStatus::State::Analysed: return "analysed";
  case UnitStatus::State::Partial: return "partial";
  case UnitStatus::State::Failed: return "failed";
  case UnitStatus::State::Skipped: return "skipped";
  }
  return "failed";
}

std::vector<SharedVariableRecord> summariseVariables(const std::vector<SharedArray> &Arrays,
                                                     const std::vector<AccessRecord> &Records) {
  std::vector<SharedVariableRecord> Out;
  for (const SharedArray &A : Arrays) {
    SharedVariableRecord V;
    V.Name = A.Name;
    V.Decl = A.Decl;
    V.ElementType = A.ElementType;
    V.Dims = A.Dims;
    V.IsExtern = A.IsExtern;
    V.Bytes = A.ElementSize;
    for (uint64_t D : A.Dims)
      V.Bytes *= D;
    Out.push_back(std::move(V));
  }
  for (const AccessRecord &R : Records)
    if (R.ArrayId < Out.size())
      ++Out[R.ArrayId].Accesses[R.Status];
  return Out;
}

std::string accessSummary(const RunReport &R) {
  static const VerdictStatus Order[] = {VerdictStatus::Exact, VerdictStatus::Bound,
                                        VerdictStatus::DataDependent, VerdictStatus::Unknown,
                                        VerdictStatus::Unsupported};
  std::map<VerdictStatus, size_t> Count;
  for (const AccessRecord &A : R.Accesses)
    ++Count[A.Status];
  std::string Parts;
  for (VerdictStatus S : Order)
    if (Count[S])
      Parts += (Parts.empty() ? "" : ", ") + std::to_string(Count[S]) + " " + verdictStatusName(S);
  size_t N = R.Accesses.size();
  return std::to_string(N) + " shared access" + (N == 1 ? "" : "es") +
         (Parts.empty() ? "" : " (" + Parts + ")");
}

static auto key(const SourcePos &P) { return std::make_tuple(P.File, P.Line, P.Column); }

void sortReport(RunReport &R) {
  std::stable_sort(R.Findings.begin(), R.Findings.end(),
                   [](const Finding &A, const Finding &B) { return key(A.Where) < key(B.Where); });
  std::stable_sort(R.Accesses.begin(), R.Accesses.end(),
                   [](const AccessRecord &A, const AccessRecord &B) { return key(A.Where) < key(B.Where); });
}

namespace {

bool sameFixes(const std::vector<FixIt> &A, const std::vector<FixIt> &B) {
  return std::equal(A.begin(), A.end(), B.begin(), B.end(), [](const FixIt &X, const FixIt &Y) {
    return X.Range.Begin.Offset == Y.Range.Begin.Offset && X.Range.Length == Y.Range.Length &&
           absolutePath(X.Range.Begin.File) == absolutePath(Y.Range.Begin.File) &&
           X.Text == Y.Text;
  });
}

/// Folds the instances Others into Worst, which stays the finding shown.
void fold(Finding &Worst, std::vector<Finding> &Others) {
  constexpr size_t Listed = 3;
  std::stable_sort(Others.begin(), Others.end(), [](const Finding &A, const Finding &B) {
    return std::make_pair(A.Level, A.Score) > std::make_pair(B.Level, B.Score);
  });
  bool FixesAgree = true;
  for (size_t I = 0; I < Others.size(); ++I) {
    const Finding &O = Others[I];
    FixesAgree &= sameFixes(O.Fixes, Worst.Fixes);
    // Another instruction of the same instance (the store of a
    // read-modify-write) is located at the finding itself.
    bool SameInstance = O.Context == Worst.Context;
    if (I < Listed)
      Worst.Notes.push_back({SameInstance ? O.Where : O.ContextWhere,
                             "also " + (O.Summary.empty() ? std::string("here") : O.Summary) +
                                 (O.Context.empty() || SameInstance ? "" : " in " + O.Context),
                             {}});
  }
  if (Others.size() > Listed)
    Worst.Notes.push_back({SourcePos(),
                           "and " + std::to_string(Others.size() - Listed) + " more instance" +
                               (Others.size() - Listed == 1 ? "" : "s") +
                               " (instantiations, call sites or block shapes); --format=json "
                               "lists every access",
                           {}});
  if (!FixesAgree) {
    Worst.Fixes.clear();
    for (FindingNote &N : Worst.Notes) {
      N.Fixes.clear();
      if (N.Role == NoteRole::Fix)
        N.Role = NoteRole::Detail;
    }
    // Nothing to act on: shown under --explain only, not in the concise output.
    Worst.Notes.push_back({SourcePos(), "no fix-it: the instances of this finding need different ones",
                           {}, NoteRole::Detail});
  }
}

} // namespace

const Finding *FixesOnce::firstOffering(const FixIt &X, const Finding &F) {
  auto Key = std::make_tuple(X.Range.Begin.File, X.Range.Begin.Offset, X.Range.Length, X.Text);
  return First.try_emplace(Key, &F).first->second;
}

const Finding *FixesOnce::offeredBefore(const std::vector<FixIt> &Fixes, const Finding &F) {
  const Finding *Earlier = nullptr;
  bool News = false;
  for (const FixIt &X : Fixes) {
    const Finding *By = firstOffering(X, F);
    News |= By == &F;
    Earlier = Earlier ? Earlier : By;
  }
  return News ? nullptr : Earlier;
}

std::vector<FixIt> FixesOnce::fresh(const std::vector<FixIt> &Fixes, const Finding &F) {
  std::vector<FixIt> Out;
  for (const FixIt &X : Fixes)
    if (firstOffering(X, F) == &F)
      Out.push_back(X);
  return Out;
}

std::string FixesOnce::sameAs(const Finding &Earlier, const SourcePos &At) {
  return "fix-it: the same as at " +
         (Earlier.Where.File == At.File ? "line " : Earlier.Where.File + ":") +
         std::to_string(Earlier.Where.Line);
}

bool FixesOnce::statedBefore(const FindingNote &N) {
  return N.OfArray && !Stated.insert({N.Where.File, N.Where.Offset, N.Message}).second;
}

void mergeFindings(std::vector<Finding> &Findings) {
  using Key = std::tuple<std::string, unsigned, unsigned, std::string, std::string>;
  std::map<Key, std::vector<size_t>> Groups;
  std::vector<Key> Order;
  std::map<std::string, std::string> Paths;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    auto [It, New] = Paths.try_emplace(F.Where.File);
    if (New)
      It->second = absolutePath(F.Where.File);
    Key K{It->second, F.Where.Line, F.Where.Column, F.Check, F.Kind.empty() ? F.Message : F.Kind};
    auto [G, First] = Groups.try_emplace(K);
    if (First)
      Order.push_back(K);
    // The same instance seen again (a header analysed through two files).
    bool Seen = std::any_of(G->second.begin(), G->second.end(), [&](size_t J) {
      return Findings[J].Message == F.Message && Findings[J].Context == F.Context;
    });
    if (!Seen)
      G->second.push_back(I);
  }
  std::vector<Finding> Out;
  Out.reserve(Order.size());
  for (const Key &K : Order) {
    std::vector<size_t> &Members = Groups[K];
    size_t Worst = Members.front();
    for (size_t J : Members)
      if (std::make_pair(Findings[J].Level, Findings[J].Score) >
          std::make_pair(Findings[Worst].Level, Findings[Worst].Score))
        Worst = J;
    std::vector<Finding> Others;
    for (size_t J : Members)
      if (J != Worst)
        Others.push_back(std::move(Findings[J]));
    Finding F = std::move(Findings[Worst]);
    fold(F, Others);
    Out.push_back(std::move(F));
  }
  Findings = std::move(Out);
}

} // namespace cbl
