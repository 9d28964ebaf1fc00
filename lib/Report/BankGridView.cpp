//===- BankGridView.cpp - The worst warp's bank grid as text and as SVG ---===//
#include "cuda-bank-lint/Report/BankGridView.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

namespace cbl {

std::string laneRanges(uint32_t Lanes, const char *Sep) {
  std::string Out;
  for (unsigned L = 0; L < WarpSize;) {
    if (!(Lanes >> L & 1)) {
      ++L;
      continue;
    }
    unsigned E = L;
    while (E + 1 < WarpSize && (Lanes >> (E + 1) & 1))
      ++E;
    Out += (Out.empty() ? "" : Sep) + (E == L ? std::to_string(L) : fmt::format("{}-{}", L, E));
    L = E + 1;
  }
  return Out;
}

std::string escapeHtml(const std::string &Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text)
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    case '\'': Out += "&#39;"; break;
    default: Out += C;
    }
  return Out;
}

namespace {

unsigned lowestLane(uint32_t Lanes) { return unsigned(__builtin_ctz(Lanes)); }

/// "wf", "cas" or "try": the label of a row.
const char *rowPrefix(GridRows M) {
  return M == GridRows::Wavefronts ? "wf" : M == GridRows::CasPairs ? "cas" : "try";
}

/// Banks at least one cell uses.
std::vector<bool> usedBanks(const BankGrid &G) {
  std::vector<bool> Used(G.Banks, false);
  for (const GridCell &C : G.Cells)
    Used[C.Bank] = true;
  return Used;
}

/// The banks that hold more than one word in some phase: the conflict.
std::vector<bool> conflictedBanks(const BankGrid &G) {
  std::vector<bool> Hot(G.Banks, false);
  if (G.Meaning == GridRows::LoopIterations)
    return Hot;
  for (const GridPhase &P : G.Phases) {
    std::vector<unsigned> Words(G.Banks, 0);
    for (const GridCell &C : G.Cells)
      if (C.Row >= P.FirstRow && C.Row < P.FirstRow + P.Rows && ++Words[C.Bank] > 1)
        Hot[C.Bank] = true;
  }
  return Hot;
}

/// The phase that starts at Row, if one does and the grid has several.
const GridPhase *phaseStartingAt(const BankGrid &G, unsigned Row) {
  if (G.Phases.size() < 2)
    return nullptr;
  for (const GridPhase &P : G.Phases)
    if (P.FirstRow == Row)
      return &P;
  return nullptr;
}

/// A colour per distinct word, in order of first appearance: neighbours in
/// that order are far apart on the colour wheel (the golden angle).
std::map<uint64_t, unsigned> wordHues(const BankGrid &G) {
  std::map<uint64_t, unsigned> Hue;
  std::vector<std::pair<unsigned, uint64_t>> First; // lowest lane, word
  for (const GridCell &C : G.Cells)
    First.push_back({lowestLane(C.Lanes), C.Word});
  std::stable_sort(First.begin(), First.end());
  for (const auto &[Lane, Word] : First)
    if (!Hue.count(Word))
      Hue[Word] = unsigned(Hue.size() * 137.508) % 360;
  return Hue;
}

} // namespace

std::string gridCaption(const AccessRecord &R) {
  const BankGrid &G = R.Grid;
  if (G.empty())
    return "";
  std::string Out;
  switch (G.Meaning) {
  case GridRows::Wavefronts:
    Out = fmt::format("{} row{}, one per wavefront: {} wavefront{} (ideal {})", G.Rows,
                      G.Rows == 1 ? "" : "s", R.Wavefronts, R.Wavefronts == 1 ? "" : "s", R.Ideal);
    break;
  case GridRows::CasPairs:
    Out = fmt::format("{} row{}, two wavefronts each (atomicCAS serves the lanes of a bank one at "
                      "a time): {} wavefronts (ideal {})",
                      G.Rows, G.Rows == 1 ? "" : "s", R.Wavefronts, R.Ideal);
    break;
  case GridRows::LoopIterations:
    Out = fmt::format("{} row{}, one per try of the compare-and-swap loop (two wavefronts each), "
                      "each lane in the try in which its swap succeeds: {} wavefronts (ideal {}) "
                      "in {} iteration{}",
                      G.Rows, G.Rows == 1 ? "" : "s", R.Wavefronts, R.Ideal, R.Iterations,
                      R.Iterations == 1 ? "" : "s");
    break;
  }
  if (G.Phases.size() > 1 && G.Meaning != GridRows::LoopIterations) {
    Out += fmt::format("; served in {} phases (", G.Phases.size());
    for (size_t I = 0; I < G.Phases.size(); ++I)
      Out += (I ? "; " : "") + std::string("lanes ") + laneRanges(G.Phases[I].Lanes);
    Out += ")";
  }
  return Out;
}

