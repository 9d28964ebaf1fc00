//===- HtmlReporter.cpp - The pages of --html=DIR ---------------------------===//
#include "cuda-bank-lint/Report/HtmlReporter.h"
#include "HtmlSites.h"
#include "cuda-bank-lint/Report/BankGridView.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace cbl {

namespace {

using html::Context;
using html::Site;

/// Inline, so that the page needs nothing else (no font, script or sheet).
constexpr const char *Style = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2430;margin:0 auto;padding:12px 24px 48px;max-width:1400px}
h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d5dae2}
h3{font-size:15px;margin:0 0 6px}h4{font-size:14px;margin:10px 0 4px}
code,pre,.pos{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:13px}
a{color:#1a5fb4;text-decoration:none}a:hover{text-decoration:underline}
nav{font-size:13px;margin-bottom:4px}.meta{color:#5c6370}
table{border-collapse:collapse}th,td{text-align:left;vertical-align:top;padding:3px 8px}
table.summary,table.list{width:100%}table.summary tr:nth-child(even),table.list tr:nth-child(even){background:#f5f7fa}
table.summary th,table.list th{border-bottom:2px solid #d5dae2;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.card{border:1px solid #d5dae2;border-radius:6px;padding:10px 14px;margin:14px 0;background:#fff}
.card.conflict{border-left:5px solid #c01c28}.card.other{border-left:5px solid #e5a50a}
.card:target{box-shadow:0 0 0 3px #99c1f1}
table.facts th{color:#5c6370;font-weight:500;white-space:nowrap;width:1%}
.finding{margin:4px 0 8px}.level{font-weight:700;text-transform:uppercase;font-size:12px;padding:1px 5px;border-radius:3px;background:#e5a50a;color:#fff}
.finding.warning .level,.finding.error .level{background:#c01c28}.finding.remark .level{background:#1a5fb4}
.check,.origin{color:#5c6370}
pre.src{background:#f6f8fa;border:1px solid #e1e4e8;border-radius:4px;padding:6px 0;overflow-x:auto;margin:8px 0}
pre.src .line{display:inline-block;min-width:100%;box-sizing:border-box;padding:0 10px}pre.src .hit{background:#fff5b1}pre.src mark{background:#f9c440;border-radius:2px}
.ln{color:#8b949e;user-select:none}
pre.diff{background:#f6f8fa;padding:6px 10px;border-radius:4px;overflow-x:auto}.del{color:#b31d28}.add{color:#22863a}
figure.grid{margin:8px 0;overflow-x:auto}figure.grid figcaption{color:#5c6370;font-size:13px;max-width:1100px}
svg.grid{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:11px;max-width:100%;height:auto}
svg.grid .axis,svg.grid .row{fill:#5c6370}svg.grid .bank{fill:#5c6370}svg.grid .bank.hot{fill:#c01c28;font-weight:700}
svg.grid .cell text{fill:#1d2430}
details{margin:6px 0}summary{cursor:pointer;color:#1a5fb4}
li.error{color:#c01c28}.nosrc{color:#5c6370;font-style:italic}
)css";

std::string pageHead(const std::string &Title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         escapeHtml(Title) + "</title>\n<style>" + Style + "</style>\n</head>\n<body>\n";
}

/// Sites by excess: per block, then per request, then position.
std::vector<const Site *> byExcess(const std::vector<Site> &Sites) {
  std::vector<const Site *> Out;
  for (const Site &S : Sites)
    if (S.conflicted())
      Out.push_back(&S);
  std::stable_sort(Out.begin(), Out.end(), [](const Site *A, const Site *B) {
    return std::make_pair(A->Cost.Block, A->Cost.Request) > std::make_pair(B->Cost.Block, B->Cost.Request);
  });
  return Out;
}

std::string summaryTable(Context &C, const std::vector<Site> &Sites) {
  std::vector<const Site *> Ranked = byExcess(Sites);
  std::string Out = "<section id=\"conflicts\">\n<h2>Bank conflicts, by excess wavefronts</h2>\n";
  if (C.Report.Accesses.empty())
    return Out + "<p>No shared-memory access was recognised, so there is nothing to draw.</p>\n</section>\n";
  if (Ranked.empty())
    return Out + fmt::format("<p>No bank conflict in the {} shared-memory accesses analysed.</p>\n</section>\n",
                             C.Report.Accesses.size());
  Out += "<p class=\"meta\">Excess wavefronts are wavefronts beyond the ideal. <b>Per request</b>: one "
         "execution of the instruction by its worst warp. <b>Per block</b>: summed over every warp "
         "of one block and every loop iteration the tool enumerated, and over the instances of the "
         "access (template instantiations, calls); \u2265 where a trip count is unknown, \u2264 "
         "where the cost is an upper bound.</p>\n<table class=\"summary\">\n<tr><th class=\"num\">#</th>"
         "<th class=\"num\">excess per block</th><th class=\"num\">excess per request</th><th>degree</th>"
         "<th class=\"num\">wavefronts (ideal)</th><th>access</th><th>kernel</th><th>location</th><th>diagnostic</th></tr>\n";
  unsigned N = 0;
  for (const Site *S : Ranked) {
    const AccessRecord &A = S->worst();
    Out += fmt::format(
        "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>"
        "<td class=\"num\">{} ({})</td><td>{} <code>{}</code></td><td><code>{}</code></td>"
        "<td><a href=\"{}#{}\">{}</a></td><td>{}</td></tr>\n",
        ++N, html::excessText(S->Cost.Block, S->Cost.Bound, S->Cost.AtLeast),
        html::excessText(S->Cost.Request, S->Cost.Bound, false), escapeHtml(html::verdictWords(A)),
        A.Wavefronts, A.Ideal, escapeHtml(html::accessKind(A)), escapeHtml(A.Spelling),
        escapeHtml(A.Function), S->Page, S->Anchor,
        escapeHtml(C.position({S->File, S->Line, S->Column})),
        S->Reported ? severityName(S->Reported->Level) : "\u2014");
  }
  return Out + "</table>\n</section>\n";
}

/// Findings no access site carries (barriers, ...), with their anchors.
std::vector<std::pair<const Finding *, std::string>> otherFindings(Context &C,
                                                                   const std::vector<Site> &Sites) {
  std::set<const Finding *> AtSites;
  std::set<std::string> Anchors;
  for (const Site &S : Sites) {
    AtSites.insert(S.Reported);
    Anchors.insert(S.Page + "#" + S.Anchor);
  }
  std::vector<std::pair<const Finding *, std::string>> Out;
  for (const Finding &F : C.Report.Findings) {
    if (AtSites.count(&F) || !F.Where.valid())
      continue;
    std::string Page = C.pageOf(F.Where.File), Anchor = fmt::format("L{}C{}", F.Where.Line, F.Where.Column);
    for (unsigned K = 2; Anchors.count(Page + "#" + Anchor); ++K)
      Anchor = fmt::format("L{}C{}-{}", F.Where.Line, F.Where.Column, K);
    Anchors.insert(Page + "#" + Anchor);
    Out.push_back({&F, Anchor});
  }
  return Out;
}

std::string filesTable(Context &C, const std::vector<Site> &Sites, const std::vector<std::string> &Files,
                       const std::vector<std::pair<const Finding *, std::string>> &Others) {
  std::string Out = "<section id=\"files\">\n<h2>Files</h2>\n<table class=\"list\"><tr><th>file</th>"
                    "<th class=\"num\">access sites</th><th class=\"num\">with a conflict</th>"
                    "<th class=\"num\">other findings</th></tr>\n";
  for (const UnitStatus &U : C.Report.Units)
    if (std::find(Files.begin(), Files.end(), U.File) == Files.end())
      Out += fmt::format("<tr><td>{}</td><td class=\"num\">0</td><td class=\"num\">0</td>"
                         "<td class=\"num\">0</td></tr>\n",
                         escapeHtml(C.Paths.path(U.File)));
  for (const std::string &F : Files) {
    unsigned Accesses = 0, Conflicts = 0, Findings = 0;
    for (const Site &S : Sites)
      if (S.File == F)
        ++Accesses, Conflicts += S.conflicted();
    for (const auto &[Fd, Anchor] : Others)
      Findings += Fd->Where.File == F;
    Out += fmt::format("<tr><td><a href=\"{}\">{}</a></td><td class=\"num\">{}</td><td class=\"num\">{}"
                       "</td><td class=\"num\">{}</td></tr>\n",
                       C.pageOf(F), escapeHtml(C.Paths.path(F)), Accesses, Conflicts, Findings);
  }
  return Out + "</table>\n</section>\n";
}

std::string indexPage(Context &C, const std::vector<Site> &Sites, const std::vector<std::string> &Files,
                      const std::vector<std::pair<const Finding *, std::string>> &Others) {
  const RunReport &R = C.Report;
  std::string Out = pageHead("cuda-bank-lint report") + "<h1>cuda-bank-lint report</h1>\n";
  Out += fmt::format("<p class=\"meta\">{} file{} \u00b7 {} \u00b7 {} finding{} \u00b7 {} \u00b7 {}</p>\n",
                     R.Units.size(), R.Units.size() == 1 ? "" : "s", escapeHtml(accessSummary(R)),
                     R.Findings.size(), R.Findings.size() == 1 ? "" : "s", escapeHtml(R.ToolVersion),
                     escapeHtml(R.Mode));
  Out += summaryTable(C, Sites);
  if (!Others.empty()) {
    Out += "<section id=\"findings\">\n<h2>Other findings</h2>\n<ul>\n";
    for (const auto &[F, Anchor] : Others)
      Out += fmt::format("<li><a href=\"{}#{}\">{}</a>: {} {} <span class=\"check\">[{}]</span></li>\n",
                         C.pageOf(F->Where.File), Anchor, escapeHtml(C.position(F->Where)),
                         severityName(F->Level), C.text(F->Message), escapeHtml(F->Check));
    Out += "</ul>\n</section>\n";
  }
  Out += html::notModelled(C, Sites, "");
  return Out + filesTable(C, Sites, Files, Others) + "</body>\n</html>\n";
}

/// The page's kernels (instantiations of one template together) and their
/// access sites, each with its worst verdict when it has a conflict.
std::string kernelIndex(const std::vector<const Site *> &Here) {
  struct Kernel {
    std::set<std::string> Instances;
    std::vector<const Site *> Sites;
  };
  std::map<std::string, Kernel> ByKernel;
  for (const Site *S : Here) {
    std::set<std::string> Names;
    for (const AccessRecord *A : S->Records) {
      std::string Name = A->Function.substr(0, A->Function.find('<'));
      ByKernel[Name].Instances.insert(A->Function);
      Names.insert(Name);
    }
    for (const std::string &N : Names)
      ByKernel[N].Sites.push_back(S);
  }
  std::string Out = "<h2>Kernels</h2>\n<ul>\n";
  for (const auto &[Name, K] : ByKernel) {
    std::string Links;
    for (const Site *S : K.Sites)
      Links += fmt::format("{}<a href=\"#{}\">{}:{}</a>{}", Links.empty() ? "" : ", ", S->Anchor,
                           S->Line, S->Column,
                           S->conflicted() ? " (" + escapeHtml(html::verdictWords(S->worst())) + ")" : "");
    std::string Instances =
        K.Instances.size() > 1 ? fmt::format(" ({} instantiations)", K.Instances.size()) : "";
    Out += "<li><code>" + escapeHtml(Name) + "</code>" + Instances + ": " + Links + "</li>\n";
  }
  return Out + "</ul>\n";
}

/// The accesses of a page without a conflict: one row each, the grid folded.
std::string otherAccesses(Context &C, const std::vector<const Site *> &Here) {
  std::string Out;
  constexpr unsigned MaxGrids = 300;
  unsigned Grids = 0;
  for (const Site *S : Here) {
    if (S->conflicted())
      continue;
    const AccessRecord &A = S->worst();
    std::string Grid;
    if (!A.Grid.empty() && Grids < MaxGrids && ++Grids)
      Grid = "<details><summary>grid</summary>" + html::gridFigure(A) + "</details>";
    std::string Verdict = html::verdictWords(A);
    if (A.Random && A.Random->WorstWavefronts > A.Random->WorstIdeal)
      Verdict += fmt::format("; on random data ~{:.1f} wavefronts per request (ideal {:.3g}), {} {}",
                             A.Random->Wavefronts, A.Random->Ideal,
                             A.Random->WorstReachable ? "up to" : "seen up to", A.Random->WorstWavefronts);
    if (A.Edge)
      Verdict += fmt::format("; in a partial tile {} wavefronts against the source page's ideal of {} "
                             "(no bank conflict)",
                             A.Edge->Wavefronts, A.Edge->PageIdeal);
    Out += fmt::format("<tr id=\"{}\"><td><a href=\"#{}\">{}:{}</a></td><td>{} <code>{}</code></td>"
                       "<td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                       S->Anchor, S->Anchor, S->Line, S->Column, escapeHtml(html::accessKind(A)),
                       escapeHtml(A.Spelling), escapeHtml(A.Function), escapeHtml(Verdict),
                       A.Wavefronts ? fmt::format("{} ({})", A.Wavefronts, A.Ideal) : "", Grid);
  }
  if (Out.empty())
    return "";
  return "<h2>Other accesses</h2>\n<table class=\"list\"><tr><th>line:col</th><th>access</th>"
         "<th>function</th><th>verdict</th><th class=\"num\">wavefronts (ideal)</th><th></th></tr>\n" +
         Out + "</table>\n";
}

std::string filePage(Context &C, const std::string &File, const std::vector<Site> &Sites,
                     const std::vector<std::pair<const Finding *, std::string>> &Others) {
  std::vector<const Site *> Here;
  for (const Site &S : Sites)
    if (S.File == File)
      Here.push_back(&S);
  std::string Shown = C.Paths.path(File);
  std::string Out = pageHead(Shown + " \u2014 cuda-bank-lint") +
                    "<nav><a href=\"index.html\">\u2190 all files</a></nav>\n<h1>" + escapeHtml(Shown) +
                    "</h1>\n";
  if (!Here.empty())
    Out += kernelIndex(Here);
  std::string Cards;
  for (const Site *S : Here)
    if (S->conflicted())
      Cards += html::siteCard(C, *S);
  if (!Cards.empty())
    Out += "<h2>Bank conflicts</h2>\n" + Cards;
  std::string Findings;
  for (const auto &[F, Anchor] : Others)
    if (F->Where.File == File)
      Findings += html::findingCard(C, *F, Anchor);
  if (!Findings.empty())
    Out += "<h2>Other findings</h2>\n" + Findings;
  Out += otherAccesses(C, Here) + html::notModelled(C, Sites, File);
  return Out + "</body>\n</html>\n";
}

} // namespace

std::vector<HtmlPage> htmlReport(const RunReport &R, const HtmlOptions &Opts) {
  Context C(R, Opts);
  std::vector<Site> Sites = html::collectSites(C);
  auto Others = otherFindings(C, Sites);
  for (const Site &S : Sites)
    C.addAnchor(S.File, S.Anchor, {S.Line, S.Column});
  for (const auto &[F, Anchor] : Others)
    C.addAnchor(F->Where.File, Anchor, {F->Where.Line, F->Where.Column});
  std::vector<std::string> Files;
  for (const Site &S : Sites)
    Files.push_back(S.File);
  for (const auto &[F, Anchor] : Others)
    Files.push_back(F->Where.File);
  std::sort(Files.begin(), Files.end(), [&](const std::string &A, const std::string &B) {
    return C.Paths.path(A) < C.Paths.path(B);
  });
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  std::vector<HtmlPage> Pages{{"index.html", indexPage(C, Sites, Files, Others)}};
  for (const std::string &F : Files)
    Pages.push_back({C.pageOf(F), filePage(C, F, Sites, Others)});
  return Pages;
}

} // namespace cbl
