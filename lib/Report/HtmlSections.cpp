//===- HtmlSections.cpp - The pieces of the HTML report ---------------------===//
#include "HtmlSites.h"
#include "cuda-bank-lint/Report/BankGridView.h"

#include <fmt/format.h>

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace cbl::html {

Context::Context(const RunReport &R, const HtmlOptions &Opts)
    : Report(R), Opts(Opts), Paths(R, Opts.PathRoot) {}

std::string Context::pageOf(const std::string &File) {
  auto [It, New] = Pages.try_emplace(File);
  if (!New)
    return It->second;
  std::string Name;
  for (char Ch : Paths.path(File))
    Name += std::isalnum(static_cast<unsigned char>(Ch)) || Ch == '.' || Ch == '-' ? Ch : '_';
  Name = Name.empty() ? "source" : Name;
  std::string Unique = Name + ".html";
  for (unsigned N = 2; Unique == "index.html" || std::any_of(Pages.begin(), Pages.end(), [&](const auto &P) {
                         return P.first != File && P.second == Unique;
                       });
       ++N)
    Unique = Name + "-" + std::to_string(N) + ".html";
  return It->second = Unique;
}

void Context::addAnchor(const std::string &File, const std::string &Anchor,
                        std::pair<unsigned, unsigned> At) {
  Anchors.try_emplace({File, At.first, At.second}, Anchor);
}

std::string Context::link(const SourcePos &P) {
  if (!P.valid() || !Pages.count(P.File))
    return "";
  auto It = Anchors.find({P.File, P.Line, P.Column});
  return Pages[P.File] + (It == Anchors.end() ? "" : "#" + It->second);
}

std::string Context::linked(const SourcePos &P) {
  std::string Text = escapeHtml(position(P)), To = link(P);
  return To.empty() ? Text : "<a href=\"" + To + "\">" + Text + "</a>";
}

std::string Context::text(const std::string &Message) const {
  return escapeHtml(Paths.text(Message));
}

const std::vector<std::string> &Context::lines(const std::string &File) {
  auto [It, New] = Sources.try_emplace(File);
  if (New)
    if (auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true)) {
      llvm::StringRef Text = (*Buf)->getBuffer();
      while (!Text.empty()) {
        auto [Line, Rest] = Text.split('\n');
        It->second.push_back(Line.rtrim('\r').str());
        Text = Rest;
      }
    }
  return It->second;
}

namespace {

bool costed(const AccessRecord &A) {
  return (A.Status == VerdictStatus::Exact || A.Status == VerdictStatus::Bound) && !A.NeverExecuted &&
         A.Wavefronts > 0;
}

uint64_t requestExcess(const AccessRecord &A) {
  return costed(A) && A.Wavefronts > A.Ideal ? A.Wavefronts - A.Ideal : 0;
}

bool samePos(const SourcePos &P, const std::string &File, unsigned Line, unsigned Column) {
  return P.File == File && P.Line == Line && P.Column == Column;
}

/// The finding reported for the site: at its position, else at a call
/// leading to it (an access in a library is reported at the user's call).
const Finding *reportedAt(const RunReport &R, const Site &S) {
  for (const Finding &F : R.Findings)
    if (samePos(F.Where, S.File, S.Line, S.Column))
      return &F;
  for (const Finding &F : R.Findings)
    for (const AccessRecord *A : S.Records)
      for (const CallFrame &Call : A->CallChain)
        if (samePos(F.Where, Call.Site.File, Call.Site.Line, Call.Site.Column))
          return &F;
  return nullptr;
}

Excess excessOf(const std::vector<const AccessRecord *> &Records) {
  Excess E;
  for (const AccessRecord *A : Records) {
    if (!costed(*A))
      continue;
    E.Block += A->BlockWavefronts > A->BlockIdeal ? A->BlockWavefronts - A->BlockIdeal : 0;
    E.AtLeast |= A->BlockIterations == 0 && A->Wavefronts > A->Ideal;
  }
  E.Request = requestExcess(*Records.front());
  E.Bound = Records.front()->Status == VerdictStatus::Bound;
  return E;
}

} // namespace

std::vector<Site> collectSites(Context &C) {
  std::map<std::tuple<std::string, unsigned, unsigned>, Site> ByPos;
  for (const AccessRecord &A : C.Report.Accesses) {
    Site &S = ByPos[{A.Where.File, A.Where.Line, A.Where.Column}];
    S.File = A.Where.File;
    S.Line = A.Where.Line;
    S.Column = A.Where.Column;
    S.Records.push_back(&A);
  }
  std::vector<Site> Sites;
  for (auto &[Pos, S] : ByPos) {
    std::stable_sort(S.Records.begin(), S.Records.end(), [](const AccessRecord *A, const AccessRecord *B) {
      return std::make_tuple(costed(*A), requestExcess(*A), A->Degree) >
             std::make_tuple(costed(*B), requestExcess(*B), B->Degree);
    });
    S.Cost = excessOf(S.Records);
    S.Reported = reportedAt(C.Report, S);
    S.Page = C.pageOf(S.File);
    S.Anchor = fmt::format("L{}C{}", S.Line, S.Column);
    Sites.push_back(std::move(S));
  }
  return Sites;
}

std::string accessKind(const AccessRecord &R) {
  std::string Kind = R.Op == AccessOp::Load ? "load" : R.Op == AccessOp::Store ? "store" : "atomic";
  return R.Instruction.empty() ? Kind : Kind + " '" + R.Instruction + "'";
}

