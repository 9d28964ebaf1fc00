//===- TextReporter.cpp - clang-style diagnostics on a terminal -------------===//
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/Support/MemoryBuffer.h"
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

namespace cbl {

namespace {

/// Source lines for carets; files are read and their line starts indexed
/// once per run (a lookup is then constant time, not a scan from the top).
class SourceLines {
public:
  std::optional<std::string> line(const std::string &File, unsigned Line) {
    auto It = Files.find(File);
    if (It == Files.end()) {
      Indexed F;
      if (auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true)) {
        F.Buffer = std::move(*Buf);
        llvm::StringRef Text = F.Buffer->getBuffer();
        F.Starts.push_back(0);
        for (size_t I = 0; I < Text.size(); ++I)
          if (Text[I] == '\n')
            F.Starts.push_back(I + 1);
      }
      It = Files.emplace(File, std::move(F)).first;
    }
    const Indexed &F = It->second;
    if (!F.Buffer || Line == 0 || Line > F.Starts.size())
      return std::nullopt;
    llvm::StringRef Text = F.Buffer->getBuffer().drop_front(F.Starts[Line - 1]);
    return Text.take_until([](char C) { return C == '\n' || C == '\r'; }).str();
  }

private:
  struct Indexed {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<size_t> Starts; ///< byte offset of each line
  };
  std::map<std::string, Indexed> Files;
};

void printLocated(llvm::raw_ostream &OS, SourceLines &Src, const SourcePos &P, const char *Level,
                  const std::string &Message, const std::string &Check,
                  const std::vector<FixIt> &Fixes, const TextOptions &Opts, bool Snippet = true) {
  if (P.valid())
    OS << P.File << ":" << P.Line << ":" << P.Column << ": ";
  if (Opts.Color)
    OS.changeColor(std::string(Level) == "warning" ? llvm::raw_ostream::MAGENTA
                   : std::string(Level) == "error" ? llvm::raw_ostream::RED
                                                   : llvm::raw_ostream::CYAN,
                   true);
  OS << Level << ":";
  if (Opts.Color)
    OS.resetColor();
  OS << " " << Message;
  if (!Check.empty())
    OS << " [" << Check << "]";
  OS << "\n";
  if (!P.valid() || !Snippet)
    return;
  auto Line = Src.line(P.File, P.Line);
  if (!Line)
    return;
  std::string Gutter = fmt::format("{:>5} | ", P.Line);
  OS << Gutter << *Line << "\n";
  std::string Pad(Gutter.size() - 2, ' ');
  std::string Caret;
  for (unsigned I = 1; I < P.Column && I <= Line->size(); ++I)
    Caret += (*Line)[I - 1] == '\t' ? '\t' : ' ';
  OS << Pad << "| " << Caret << "^\n";
  for (const FixIt &F : Fixes)
    if (F.Range.Begin.Line == P.Line && F.Range.Begin.File == P.File) {
      std::string Under;
      for (unsigned I = 1; I < F.Range.Begin.Column && I <= Line->size(); ++I)
        Under += (*Line)[I - 1] == '\t' ? '\t' : ' ';
      OS << Pad << "| " << Under << F.Text << "\n";
    }
}

void printExplain(llvm::raw_ostream &OS, const AccessRecord &R) {
  OS << R.Where.File << ":" << R.Where.Line << ":" << R.Where.Column << ": remark: "
     << (R.Op == AccessOp::Load ? "load" : R.Op == AccessOp::Store ? "store" : "atomic");
  if (!R.Instruction.empty())
    OS << " '" << R.Instruction << "'";
  if (R.Width)
    OS << " of " << R.Width << " bytes";
  OS << " from '"
     << R.Array << "' in '" << R.Function << "' (" << R.Spelling << "): ";
  bool Bound = R.Status == VerdictStatus::Bound;
  if (R.Status != VerdictStatus::Exact && !Bound) {
    OS << verdictStatusName(R.Status) << ": " << R.Reason << "\n";
    return;
  }
  if (R.NeverExecuted) {
    OS << "no thread of the block executes it\n";
    return;
  }
  if (Bound && R.Wavefronts == 0) { // a condition without a computed cost
    OS << "bound: " << R.Reason << "\n";
    return;
  }
  std::vector<std::string> Over = R.Parameters;
  for (const std::string &B : R.BoundBy)
    if (std::find(Over.begin(), Over.end(), B) == Over.end())
      Over.push_back(B);
  if (R.Wavefronts > R.Ideal)
    OS << (Bound ? "at most " : "") << R.Degree << "-way bank conflict";
  else
    OS << "conflict-free";
  OS << ", " << R.Wavefronts << (R.Wavefronts == 1 ? " wavefront" : " wavefronts") << " (ideal "
     << R.Ideal << ") in warp " << R.WorstWarp;
  if (Bound && R.Wavefronts > R.Ideal) {
    OS << "; " << R.Reason; // an upper bound, and what it depends on
  } else if (!Over.empty()) {
    OS << "; holds for all values of ";
    for (size_t I = 0; I < Over.size(); ++I)
      OS << (I ? ", " : "") << Over[I];
  }
  OS << "\n  byte offset = " << R.Index << "\n";
  for (const std::string &U : R.AssumedUniform)
    OS << "  assuming the warp-uniform condition '" << U << "' holds\n";
  if (R.Lanes.empty())
    return;
  OS << "  lane  threadIdx        byte offset  bank      word\n";
  for (const LaneRow &L : R.Lanes) {
    if (!L.Active) {
      OS << fmt::format("  {:>4}  ({},{},{}){:>{}}inactive\n", L.Lane, L.Tid[0], L.Tid[1], L.Tid[2],
                        "", 6);
      continue;
    }
    std::string Tid = fmt::format("({},{},{})", L.Tid[0], L.Tid[1], L.Tid[2]);
    OS << fmt::format("  {:>4}  {:<15} {:>11}  {:>4}  {:>8}\n", L.Lane, Tid, L.Address, L.Bank, L.Word);
  }
}

} // namespace

void printText(const RunReport &R, llvm::raw_ostream &OS, const TextOptions &Opts) {
  SourceLines Src;
  for (const Finding &F : R.Findings) {
    printLocated(OS, Src, F.Where, severityName(F.Level), F.Message, F.Check, F.Fixes, Opts);
    // Notes about the same spot do not repeat its source line.
    for (const FindingNote &N : F.Notes) {
      bool Same = N.Where.File == F.Where.File && N.Where.Line == F.Where.Line;
      printLocated(OS, Src, N.Where, "note", N.Message, "", N.Fixes, Opts, !Same || !N.Fixes.empty());
    }
  }
  if (Opts.Explain)
    for (const AccessRecord &A : R.Accesses)
      printExplain(OS, A);
}

} // namespace cbl
