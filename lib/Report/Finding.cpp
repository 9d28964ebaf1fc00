//===- Finding.cpp - Names of report enumerations and ordering -------------===//
#include "cuda-bank-lint/Report/Finding.h"
#include "cuda-bank-lint/Report/Reporters.h"

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

const char *unitStateName(UnitStatus::State S) {
  switch (S) {
  case UnitStatus::State::Analysed: return "analysed";
  case UnitStatus::State::Partial: return "partial";
  case UnitStatus::State::Failed: return "failed";
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

} // namespace cbl
