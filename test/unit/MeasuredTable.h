//===- MeasuredTable.h - Reading the measured CSV tables in unit tests ----===//
//
// The tables under test/data are plain comma-separated values without quoted
// fields; one header line, then one measured launch per line.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_TEST_UNIT_MEASUREDTABLE_H
#define CUDA_BANK_LINT_TEST_UNIT_MEASUREDTABLE_H

#include <fstream>
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

/// A whole table: its header and rows (each split), or Error when the file
/// cannot be read or a row has another field count than the header.
struct MeasuredTable {
  std::vector<std::string> Header;
  std::vector<std::vector<std::string>> Rows;
  std::string Error;
};

inline MeasuredTable readMeasuredTable(const std::string &Path) {
  MeasuredTable T;
  std::ifstream In(Path);
  std::string Line;
  if (!In.good() || !std::getline(In, Line)) {
    T.Error = "cannot read " + Path;
    return T;
  }
  T.Header = splitCsvLine(Line);
  for (unsigned LineNo = 2; std::getline(In, Line); ++LineNo) {
    T.Rows.push_back(splitCsvLine(Line));
    if (T.Rows.back().size() != T.Header.size()) {
      T.Error = Path + ":" + std::to_string(LineNo) + ": " + std::to_string(T.Rows.back().size()) +
                " fields, the header has " + std::to_string(T.Header.size());
      return T;
    }
  }
  return T;
}

} // namespace cbl::test

#endif
