//===- Finding.cpp - Names of report enumerations and ordering -------------===//
#include "cuda-bank-lint/Report/Finding.h"
#include "cuda-bank-lint/Report/Reporters.h"

#include <algorithm>
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


static auto key(const SourcePos &P) { return std::make_tuple(P.File, P.Line, P.Column); }

void sortReport(RunReport &R) {
  std::stable_sort(R.Findings.begin(), R.Findings.end(),
                   [](const Finding &A, const Finding &B) { return key(A.Where) < key(B.Where); });
  std::stable_sort(R.Accesses.begin(), R.Accesses.end(),
                   [](const AccessRecord &A, const AccessRecord &B) { return key(A.Where) < key(B.Where); });
}

} // namespace cbl
