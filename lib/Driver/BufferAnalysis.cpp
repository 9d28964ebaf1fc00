//===- BufferAnalysis.cpp - One editor buffer through the driver's pipeline ===//
#include "cuda-bank-lint/Driver/BufferAnalysis.h"
#include "cuda-bank-lint/Support/Paths.h"

namespace cbl {

AnalysisOutcome analyseBuffer(const std::string &File, std::shared_ptr<const UnsavedFiles> Unsaved,
                              const CompileCommands *Database, AnalyzerOptions Opts,
                              PreambleCache *Preambles) {
  Opts.Model.Unsaved = std::move(Unsaved);
  Opts.Model.Preambles = Preambles;
  Opts.Checks.Explain = true; // the lane tables, for hovers
  Opts.OnFile = nullptr;
  Opts.ProgressBar = nullptr;
  Opts.FromDirectories.clear(); // a header that does not compile is an error
  Opts.Jobs = 1;                // on the calling thread
  return analyseFiles({absolutePath(File)}, Database, Opts);
}

} // namespace cbl