std::string gridText(const AccessRecord &R, const std::string &Indent) {
  const BankGrid &G = R.Grid;
  if (G.empty())
    return "";
  std::vector<bool> Used = usedBanks(G);
  // cell text per (row, bank)
  std::vector<std::vector<std::string>> Cell(G.Rows, std::vector<std::string>(G.Banks));
  size_t Width = 2;
  for (const GridCell &C : G.Cells) {
    std::string &T = Cell[C.Row][C.Bank];
    T = std::to_string(lowestLane(C.Lanes)) + (__builtin_popcount(C.Lanes) > 1 ? "+" : "");
    Width = std::max(Width, T.size());
  }
  const std::string Prefix = rowPrefix(G.Meaning);
  const size_t Label = Prefix.size() + 1 + std::to_string(G.Rows).size();
  std::string Out = Indent + fmt::format("{:<{}}", "bank", Label + 1);
  for (unsigned B = 0; B < G.Banks; ++B)
    if (Used[B])
      Out += fmt::format(" {:>{}}", B, Width);
  Out += "\n";
  for (unsigned Row = 0; Row < G.Rows; ++Row) {
    std::string Line = Indent + fmt::format("{:>{}}:", Prefix + " " + std::to_string(Row + 1), Label);
    for (unsigned B = 0; B < G.Banks; ++B)
      if (Used[B])
        Line += fmt::format(" {:>{}}", Cell[Row][B].empty() ? "." : Cell[Row][B], Width);
    if (const GridPhase *P = phaseStartingAt(G, Row))
      Line += "   lanes " + laneRanges(P->Lanes, ",");
    Out += Line + "\n";
  }
  uint32_t Unused = 0;
  for (unsigned B = 0; B < G.Banks; ++B)
    if (!Used[B])
      Unused |= 1u << B;
  if (Unused)
    Out += Indent + "no lane uses bank" + std::string(__builtin_popcount(Unused) > 1 ? "s " : " ") +
           laneRanges(Unused) + "\n";
  return Out;
}

std::string gridSvg(const AccessRecord &R) {
  const BankGrid &G = R.Grid;
  if (G.empty())
    return "";
  constexpr unsigned CellW = 36, CellH = 20, Left = 44, Top = 34, Right = 92;
  const unsigned Width = Left + G.Banks * CellW + Right, Height = Top + G.Rows * CellH + 4;
  const std::vector<bool> Hot = conflictedBanks(G);
  const std::map<uint64_t, unsigned> Hue = wordHues(G);
  const char *Prefix = rowPrefix(G.Meaning);
  std::string S = fmt::format(
      "<svg class=\"grid\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" aria-label=\"{2}\" data-rows=\"{3}\" data-banks=\"{4}\">\n",
      Width, Height, escapeHtml("lanes by bank and " + std::string(gridRowsName(G.Meaning))),
      G.Rows, G.Banks);
  S += fmt::format("<text x=\"{}\" y=\"12\" class=\"axis\">bank</text>\n", Left);
  for (unsigned B = 0; B < G.Banks; ++B)
    S += fmt::format("<text x=\"{}\" y=\"28\" class=\"bank{}\" text-anchor=\"middle\">{}</text>\n",
                     Left + B * CellW + CellW / 2, Hot[B] ? " hot" : "", B);
  S += fmt::format("<text x=\"4\" y=\"28\" class=\"axis\">{}</text>\n", Prefix);
  const unsigned GridW = G.Banks * CellW, GridH = G.Rows * CellH;
  S += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fafbfc\"/>\n", Left, Top,
                   GridW, GridH);
  for (unsigned B = 0; B <= G.Banks; ++B)
    S += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e1e4e8\"/>\n",
                     Left + B * CellW, Top, Top + GridH);
  for (unsigned Row = 0; Row <= G.Rows; ++Row)
    S += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#e1e4e8\"/>\n", Left,
                     Top + Row * CellH, Left + GridW);
  for (unsigned Row = 0; Row < G.Rows; ++Row)
    S += fmt::format("<text x=\"{}\" y=\"{}\" class=\"row\" text-anchor=\"end\">{}</text>\n",
                     Left - 6, Top + Row * CellH + 14, Row + 1);
  for (const GridCell &C : G.Cells) {
    unsigned X = Left + C.Bank * CellW, Y = Top + C.Row * CellH;
    unsigned N = unsigned(__builtin_popcount(C.Lanes));
    std::string Lanes = laneRanges(C.Lanes, ",");
    std::string Shown = Lanes.size() <= 5 ? Lanes : fmt::format("\u00d7{}", N);
    S += fmt::format("<g class=\"cell\" data-bank=\"{}\" data-row=\"{}\" data-word=\"{}\" "
                     "data-lanes=\"{}\"><title>bank {}, {} {}: word {}, lane{} {}</title>"
                     "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"hsl({},70%,78%)\" stroke=\"#fff\"/>"
                     "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>\n",
                     C.Bank, C.Row + 1, C.Word, Lanes, C.Bank, gridRowsName(G.Meaning), C.Row + 1,
                     C.Word, N == 1 ? "" : "s", laneRanges(C.Lanes), X, Y, CellW, CellH,
                     Hue.at(C.Word), X + CellW / 2, Y + 14, escapeHtml(Shown));
  }
  for (const GridPhase &P : G.Phases) {
    unsigned Y = Top + P.FirstRow * CellH;
    if (G.Phases.size() > 1 && G.Meaning != GridRows::LoopIterations) {
      S += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#1d2430\" stroke-width=\"2\"/>\n", Left, Y,
                       Left + G.Banks * CellW, Y);
      S += fmt::format("<text x=\"{}\" y=\"{}\" class=\"axis\">lanes {}</text>\n",
                       Left + G.Banks * CellW + 6, Y + 14, laneRanges(P.Lanes, ","));
    }
  }
  return S + "</svg>\n";
}

} // namespace cbl
