//===- MeasuredTable.h - Reading the measured CSV tables in unit tests ----===//
//
// The tables under test/data are plain comma-separated values without quoted
// fields; one header line, then one measured launch per line.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_TEST_UNIT_MEASUREDTABLE_H
#define CUDA_BANK_LINT_TEST_UNIT_MEASUREDTABLE_H

#include <sstream>
#include <string>
#include <vector>

namespace cbl::test {

inline std::vector<std::string> splitCsvLine(std::string Line) {
  if (!Line.empty() && Line.back() == '\r')
    Line.pop_back();
  std::vector<std::string> Out;
  std::string Field;
  std::istringstream IS(Line);
  while (std::getline(IS, Field, ','))
    Out.push_back(Field);
  return Out;
}

} // namespace cbl::test

#endif
