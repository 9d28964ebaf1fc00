//===- BankGridView.h - The worst warp's bank grid as text and as SVG -----===//
//
// An access record's BankGrid (BankModel/BankGrid.h: 32 bank columns, one
// row per wavefront, each cell the word a bank delivers and the lanes that
// access it) drawn two ways from one layout: a compact monospace table for
// the language server's hover, and an inline SVG for the HTML report (cells
// coloured by word, so that a broadcast is one colour).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_REPORT_BANKGRIDVIEW_H
#define CUDA_BANK_LINT_REPORT_BANKGRIDVIEW_H

#include "cuda-bank-lint/Report/Finding.h"

#include <cstdint>
#include <string>

namespace cbl {

/// "0-3, 8, 10-11" (Sep ", "), or "0-3,8,10-11" (Sep ","): a lane mask.
std::string laneRanges(uint32_t Lanes, const char *Sep = ", ");

/// What the rows of R's grid are and how they add up to its wavefronts, in
/// one sentence ("32 rows, one per wavefront: 32 wavefronts, ideal 1").
std::string gridCaption(const AccessRecord &R);

/// The grid as a monospace table: a header of the banks that some lane uses,
/// one line per row ("wf 3"), each cell the lowest lane on that bank's word
/// ("5+" when other lanes share the word), phases marked at the right, then
/// the banks no lane uses; each line starts with Indent. Empty when the
/// record has no grid.
std::string gridText(const AccessRecord &R, const std::string &Indent = "");

/// The grid as a self-contained <svg> element (every bank, every row; a
/// <title> per cell with its bank, row, word and lanes). Empty when the
/// record has no grid.
std::string gridSvg(const AccessRecord &R);

/// Text for HTML and SVG: & < > " ' as entities.
std::string escapeHtml(const std::string &Text);

} // namespace cbl

#endif
