//===- HtmlReporter.h - A bank map to look at: --html=DIR -------------------===//
//
// Self-contained HTML pages (inline CSS and SVG; no script, font or other
// file is fetched) rendered from the same RunReport as every other format:
//  - index.html: the run's counts, the bank conflicts sorted by excess
//    wavefronts (wavefronts - ideal, per request of the worst warp and summed
//    over one block), the other findings, what the tool could not model and
//    why, and the pages of the source files;
//  - one page per source file: per access with a conflict its finding, the
//    lane -> bank grid of its worst warp (AccessRecord::Grid, drawn by
//    BankGridView), wavefronts vs ideal, degree, the block shape and where it
//    comes from, the verified fix and the source line with its context; the
//    file's other accesses (their grids folded) and findings.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_REPORT_HTMLREPORTER_H
#define CUDA_BANK_LINT_REPORT_HTMLREPORTER_H

#include "cuda-bank-lint/Report/Finding.h"

#include <string>
#include <vector>

namespace cbl {

/// A kernel whose shared memory the tool could not model (the driver's
/// coverage summary, lib/Driver/Coverage.cpp), with its reason in words.
struct HtmlUnmodelledKernel {
  std::string File;   ///< the input file
  std::string Kernel;
  SourcePos Where;
  std::string Reason;
};

struct HtmlOptions {
  /// Paths inside it are shown relative to it (RootPaths); empty: as spelled.
  std::string PathRoot;
  std::vector<HtmlUnmodelledKernel> Unmodelled;
  unsigned ContextLines = 3; ///< source lines shown above and below an access
};

struct HtmlPage {
  std::string Name; ///< file name inside the report's directory
  std::string Text;
};

/// index.html first, then one page per source file that has an access
/// record or a finding.
std::vector<HtmlPage> htmlReport(const RunReport &R, const HtmlOptions &Opts);

} // namespace cbl

#endif
