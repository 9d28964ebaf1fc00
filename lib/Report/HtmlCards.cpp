//===- HtmlCards.cpp - One access site, one finding: the report's cards ----===//
#include "HtmlSites.h"
#include "cuda-bank-lint/Report/BankGridView.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace cbl::html {

namespace {

/// Where the block shape comes from, in the words of the options.
std::string shapeOrigin(const BlockShape &S) {
  switch (S.From) {
  case BlockShape::Source::CommandLine: return "--block-dim";
  case BlockShape::Source::Config: return "the configuration's BlockDim";
  case BlockShape::Source::Annotation: return "a block-dim comment";
  case BlockShape::Source::Launch: return "a launch";
  case BlockShape::Source::LaunchBounds: return "__launch_bounds__";
  case BlockShape::Source::Assumed: return "assumed";
  }
  return "assumed";
}

std::string row(const std::string &Head, const std::string &Html) {
  return "<tr><th>" + Head + "</th><td>" + Html + "</td></tr>\n";
}

std::string quotedCode(const std::vector<std::string> &Items) {
  std::string Out;
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I ? ", " : "") + std::string("<code>") + escapeHtml(Items[I]) + "</code>";
  return Out;
}

/// Wavefronts, degree, excess and status of the worst instance.
std::string costRows(Context &C, const Site &S) {
  const AccessRecord &A = S.worst();
  std::string Out;
  if (A.Status == VerdictStatus::Exact || A.Status == VerdictStatus::Bound) {
    std::string Per = fmt::format("{}{} (ideal {}) per request, in warp {}",
                                  A.Status == VerdictStatus::Bound ? "at most " : "", A.Wavefronts,
                                  A.Ideal, A.WorstWarp);
    if (unsigned Active = unsigned(__builtin_popcount(A.ActiveMask)); Active && Active < WarpSize)
      Per += fmt::format(" ({} of its lanes run it: {})", Active, laneRanges(A.ActiveMask));
    if (A.Op == AccessOp::Atomic && A.Iterations > 1)
      Per += fmt::format("; {} iterations of its compare-and-swap loop", A.Iterations);
    Out += row("wavefronts", escapeHtml(Per));
    Out += row("degree", escapeHtml(verdictWords(A)));
    Out += row("excess", fmt::format("{} per request; {} per block (every warp of one block, every "
                                      "iteration enumerated{})",
                                      excessText(S.Cost.Request, S.Cost.Bound, false),
                                      excessText(S.Cost.Block, S.Cost.Bound, S.Cost.AtLeast),
                                      S.Records.size() > 1 ? ", every instance" : ""));
  }
  std::string Status = escapeHtml(verdictStatusName(A.Status));
  if (!A.Reason.empty())
    Status += ": " + C.text(A.Reason);
  if (!A.Parameters.empty())
    Status += "; holds for all values of " + quotedCode(A.Parameters);
  if (!A.Boundary.empty())
    Status += "; " + C.text(A.Boundary);
  for (const std::string &U : A.AssumedUniform)
    Status += "; assuming the warp-uniform condition <code>" + escapeHtml(U) + "</code> holds";
  return Out + row("status", Status);
}

