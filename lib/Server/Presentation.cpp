//===- Presentation.cpp - An analysis as LSP diagnostics, actions, hovers --===//
#include "cuda-bank-lint/Server/Presentation.h"
#include "cuda-bank-lint/Support/Paths.h"
#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Report/BankGridView.h"
#include "cuda-bank-lint/Report/Reporters.h"
#include "cuda-bank-lint/Support/BuildConfig.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <set>
#include <tuple>

namespace cbl {

namespace {

/// Line indexes of the files a result locates things in, made on demand.
class Texts {
public:
  Texts(const BufferResult &R, PositionEncoding Encoding) : R(R), Encoding(Encoding) {}
  const LineIndex &of(const std::string &File) {
    std::string Key = absolutePath(File);
    auto It = Indexes.find(Key);
    if (It == Indexes.end()) {
      Storage.push_back(std::make_unique<std::string>(R.textOf(Key)));
      It = Indexes.emplace(Key, LineIndex(*Storage.back(), Encoding)).first;
    }
    return It->second;
  }
  bool isDocument(const std::string &File) const {
    return !File.empty() && absolutePath(File) == R.Of.Path;
  }
  /// From (Line, Column) over Length bytes; a zero length reaches over the
  /// identifier, or the quoted or <bracketed> header name, there (at least
  /// one character).
  llvm::json::Value rangeAt(const std::string &File, unsigned Line, unsigned Column,
                            size_t Length = 0) {
    const LineIndex &Index = of(File);
    size_t Begin = Index.offset(Line, Column);
    if (!Length) {
      llvm::StringRef Rest = Index.line(Line ? Line - 1 : 0).drop_front(Begin - Index.offset(Line, 1));
      size_t Close = Rest.empty() ? llvm::StringRef::npos
                     : Rest[0] == '"' ? Rest.find('"', 1)
                     : Rest[0] == '<' ? Rest.find('>', 1)
                                      : llvm::StringRef::npos;
      Length = Close != llvm::StringRef::npos
                   ? Close + 1
                   : Rest.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; }).size();
      Length = std::max<size_t>(1, Length);
    }
    return range(Index.position(Begin), Index.position(Begin + Length));
  }
  llvm::json::Value rangeOf(const SourcePos &P) { return rangeAt(P.File, P.Line, P.Column); }

private:
  const BufferResult &R;
  PositionEncoding Encoding;
  std::vector<std::unique_ptr<std::string>> Storage;
  std::map<std::string, LineIndex> Indexes;
};

int severity(llvm::StringRef Level) {
  if (Level == "error" || Level == "fatal error")
    return 1;
  return Level == "warning" ? 2 : 3;
}

int severity(Severity S) {
  return S == Severity::Error ? 1 : S == Severity::Warning ? 2 : 3;
}

llvm::json::Object diagnostic(llvm::json::Value Range, int Level, std::string Message) {
  return llvm::json::Object{{"range", std::move(Range)},
                            {"severity", Level},
                            {"source", "cuda-bank-lint"},
                            {"message", std::move(Message)}};
}

llvm::json::Value firstLine(Texts &T, const std::string &Document) {
  return T.rangeAt(Document, 1, 1, T.of(Document).line(0).size());
}

/// The finding as a diagnostic: its caret range when it has one on its line,
/// its key note under the message, the other notes as related information.
llvm::json::Object findingDiagnostic(const Finding &F, Texts &T) {
  llvm::json::Value Range = T.rangeOf(F.Where);
  for (const SourceSpan &S : F.Ranges)
    if (S.Length && S.Begin.Line == F.Where.Line && T.isDocument(S.Begin.File)) {
      Range = T.rangeAt(S.Begin.File, S.Begin.Line, S.Begin.Column, S.Length);
      break;
    }
  std::string Message = F.Message;
  llvm::json::Array Related;
  for (const FindingNote &N : F.Notes) {
    if (N.Role == NoteRole::Key) { // the line that explains it, under the message
      Message += "\n" + N.Message;
      continue;
    }
    if (!N.Where.valid()) {
      Message += "\nnote: " + N.Message;
      continue;
    }
    Related.push_back(llvm::json::Object{
        {"location",
         llvm::json::Object{{"uri", uriFromPath(absolutePath(N.Where.File))},
                            {"range", T.rangeOf(N.Where)}}},
        {"message", N.Message}});
  }
  llvm::json::Object D = diagnostic(std::move(Range), severity(F.Level), std::move(Message));
  D["code"] = F.Check;
  D["codeDescription"] = llvm::json::Object{{"href", checkDocumentation(F.Check)}};
  if (!Related.empty())
    D["relatedInformation"] = std::move(Related);
  return D;
}

/// One line of the driver's messages ("file:line:col: error: ...",
/// "file: note: ...", "error: ...").
struct MessageLine {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Level, Text;
};