std::string verdictWords(const AccessRecord &R) {
  if (R.NeverExecuted)
    return "never executed";
  if (!costed(R))
    return verdictStatusName(R.Status);
  if (R.Wavefronts <= R.Ideal)
    return "conflict-free";
  return fmt::format("{}{}-way", R.Status == VerdictStatus::Bound ? "at most " : "", R.Degree);
}

std::string excessText(uint64_t N, bool Bound, bool AtLeast) {
  return (Bound ? "\u2264 " : AtLeast ? "\u2265 " : "") + std::to_string(N);
}

std::string sourceExcerpt(Context &C, const std::string &File, unsigned Line, unsigned Column,
                          unsigned Length) {
  const std::vector<std::string> &Lines = C.lines(File);
  if (Line == 0 || Line > Lines.size())
    return "<p class=\"nosrc\">source not available (" + escapeHtml(C.Paths.path(File)) + ")</p>\n";
  unsigned First = Line > C.Opts.ContextLines ? Line - C.Opts.ContextLines : 1;
  unsigned Last = std::min<unsigned>(unsigned(Lines.size()), Line + C.Opts.ContextLines);
  std::string Out = "<pre class=\"src\">";
  for (unsigned N = First; N <= Last; ++N) {
    const std::string &L = Lines[N - 1];
    std::string Body = escapeHtml(L);
    if (N == Line && Column >= 1 && Column <= L.size() + 1) {
      size_t B = Column - 1, E = std::min(L.size(), B + std::max(1u, Length));
      Body = escapeHtml(L.substr(0, B)) + "<mark>" + escapeHtml(L.substr(B, E - B)) + "</mark>" +
             escapeHtml(L.substr(E));
    }
    Out += fmt::format("<span class=\"line{}\"><span class=\"ln\">{:>5}</span> {}</span>\n",
                       N == Line ? " hit" : "", N, Body);
  }
  return Out + "</pre>\n";
}

namespace {

/// The driver's kernels not modelled, grouped by reason.
std::string unmodelledKernels(Context &C, const std::string &File) {
  std::map<std::string, std::string> ByReason;
  for (const HtmlUnmodelledKernel &K : C.Opts.Unmodelled) {
    if (!File.empty() && K.File != File && K.Where.File != File)
      continue;
    std::string &L = ByReason[K.Reason];
    L += (L.empty() ? "" : ", ") + std::string("<code>") + escapeHtml(K.Kernel) + "</code>" +
         (K.Where.valid() ? " (" + C.linked(K.Where) + ")" : "");
  }
  std::string Out;
  for (const auto &[Reason, Kernels] : ByReason)
    Out += "<li>" + escapeHtml(Reason) + ": " + Kernels + "</li>\n";
  return Out.empty() ? "" : "<h3>Kernels whose shared memory is not modelled</h3>\n<ul>\n" + Out + "</ul>\n";
}

/// Access records without a cost, grouped by status and reason.
std::string uncostedAccesses(Context &C, const std::vector<Site> &Sites, const std::string &File) {
  std::map<std::pair<std::string, std::string>, std::vector<const Site *>> Groups;
  for (const Site &S : Sites) {
    const AccessRecord &A = S.worst();
    if ((File.empty() || S.File == File) && A.Status != VerdictStatus::Exact &&
        A.Status != VerdictStatus::Bound)
      Groups[{verdictStatusName(A.Status), A.Reason}].push_back(&S);
  }
  if (Groups.empty())
    return "";
  std::string Out = "<h3>Accesses without a cost</h3>\n<table class=\"list\"><tr><th>status</th>"
                    "<th>reason</th><th>accesses</th></tr>\n";
  for (const auto &[Key, Of] : Groups) {
    std::string Where;
    for (size_t I = 0; I < Of.size() && I < 8; ++I)
      Where += (I ? ", " : "") + fmt::format("<a href=\"{}#{}\">{}</a>", Of[I]->Page, Of[I]->Anchor,
                                             escapeHtml(C.position({Of[I]->File, Of[I]->Line, Of[I]->Column})));
    if (Of.size() > 8)
      Where += fmt::format(", \u2026 ({} in all)", Of.size());
    Out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", escapeHtml(Key.first),
                       C.text(Key.second), Where);
  }
  return Out + "</table>\n";
}

/// Files and functions not analysed, and what the front end saw but left out.
std::string unitNotes(Context &C, const std::string &File) {
  std::string Out;
  for (const UnitProblem &P : unitProblems(C.Report, C.Paths))
    if (File.empty() || P.File == File || P.Where.File == File)
      Out += fmt::format("<li class=\"{}\">{}{}</li>\n", severityName(P.Level),
                         P.Where.valid() ? C.linked(P.Where) + ": " : "", C.text(P.Message));
  for (const UnitStatus &U : C.Report.Units)
    for (const FrontEndNote &N : U.Notes)
      if (File.empty() || U.File == File || N.Where.File == File)
        Out += "<li>" + (N.Where.valid() ? C.linked(N.Where) + ": " : std::string()) +
               C.text(N.Message) + "</li>\n";
  return Out.empty() ? "" : "<h3>Not analysed, or seen and left out</h3>\n<ul>\n" + Out + "</ul>\n";
}

} // namespace

std::string notModelled(Context &C, const std::vector<Site> &Sites, const std::string &File) {
  std::string Body = unmodelledKernels(C, File) + uncostedAccesses(C, Sites, File) + unitNotes(C, File);
  if (Body.empty())
    return "";
  return "<section id=\"not-modelled\">\n<h2>What the tool could not model</h2>\n" + Body +
         "</section>\n";
}

} // namespace cbl::html