/// The byte offset, block shape and its origin, launch arguments, calls.
std::string contextRows(Context &C, const AccessRecord &A) {
  std::string Out;
  if (!A.Index.empty())
    Out += row("byte offset", "<code>" + escapeHtml(A.Index) + "</code>");
  // The description names where the shape comes from; its position linked.
  std::string Shape = C.text(describeBlockShape(A.Shape));
  if (A.Shape.Where.valid())
    if (size_t At = Shape.find(escapeHtml(C.position(A.Shape.Where))); At != std::string::npos)
      Shape.replace(At, escapeHtml(C.position(A.Shape.Where)).size(), C.linked(A.Shape.Where));
  Out += row("block", Shape + " <span class=\"origin\">(origin: " + escapeHtml(shapeOrigin(A.Shape)) +
                          ")</span>");
  for (const std::string &L : A.LaunchArguments)
    Out += row("launch", C.text(L));
  if (!A.CallChain.empty()) {
    std::string Calls;
    for (const CallFrame &F : A.CallChain)
      Calls += (Calls.empty() ? "" : " \u2192 ") + std::string("<code>") + escapeHtml(F.Callee) +
               "</code> at " + C.linked(F.Site);
    Out += row("called", Calls);
  }
  for (const auto &[Where, Spelling] : A.MergedWith)
    Out += row("merged with", "<code>" + escapeHtml(Spelling) + "</code> at " + C.linked(Where));
  if (A.Cases.size() > 1) {
    std::string Cases;
    for (size_t I = 0; I < A.Cases.size() && I < 8; ++I)
      Cases += (I ? ", " : "") + escapeHtml(fmt::format("{} {}/{}", A.Cases[I].Label,
                                                        A.Cases[I].Wavefronts, A.Cases[I].Ideal));
    if (A.Cases.size() > 8)
      Cases += fmt::format(", \u2026 ({} in all)", A.Cases.size());
    Out += row("per case", Cases + " <span class=\"origin\">(wavefronts/ideal)</span>");
  }
  return Out;
}

/// The fix-its of the finding: where, the line before and after, and the
/// note that says what the tool verified.
std::string fixSection(Context &C, const Finding &F) {
  // A note's fix-it first: the note says what was verified.
  std::vector<std::pair<const FixIt *, const FindingNote *>> Fixes;
  for (const FindingNote &N : F.Notes)
    for (const FixIt &X : N.Fixes)
      Fixes.push_back({&X, &N});
  for (const FixIt &X : F.Fixes)
    Fixes.push_back({&X, nullptr});
  std::string Out;
  std::set<std::string> Seen;
  for (const auto &[X, Note] : Fixes) {
    const SourcePos &P = X->Range.Begin;
    if (!Seen.insert(C.position(P) + X->Text).second)
      continue;
    const std::vector<std::string> &Lines = C.lines(P.File);
    Out += "<div class=\"fix\"><p>" + (Note ? C.text(Note->Message) : std::string("fix-it")) +
           " (" + C.linked(P) + ")</p>\n";
    if (P.Line >= 1 && P.Line <= Lines.size() && P.Column >= 1 &&
        P.Column - 1 + X->Range.Length <= Lines[P.Line - 1].size()) {
      std::string Before = Lines[P.Line - 1], After = Before;
      After.replace(P.Column - 1, X->Range.Length, X->Text);
      Out += "<pre class=\"diff\"><span class=\"del\">- " + escapeHtml(Before) +
             "</span>\n<span class=\"add\">+ " + escapeHtml(After) + "</span></pre>\n";
    }
    Out += "</div>\n";
  }
  return Out.empty() ? "" : "<h4>Verified fix</h4>\n" + Out;
}

std::string findingLine(Context &C, const Finding &F) {
  return fmt::format("<p class=\"finding {0}\"><span class=\"level\">{0}</span> {1} "
                     "<span class=\"check\">[{2}]</span></p>\n",
                     severityName(F.Level), C.text(F.Message), escapeHtml(F.Check));
}

std::string notesList(Context &C, const Finding &F) {
  if (F.Notes.empty())
    return "";
  std::string Out = fmt::format("<details class=\"notes\"><summary>{} note{}</summary><ul>\n",
                                F.Notes.size(), F.Notes.size() == 1 ? "" : "s");
  for (const FindingNote &N : F.Notes)
    Out += "<li>" + (N.Where.valid() ? C.linked(N.Where) + ": " : std::string()) + C.text(N.Message) +
           "</li>\n";
  return Out + "</ul></details>\n";
}

