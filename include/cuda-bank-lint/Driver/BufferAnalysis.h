//===- BufferAnalysis.h - One editor buffer through the driver's pipeline -===//
//
// The language server's entry into the driver: one file analysed exactly as
// `cuda-bank-lint FILE` analyses it (its command from the compilation
// database, the including file when it does not compile alone, the block
// shapes, the enabled checks, NOLINT, one finding per location), except that
// the editor's unsaved buffers are read instead of the disk, the file's
// preamble (its headers) is reused between calls, and every access record
// keeps the lane table of its worst warp (what --explain prints).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_BUFFERANALYSIS_H
#define CUDA_BANK_LINT_DRIVER_BUFFERANALYSIS_H

#include "cuda-bank-lint/Driver/Analyzer.h"
#include "cuda-bank-lint/Frontend/PreambleCache.h"
#include "cuda-bank-lint/Frontend/UnsavedFiles.h"

#include <memory>
#include <string>

namespace cbl {

/// Database may be null (the file is parsed as `clang++ File`), and so may
/// Preambles (every parse is complete). Opts are those of a run on File
/// (its configuration and the command line); its streaming, progress and
/// job settings are ignored.
AnalysisOutcome analyseBuffer(const std::string &File, std::shared_ptr<const UnsavedFiles> Unsaved,
                              const CompileCommands *Database, AnalyzerOptions Opts,
                              PreambleCache *Preambles);

} // namespace cbl

#endif
