//===- HtmlSites.h - The HTML report's pieces (private to lib/Report) -----===//
//
// HtmlReporter.cpp assembles the pages from what these render: the access
// sites and the source excerpt, what the tool could not model
// (HtmlSections.cpp), a site's or a finding's card: finding, facts, grid,
// fix, source (HtmlCards.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_REPORT_HTMLSITES_H
#define CUDA_BANK_LINT_LIB_REPORT_HTMLSITES_H

#include "cuda-bank-lint/Report/HtmlReporter.h"
#include "cuda-bank-lint/Report/Reporters.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cbl::html {

/// Wavefronts beyond the ideal, per request and per block.
struct Excess {
  uint64_t Request = 0;   ///< the worst instance's worst warp, one execution
  uint64_t Block = 0;     ///< summed over one block's warps, iterations and every instance
  bool AtLeast = false;   ///< a trip count is unknown: Block counts the known part
  bool Bound = false;     ///< the worst instance is an upper bound
};

/// One source location with access records (instances: template
/// instantiations, calls, the load and store of `s[i] += x`), the worst
/// first, and the finding reported there, if any.
struct Site {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::vector<const AccessRecord *> Records;
  const Finding *Reported = nullptr;
  Excess Cost;
  std::string Page, Anchor;
  const AccessRecord &worst() const { return *Records.front(); }
  bool conflicted() const { return Cost.Request > 0; }
};

/// What every piece needs: the report, the options, shown paths, the page
/// of each file and the files' text (read once).
class Context {
public:
  Context(const RunReport &R, const HtmlOptions &Opts);
  const RunReport &Report;
  const HtmlOptions &Opts;
  RootPaths Paths;
  std::string pageOf(const std::string &File); ///< "k.cu.html", made unique
  /// The card at Line:Column of File has the id Anchor.
  void addAnchor(const std::string &File, const std::string &Anchor, std::pair<unsigned, unsigned> At);
  /// "k.cu.html#L12C5" where a card is, "k.cu.html" elsewhere in a file with
  /// a page, "" in a file without one.
  std::string link(const SourcePos &P);
  /// P as "k.cu:12:5", linked where link(P) is not empty.
  std::string linked(const SourcePos &P);
  std::string position(const SourcePos &P) const { return Paths.position(P); }
  std::string text(const std::string &Message) const; ///< paths rewritten, escaped
  /// The file's lines (empty when it cannot be read).
  const std::vector<std::string> &lines(const std::string &File);

private:
  std::map<std::string, std::string> Pages;
  std::map<std::tuple<std::string, unsigned, unsigned>, std::string> Anchors;
  std::map<std::string, std::vector<std::string>> Sources;
};

/// Every location with records, from R.Accesses; Reported set from R.Findings.
std::vector<Site> collectSites(Context &C);

/// "load", "store" or "atomic", with the instruction when it has one.
std::string accessKind(const AccessRecord &R);
/// "32-way" / "at most 4-way" / "conflict-free" / the status.
std::string verdictWords(const AccessRecord &R);
/// Excess as the tables show it: "31", "≤ 31", "≥ 992".
std::string excessText(uint64_t N, bool Bound, bool AtLeast);

/// The worst warp's grid with its caption, or "" when the record has none.
std::string gridFigure(const AccessRecord &A);
/// The card of a site: heading, finding, facts, grid, fix, source, instances.
std::string siteCard(Context &C, const Site &S);
/// A finding without access records (a barrier, ...): message, notes, source.
std::string findingCard(Context &C, const Finding &F, const std::string &Anchor);
/// Lines Line-Context..Line+Context of File, Line marked (Column, Length).
std::string sourceExcerpt(Context &C, const std::string &File, unsigned Line, unsigned Column,
                          unsigned Length);
/// What was not modelled, analysed or costed, with the reasons; for one file
/// (File) or the whole run (empty). Empty when there is nothing to say.
std::string notModelled(Context &C, const std::vector<Site> &Sites, const std::string &File);

} // namespace cbl::html

#endif
