//===- HtmlOutput.h - --html=DIR: the HTML report written to a directory ---===//
//
// Private to lib/Driver: the pages of Report/HtmlReporter.h, with the
// driver's coverage summary (the kernels whose shared memory was not
// modelled), written into a directory.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_DRIVER_HTMLOUTPUT_H
#define CUDA_BANK_LINT_LIB_DRIVER_HTMLOUTPUT_H

#include "cuda-bank-lint/Driver/Analyzer.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace cbl {

/// Writes index.html and a page per source file into Dir (created when
/// missing), paths shown relative to PathRoot; a note on stderr names the
/// index. False, with an error on stderr, when a page cannot be written.
bool writeHtml(const AnalysisOutcome &Result, llvm::StringRef Dir, const std::string &PathRoot);

} // namespace cbl

#endif
