//===- Reporters.h - Output formats of a run -------------------------------===//
//
// Every reporter renders the same RunReport. Text is clang style on stdout
// (file:line:col: warning: message [check]) with source lines, carets, notes
// and fix-its; JSON is the stable schema of docs/json-schema.md.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_REPORT_REPORTERS_H
#define CUDA_BANK_LINT_REPORT_REPORTERS_H

#include "cuda-bank-lint/Report/Finding.h"

#include "llvm/Support/raw_ostream.h"

namespace cbl {

struct TextOptions {
  bool Explain = false;   ///< per-access lane tables and unknown reasons
  bool Color = false;
};

void printText(const RunReport &R, llvm::raw_ostream &OS, const TextOptions &Opts);
void printJson(const RunReport &R, llvm::raw_ostream &OS);

/// Sorts findings and records by file, line, column (deterministic output).
void sortReport(RunReport &R);

} // namespace cbl

#endif