/// The instances of a site beyond the worst, one row each.
std::string instances(Context &C, const Site &S) {
  if (S.Records.size() < 2)
    return "";
  std::string Out = fmt::format("<details class=\"instances\"><summary>{} instances</summary>\n"
                                "<table class=\"list\"><tr><th>function</th><th>access</th><th>byte "
                                "offset</th><th>block</th><th>verdict</th><th>wavefronts (ideal)</th></tr>\n",
                                S.Records.size());
  constexpr size_t Shown = 20; // the worst first
  for (size_t I = 0; I < S.Records.size() && I < Shown; ++I) {
    const AccessRecord *A = S.Records[I];
    const BlockShape &B = A->Shape;
    std::string Shape = B.known() ? fmt::format("{}x{}x{} ({})", B.Dim[0], B.Dim[1], B.Dim[2], shapeOrigin(B))
                                  : std::string("not known (") + shapeOrigin(B) + ")";
    Out += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td>"
                       "<td class=\"num\">{} ({})</td></tr>\n",
                       escapeHtml(A->Function), escapeHtml(accessKind(*A)), escapeHtml(A->Index),
                       escapeHtml(Shape), escapeHtml(verdictWords(*A)), A->Wavefronts, A->Ideal);
  }
  if (S.Records.size() > Shown)
    Out += fmt::format("<tr><td colspan=\"6\">\u2026 and {} more</td></tr>\n", S.Records.size() - Shown);
  return Out + "</table></details>\n";
}

} // namespace

std::string gridFigure(const AccessRecord &A) {
  if (A.Grid.empty())
    return "";
  return "<figure class=\"grid\">" + gridSvg(A) + "<figcaption>Warp " + std::to_string(A.WorstWarp) +
         ": its lanes by bank (columns) and " + gridRowsName(A.Grid.Meaning) +
         " (rows), coloured by the word they access (lanes on one word, a broadcast, share a "
         "colour). " + escapeHtml(gridCaption(A)) + ".</figcaption></figure>\n";
}

std::string siteCard(Context &C, const Site &S) {
  const AccessRecord &A = S.worst();
  std::string Out = fmt::format(
      "<section class=\"card{}\" id=\"{}\">\n<h3><a class=\"pos\" href=\"#{}\">{}</a> {} "
      "<code>{}</code> of <code>{}</code> in <code>{}</code></h3>\n",
      S.conflicted() ? " conflict" : "", S.Anchor, S.Anchor,
      escapeHtml(C.position({S.File, S.Line, S.Column})), escapeHtml(accessKind(A)),
      escapeHtml(A.Spelling), escapeHtml(A.Array), escapeHtml(A.Function));
  if (S.Reported)
    Out += findingLine(C, *S.Reported);
  Out += "<table class=\"facts\">\n" + costRows(C, S) + contextRows(C, A) + "</table>\n";
  Out += gridFigure(A);
  if (A.Grid.empty())
    Out += "<p class=\"nosrc\">No grid: the worst warp's lanes are not recorded for this verdict.</p>\n";
  if (S.Reported)
    Out += fixSection(C, *S.Reported);
  Out += sourceExcerpt(C, S.File, S.Line, S.Column, unsigned(A.Spelling.size()));
  if (S.Reported)
    Out += notesList(C, *S.Reported);
  return Out + instances(C, S) + "</section>\n";
}

std::string findingCard(Context &C, const Finding &F, const std::string &Anchor) {
  std::string Out = fmt::format("<section class=\"card other\" id=\"{0}\">\n<h3><a class=\"pos\" "
                                "href=\"#{0}\">{1}</a></h3>\n",
                                Anchor, escapeHtml(C.position(F.Where)));
  Out += findingLine(C, F) + fixSection(C, F);
  Out += sourceExcerpt(C, F.Where.File, F.Where.Line, F.Where.Column,
                       F.Ranges.empty() ? 1 : F.Ranges.front().Length);
  return Out + notesList(C, F) + "</section>\n";
}

} // namespace cbl::html