std::optional<MessageLine> parseMessage(llvm::StringRef Line) {
  static const llvm::Regex Located(
      "^(.+):([0-9]+):([0-9]+): (fatal error|error|warning|remark|note): (.*)$");
  static const llvm::Regex InFile("^(.+): (fatal error|error|warning|remark|note): (.*)$");
  static const llvm::Regex Bare("^(fatal error|error|warning|remark|note): (.*)$");
  llvm::SmallVector<llvm::StringRef, 6> M;
  MessageLine Out;
  if (Located.match(Line, &M)) {
    Out = {M[1].str(), 0, 0, M[4].str(), M[5].str()};
    M[2].getAsInteger(10, Out.Line);
    M[3].getAsInteger(10, Out.Column);
  } else if (Bare.match(Line, &M)) {
    Out = {"", 0, 0, M[1].str(), M[2].str()};
  } else if (InFile.match(Line, &M)) {
    Out = {M[1].str(), 0, 0, M[2].str(), M[3].str()};
  } else {
    return std::nullopt; // source excerpts, carets
  }
  return Out;
}

/// The compiler's errors and the tool's messages: those located in the
/// document where they are, the others on its first line (with their
/// location); a located note right after an error or a warning is its
/// related information.
void addMessages(const BufferResult &R, Texts &T, llvm::json::Array &Out) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(R.Outcome.Messages).split(Lines, '\n', -1, false);
  llvm::json::Object *Last = nullptr;
  for (llvm::StringRef Text : Lines) {
    std::optional<MessageLine> M = parseMessage(Text.rtrim('\r'));
    if (!M)
      continue;
    bool Here = T.isDocument(M->File) && M->Line;
    std::string Where = M->Line ? M->File + ":" + std::to_string(M->Line) + ":" +
                                      std::to_string(M->Column) + ": "
                                : (M->File.empty() || Here ? "" : M->File + ": ");
    if (M->Level == "note" && Last && M->Line) {
      llvm::json::Array &Related = *(*Last)["relatedInformation"].getAsArray();
      Related.push_back(llvm::json::Object{
          {"location", llvm::json::Object{{"uri", uriFromPath(absolutePath(M->File))},
                                          {"range", T.rangeAt(M->File, M->Line, M->Column)}}},
          {"message", M->Text}});
      continue;
    }
    llvm::json::Value Range = Here ? T.rangeAt(M->File, M->Line, M->Column)
                                   : firstLine(T, R.Of.Path);
    Out.push_back(diagnostic(std::move(Range), severity(M->Level),
                             (Here ? "" : Where) + M->Text));
    Last = nullptr;
    if (M->Level != "note" && M->Level != "remark") {
      Last = Out.back().getAsObject();
      (*Last)["relatedInformation"] = llvm::json::Array();
    }
  }
  for (llvm::json::Value &D : Out) // no empty lists
    if (llvm::json::Array *A = D.getAsObject()->getArray("relatedInformation"); A && A->empty())
      D.getAsObject()->erase("relatedInformation");
}

} // namespace

std::string checkDocumentation(const std::string &Check) {
  // As the SARIF rules' helpUri (CommandLine.cpp): the page of the registered
  // check that reports under this name.
  std::string Page = Check;
  for (const CheckInfo &C : registeredChecks())
    if (llvm::is_contained(C.FindingNames, Check) || C.Name == Check)
      Page = C.Name;
  return CBL_DOCS_URL "/checks/" + Page.substr(Page.find('-') + 1) + ".md";
}

llvm::json::Array diagnostics(const BufferResult &R, PositionEncoding Encoding) {
  Texts T(R, Encoding);
  llvm::json::Array Out;
  if (!R.Problem.empty()) {
    llvm::StringRef Problem = llvm::StringRef(R.Problem).trim();
    Out.push_back(diagnostic(firstLine(T, R.Of.Path), 1,
                             Problem.str() + (Problem.ends_with("(nothing analysed)")
                                                  ? ""
                                                  : " (nothing analysed)")));
    return Out;
  }
  addMessages(R, T, Out);
  for (const Finding &F : R.Outcome.Report.Findings)
    if (T.isDocument(F.Where.File) && F.Where.valid())
      Out.push_back(findingDiagnostic(F, T));
  return Out;
}

