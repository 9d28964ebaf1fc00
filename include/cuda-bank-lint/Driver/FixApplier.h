//===- FixApplier.h - --fix: apply fix-its in place, atomically -----------===//
//
// Every file to change is checked first (it must exist and have a write
// permission bit: as root, write permission alone would not stop us, so the
// mode bits are read explicitly); only then is each file rewritten through a
// temporary file in the same directory and a rename, so a reader never sees
// a half-written file. The edits are clang::tooling::Replacements applied
// with tooling::applyAllReplacements: identical fix-its (one padding fix
// offered by several findings) are applied once; one that conflicts with an
// earlier one (overlaps it, or inserts at the same place) is not applied and
// a note names both.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_FIXAPPLIER_H
#define CUDA_BANK_LINT_DRIVER_FIXAPPLIER_H

#include "cuda-bank-lint/Report/Finding.h"

#include <string>

namespace cbl {

struct FixOutcome {
  unsigned Applied = 0, Files = 0;
  std::string Messages; ///< errors (nothing written) and fix-its not applied
  bool Failed = false;
};

FixOutcome applyFixes(const RunReport &R);

} // namespace cbl

#endif