namespace {

bool before(const llvm::json::Value &A, const Position &B) {
  const llvm::json::Object &O = *A.getAsObject();
  int64_t L = *O.getInteger("line"), C = *O.getInteger("character");
  return std::tie(L, C) < std::make_tuple(int64_t(B.Line), int64_t(B.Character));
}

/// The fix-its of F as one quick fix (its edits grouped by file).
llvm::json::Object quickFix(const Finding &F, llvm::json::Object Diagnostic, Texts &T) {
  std::map<std::string, llvm::json::Array> Edits;
  std::string Title;
  for (const FixIt &X : F.Fixes) {
    const SourcePos &B = X.Range.Begin;
    const LineIndex &Index = T.of(B.File);
    size_t Begin = Index.offset(B.Line, B.Column);
    std::string Old = Index.line(B.Line - 1).substr(B.Column - 1, X.Range.Length).str();
    Edits[uriFromPath(absolutePath(B.File))].push_back(llvm::json::Object{
        {"range", range(Index.position(Begin), Index.position(Begin + X.Range.Length))},
        {"newText", X.Text}});
    Title += (Title.empty() ? "" : "; ") + ("replace '" + Old + "' with '" + X.Text + "'");
  }
  llvm::json::Object Changes;
  for (auto &[Uri, List] : Edits)
    Changes[Uri] = std::move(List);
  Title[0] = char(llvm::toUpper(Title[0]));
  return llvm::json::Object{
      {"title", Title + " (verified fix-it of " + F.Check + ")"},
      {"kind", "quickfix"},
      {"isPreferred", true},
      {"diagnostics", llvm::json::Array{std::move(Diagnostic)}},
      {"edit", llvm::json::Object{{"changes", std::move(Changes)}}}};
}

} // namespace

llvm::json::Array codeActions(const BufferResult &R, const Position &Begin, const Position &End,
                              PositionEncoding Encoding) {
  Texts T(R, Encoding);
  llvm::json::Array Out;
  std::set<std::string> Offered; // one padding per array, however many findings carry it
  for (const Finding &F : R.Outcome.Report.Findings) {
    if (F.Fixes.empty() || !T.isDocument(F.Where.File) || !F.Where.valid())
      continue;
    llvm::json::Object D = findingDiagnostic(F, T);
    const llvm::json::Object &Range = *D.getObject("range");
    if (before(*Range.get("end"), Begin) || !before(*Range.get("start"), {End.Line, End.Character + 1}))
      continue;
    std::string Key;
    for (const FixIt &X : F.Fixes)
      Key += X.Range.Begin.File + ":" + std::to_string(X.Range.Begin.Line) + ":" +
             std::to_string(X.Range.Begin.Column) + "=" + X.Text + ";";
    if (Offered.insert(Key).second)
      Out.push_back(quickFix(F, std::move(D), T));
  }
  return Out;
}

llvm::json::Value hover(const BufferResult &R, const Position &P, PositionEncoding Encoding) {
  Texts T(R, Encoding);
  const LineIndex &Index = T.of(R.Of.Path);
  size_t At = Index.offset(P);
  unsigned Line = P.Line + 1;
  unsigned Column = unsigned(At - Index.offset(Line, 1)) + 1;
  // The records of the access under the cursor (one per instance: template
  // instantiation, block shape), the worst first.
  std::vector<const AccessRecord *> Here;
  unsigned Best = 0;
  for (const AccessRecord &A : R.Outcome.Report.Accesses) {
    if (!T.isDocument(A.Where.File) || A.Where.Line != Line || A.Where.Column > Column ||
        Column > A.Where.Column + std::max<size_t>(A.Spelling.size(), 1))
      continue;
    if (A.Where.Column > Best)
      Here.clear(), Best = A.Where.Column;
    if (A.Where.Column == Best)
      Here.push_back(&A);
  }
  if (Here.empty())
    return nullptr;
  std::stable_sort(Here.begin(), Here.end(), [](const AccessRecord *A, const AccessRecord *B) {
    return A->Wavefronts - std::min(A->Wavefronts, A->Ideal) >
           B->Wavefronts - std::min(B->Wavefronts, B->Ideal);
  });
  // The verdict as --explain words it, and instead of its lane table the
  // grid of the worst warp (banks x wavefronts), as the HTML report draws it.
  AccessRecord Verdict = *Here.front();
  Verdict.Lanes.clear();
  std::string Explained;
  llvm::raw_string_ostream OS(Explained);
  printExplain(OS, Verdict);
  if (!Verdict.Grid.empty())
    OS << "  lanes of warp " << Verdict.WorstWarp << " by bank: " << gridCaption(Verdict) << "\n"
       << gridText(Verdict, "  ");
  OS.flush();
  llvm::StringRef Text = Explained;
  size_t Remark = Text.find(": remark: ");
  if (Remark != llvm::StringRef::npos)
    Text = Text.drop_front(Remark + 10);
  std::string Markdown = "**cuda-bank-lint**";
  if (Here.size() > 1)
    Markdown += " (" + std::to_string(Here.size()) + " instances; the worst, in '" +
                Here.front()->Function + "', is shown)";
  Markdown += "\n\n```text\n" + Text.rtrim().str() + "\n```\n";
  const AccessRecord &A = *Here.front();
  size_t Rest = Index.line(Line - 1).size() + 1 - std::min<size_t>(A.Where.Column, Index.line(Line - 1).size() + 1);
  return llvm::json::Object{
      {"contents", llvm::json::Object{{"kind", "markdown"}, {"value", Markdown}}},
      {"range", T.rangeAt(A.Where.File, A.Where.Line, A.Where.Column,
                          std::max<size_t>(1, std::min(A.Spelling.size(), Rest)))}};
}

} // namespace cbl
