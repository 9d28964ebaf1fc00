//===- IRLocations.cpp - Debug locations of the device IR -> source --------===//
#include "IRLocations.h"
#include "SharedArrays.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "clang/Basic/FileManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace clang;

namespace cbl {

namespace {



bool identChar(char C) { return isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// I moved back over spaces and tabs (and line breaks with Lines).
size_t backOverBlanks(StringRef Buf, size_t I, bool Lines = false) {
  while (I > 0 && (Buf[I - 1] == ' ' || Buf[I - 1] == '\t' || (Lines && (Buf[I - 1] == '\n' || Buf[I - 1] == '\r'))))
    --I;
  return I;
}

/// The '(' of the `if (` or `while (` (one of Keywords) whose condition
/// starts at I; npos when there is none.
size_t conditionOpen(StringRef Buf, size_t I, std::initializer_list<StringRef> Keywords) {
  I = backOverBlanks(Buf, I, true);
  if (I == 0 || Buf[I - 1] != '(')
    return StringRef::npos;
  size_t Open = I - 1, K = backOverBlanks(Buf, Open, true);
  for (StringRef W : Keywords)
    if (Buf.substr(0, K).ends_with(W) && (K == W.size() || !identChar(Buf[K - W.size() - 1])))
      return Open;
  return StringRef::npos;
}
} // namespace

IRLocations::IRLocations(SourceManager &SM, const LangOptions &LangOpts,
                         std::vector<std::string> ToolkitDirs)
    : SM(SM), LangOpts(LangOpts), ToolkitDirs(std::move(ToolkitDirs)) {
  for (std::string &D : this->ToolkitDirs)
    D = withoutDots(D);
}

FileID IRLocations::fileOf(const llvm::DIFile *F) {
  if (!F)
    return FileID();
  auto It = Files.find(F);
  if (It != Files.end())
    return It->second;
  // One lookup per distinct file of the line tables (a handful).
  return Files[F] = fileIdOf(SM, pathOf(*F));
}

std::string pathOf(const llvm::DIFile &F) {
  llvm::StringRef Name = F.getFilename();
  if (Name.empty() || llvm::sys::path::is_absolute(Name) || F.getDirectory().empty())
    return Name.str();
  llvm::SmallString<256> Path;
  llvm::sys::path::append(Path, F.getDirectory(), Name);
  return std::string(Path);
}

FileID fileIdOf(const SourceManager &SM, llvm::StringRef Path) {
  // The file manager knows it by path, the source manager gives its first
  // FileID (translateFile walks the source manager's entries: callers keep
  // what they looked up).
  llvm::SmallString<256> Abs(Path);
  SM.getFileManager().makeAbsolutePath(Abs);
  if (auto FE = SM.getFileManager().getOptionalFileRef(withoutDots(Abs), /*OpenFile=*/false,
                                                       /*CacheFailure=*/false))
    return SM.translateFile(*FE);
  return FileID();
}

SourcePos IRLocations::positionOf(const llvm::DILocation *DL, SourceLocation *Loc) {
  if (!DL)
    return SourcePos();
  FileID ID = fileOf(DL->getFile());
  if (ID.isInvalid()) {
    SourcePos P;
    P.File = DL->getFilename().str();
    P.Line = DL->getLine();
    P.Column = DL->getColumn() ? DL->getColumn() : 1;
    return P;
  }
  SourceLocation L = SM.translateLineCol(ID, DL->getLine(), DL->getColumn() ? DL->getColumn() : 1);
  if (Loc)
    *Loc = L;
  return toSourcePos(SM, L);
}

SourcePos IRLocations::positionOf(SourceLocation Loc) { return toSourcePos(SM, Loc); }

bool IRLocations::isToolkit(const llvm::DIScope *Scope) const {
  if (!Scope || !Scope->getFile())
    return false;
  return inToolkit(withoutDots(pathOf(*Scope->getFile())), ToolkitDirs);
}

bool inToolkit(llvm::StringRef P, const std::vector<std::string> &ToolkitDirs) {
  for (const std::string &D : ToolkitDirs)
    if (P.starts_with(D + "/") && !P.substr(D.size()).starts_with("/cccl/"))
      return true;
  return false;
}

IRLocations::Place IRLocations::placeOf(const llvm::DILocation *DL) {
  Place Out;
  if (!DL)
    return Out;
  // Frames from the outermost call inwards: (call site, the callee it enters).
  std::vector<std::pair<const llvm::DILocation *, const llvm::DISubprogram *>> Frames;
  const llvm::DILocation *Inner = DL;
  for (const llvm::DILocation *Cur = DL; Cur->getInlinedAt(); Cur = Cur->getInlinedAt())
    Frames.push_back({Cur->getInlinedAt(), Cur->getScope()->getSubprogram()});
  std::reverse(Frames.begin(), Frames.end());
  // The toolkit's wrappers are not frames: their work is at the user's call.
  while (!Frames.empty() && isToolkit(Frames.back().second)) {
    Inner = Frames.back().first;
    Out.Wrapper = Frames.back().second ? Frames.back().second->getName().str() : "";
    Frames.pop_back();
  }
  Out.Where = positionOf(Inner, &Out.Loc);
  for (const auto &[Site, Callee] : Frames) {
    // A member call is where its object starts (block.sync(): the debug
    // info puts the call at the member's name).
    clang::SourceLocation SiteLoc;
    SourcePos SitePos = positionOf(Site, &SiteLoc);
    if (SiteLoc.isValid())
      SitePos = positionOf(SiteLoc = memberAccessStart(SiteLoc));
    Out.Chain.push_back({SitePos, Callee ? Callee->getName().str() : std::string()});
    if (Out.Library.empty() && Callee && SiteLoc.isValid() && !SM.isInSystemHeader(SiteLoc)) {
      FileID F = fileOf(Callee->getFile());
      if (F.isValid() && SM.isInSystemHeader(SM.getLocForStartOfFile(F)))
        Out.Library = Callee->getName().str();
    }
  }
  return Out;
}

SourceLocation IRLocations::memberAccessStart(SourceLocation Loc) {
  // dims.z, obj.f(), a[i].b->f(), g().f(): the expression starts at its object.
  StringRef Buf;
  size_t At;
  return textAt(Loc, Buf, At) && identChar(Buf[At]) ? lvalueBefore(Loc) : Loc;
}

bool IRLocations::textAt(SourceLocation Loc, StringRef &Buf, size_t &At) {
  if (Loc.isInvalid() || Loc.isMacroID())
    return false;
  bool Invalid = false;
  Buf = SM.getBufferData(SM.getFileID(Loc), &Invalid);
  At = SM.getFileOffset(Loc);
  return !Invalid && At < Buf.size();
}

bool IRLocations::startsWithWord(SourceLocation Loc, StringRef Word) {
  StringRef Buf;
  size_t I;
  size_t E = textAt(Loc, Buf, I) ? I + Word.size() : 0;
  return E && E <= Buf.size() && Buf.substr(I, Word.size()) == Word && (E == Buf.size() || !identChar(Buf[E]));
}

bool IRLocations::lineSpells(const llvm::DILocation *DL, StringRef Word) {
  SourceLocation Loc;
  StringRef Buf;
  size_t At;
  if (!DL || !positionOf(DL, &Loc).valid() || !textAt(Loc, Buf, At))
    return false;
  size_t Begin = Buf.rfind('\n', At), End = Buf.find('\n', At);
  StringRef Line = Buf.slice(Begin == StringRef::npos ? 0 : Begin + 1, End);
  for (size_t I = Line.find(Word); I != StringRef::npos; I = Line.find(Word, I + 1))
    if ((I == 0 || !identChar(Line[I - 1])) && (I + Word.size() == Line.size() || !identChar(Line[I + Word.size()])))
      return true;
  return false;
}

/// "return", "break" or "continue" when S starts with that word.
static std::string jumpWord(StringRef S) {
  for (StringRef Word : {"return", "break", "continue"})
    if (S.starts_with(Word) && (S.size() == Word.size() || !identChar(S[Word.size()])))
      return Word.str();
  return "";
}

std::string IRLocations::ifStatementJump(SourceLocation Loc) {
  StringRef Buf;
  size_t I;
  size_t Open = textAt(Loc, Buf, I) ? conditionOpen(Buf, I, {"if"}) : StringRef::npos;
  if (Open == StringRef::npos)
    return "";
  // Forward over the balanced condition, then the first word of the body.
  int Depth = 0;
  size_t J = Open;
  for (; J < Buf.size(); ++J) {
    if (Buf[J] == '(')
      ++Depth;
    else if (Buf[J] == ')' && --Depth == 0)
      break;
  }
  for (++J; J < Buf.size() && isspace(static_cast<unsigned char>(Buf[J])); ++J)
    ;
  // A block: what its last statement does (`{ s[t] = v; return; }` returns
  // whenever it runs; `{ if (c) return; }` does not).
  if (J < Buf.size() && Buf[J] == '{') {
    size_t Close = J;
    for (int Braces = 0; Close < Buf.size(); ++Close)
      if (Buf[Close] == '{')
        ++Braces;
      else if (Buf[Close] == '}' && --Braces == 0)
        break;
    if (Close >= Buf.size())
      return "";
    // The block without its comments (`return; // only warp 0 goes on`).
    std::string Body;
    for (size_t K = J + 1; K < Close; ++K) {
      if (Buf.substr(K, 2) == "//")
        K = std::min(Buf.find('\n', K), Close) - 1;
      else if (Buf.substr(K, 2) == "/*")
        K = std::min(Buf.find("*/", K), Close) + 1;
      else
        Body += Buf[K];
    }
    StringRef Text = StringRef(Body).rtrim();
    if (!Text.ends_with(";"))
      return "";
    size_t Start = Text.drop_back().find_last_of(";{}");
    return jumpWord(Text.substr(Start == StringRef::npos ? 0 : Start + 1).ltrim());
  }
  return jumpWord(Buf.substr(J));
}

std::string IRLocations::conditionText(SourceLocation Loc) {
  StringRef Buf;
  size_t Start;
  if (!textAt(Loc, Buf, Start) || conditionOpen(Buf, Start, {"if", "while"}) == StringRef::npos)
    return "";
  // To the closing parenthesis on the same line; a whole condition only
  // (one part of a && b has a name of its own).
  int Depth = 0;
  for (size_t J = Start; J < Buf.size() && Buf[J] != '\n'; ++J) {
    if (Buf[J] == '(')
      ++Depth;
    else if (Buf[J] == ')' && Depth-- == 0)
      return Buf.substr(Start, J - Start).rtrim().str();
    else if (Depth == 0 && (Buf.substr(J, 2) == "&&" || Buf.substr(J, 2) == "||" || Buf[J] == '?'))
      return "";
  }
  return "";
}

std::optional<IRLocations::Comparison> IRLocations::comparisonAt(SourceLocation Loc) {
  StringRef Buf;
  size_t At;
  if (!textAt(Loc, Buf, At))
    return std::nullopt;
  // Clang's raw lexer over the line.
  size_t Begin = Buf.rfind('\n', At), End = Buf.find('\n', At);
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  End = End == StringRef::npos ? Buf.size() : End;
  Lexer Lex(SM.getLocForStartOfFile(SM.getFileID(Loc)), LangOpts, Buf.begin(), Buf.begin() + Begin,
            Buf.end());
  std::vector<Token> Toks;
  Token Tok;
  size_t OpIndex = SIZE_MAX;
  while (!Lex.LexFromRawLexer(Tok) && SM.getFileOffset(Tok.getLocation()) < End && Toks.size() < 512) {
    if (SM.getFileOffset(Tok.getLocation()) == At)
      OpIndex = Toks.size();
    Toks.push_back(Tok);
  }
  if (OpIndex == SIZE_MAX || !Toks[OpIndex].isOneOf(tok::less, tok::lessequal, tok::greater,
                                                    tok::greaterequal, tok::equalequal, tok::exclaimequal))
    return std::nullopt;
  // An operand: tokens up to one that binds less (or an unmatched bracket).
  auto Ends = [](const Token &T) {
    return T.isOneOf(tok::equalequal, tok::exclaimequal, tok::amp, tok::caret, tok::pipe, tok::ampamp,
                     tok::pipepipe, tok::question, tok::colon, tok::comma, tok::semi, tok::l_brace,
                     tok::r_brace) ||
           T.isOneOf(tok::equal, tok::plusequal, tok::minusequal, tok::starequal, tok::slashequal,
                     tok::percentequal, tok::ampequal, tok::pipeequal, tok::caretequal,
                     tok::lesslessequal, tok::greatergreaterequal) ||
           (T.is(tok::raw_identifier) && T.getRawIdentifier() == "return");
  };
  auto Angle = [](const Token &T) {
    return T.isOneOf(tok::less, tok::lessequal, tok::greater, tok::greaterequal);
  };
  Comparison C;
  auto Side = [&](size_t I, int Step, std::set<std::string> &Names) -> std::optional<size_t> {
    int Depth = 0;
    size_t Last = OpIndex;
    for (; I < Toks.size(); I += Step) {
      const Token &T = Toks[I];
      bool Open = T.isOneOf(tok::l_paren, tok::l_square), Close = T.isOneOf(tok::r_paren, tok::r_square);
      if (Step > 0 ? Close : Open) {
        if (Depth == 0)
          break;
        --Depth;
      }
      Depth += Step > 0 ? Open : Close;
      if (Depth == 0 && Ends(T))
        break;
      if (Depth == 0 && Angle(T))
        return std::nullopt;
      bool Member = I > 0 && Toks[I - 1].isOneOf(tok::period, tok::arrow);
      if (T.is(tok::raw_identifier) && !Member)
        Names.insert(T.getRawIdentifier().str());
      Last = I;
    }
    if (Last == OpIndex || Depth != 0)
      return std::nullopt;
    return Last;
  };
  auto First = Side(OpIndex - 1, -1, C.Left), Last = Side(OpIndex + 1, 1, C.Right);
  if (!First || !Last)
    return std::nullopt;
  size_t From = SM.getFileOffset(Toks[*First].getLocation());
  size_t To = SM.getFileOffset(Toks[*Last].getLocation()) + Toks[*Last].getLength();
  C.Text = Buf.slice(From, To).str();
  C.Op = Buf.substr(At, Toks[OpIndex].getLength()).str();
  return C;
}

SourceLocation IRLocations::asmStatementEnd(SourceLocation Loc) {
  if (Loc.isInvalid() || Loc.isMacroID())
    return Loc;
  Token Tok;
  SourceLocation At = Loc;
  auto Next = [&]() {
    if (Lexer::getRawToken(At, Tok, SM, LangOpts, true))
      return false;
    At = Tok.getEndLoc();
    return true;
  };
  // asm, volatile, __volatile__, goto, then the parenthesised operands.
  unsigned Words = 0;
  while (Next() && Tok.is(tok::raw_identifier) && ++Words <= 4)
    ;
  if (Words == 0 || !Tok.is(tok::l_paren))
    return Loc;
  for (int Open = 1, Tokens = 0; Open > 0 && Tokens < 4096; ++Tokens) {
    if (!Next())
      return Loc;
    if (Tok.is(tok::l_paren))
      ++Open;
    else if (Tok.is(tok::r_paren) && --Open == 0)
      return Tok.getLocation();
  }
  return Loc;
}

SourceLocation IRLocations::lvalueBefore(SourceLocation Op) {
  StringRef Buf;
  size_t At;
  if (!textAt(Op, Buf, At))
    return Op;
  size_t I = At;
  auto SkipBlanks = [&] { I = backOverBlanks(Buf, I); };
  if (identChar(Buf[At]) && !isdigit(static_cast<unsigned char>(Buf[At]))) {
    // A member's name: back over the . or -> to the object.
    SkipBlanks();
    if (I > 0 && Buf[I - 1] == '.')
      I -= 1;
    else if (I > 1 && Buf.substr(I - 2, 2) == "->")
      I -= 2;
    else
      return Op;
  } else if (!StringRef("=+-*/%&|^<>").contains(Buf[At])) {
    return Op;
  }
  // Backwards over blanks, then one postfix expression: names joined by
  // . -> ::, and balanced [] and ().
  SkipBlanks();
  size_t End = I;
  for (;;) {
    if (I > 0 && (Buf[I - 1] == ']' || Buf[I - 1] == ')')) {
      int Depth = 0;
      do {
        char C = Buf[--I];
        if (C == ']' || C == ')')
          ++Depth;
        else if (C == '[' || C == '(')
          --Depth;
        else if (C == '\n')
          return Op;
      } while (I > 0 && Depth > 0);
      SkipBlanks();
      continue;
    }
    size_t NameEnd = I;
    while (I > 0 && identChar(Buf[I - 1]))
      --I;
    if (I == NameEnd)
      break;
    SkipBlanks();
    if (I > 0 && Buf[I - 1] == '.')
      --I;
    else if (I > 1 && Buf.substr(I - 2, 2) == "->")
      I -= 2;
    else if (I > 1 && Buf.substr(I - 2, 2) == "::")
      I -= 2;
    else
      break;
    SkipBlanks();
  }
  // A dereference in front (*(p + k) = v): '*' where an operand cannot end.
  size_t Star = backOverBlanks(Buf, I);
  if (Star > 0 && Buf[Star - 1] == '*') {
    size_t K = backOverBlanks(Buf, Star - 1);
    if (K == 0 || StringRef(";{}(,=\n").contains(Buf[K - 1]))
      I = Star - 1;
  }
  while (I < End && (Buf[I] == ' ' || Buf[I] == '\t'))
    ++I;
  if (I >= End)
    return Op;
  return Op.getLocWithOffset(int(I) - int(At));
}

std::string IRLocations::expressionAt(SourceLocation Loc, unsigned &Length) {
  Length = 0;
  if (Loc.isInvalid() || Loc.isMacroID())
    return "";
  Token Tok;
  auto Next = [&](SourceLocation At) { return !Lexer::getRawToken(At, Tok, SM, LangOpts, true); };
  if (!Next(Loc) || !Tok.is(tok::raw_identifier))
    return "";
  SourceLocation End = Tok.getEndLoc();
  // Brackets and parentheses are balanced; names are joined by . -> ::
  for (unsigned Tokens = 0; Tokens < 256 && Next(End);) {
    if (Tok.isOneOf(tok::period, tok::arrow, tok::coloncolon)) {
      SourceLocation AfterOp = Tok.getEndLoc();
      if (!Next(AfterOp) || !Tok.is(tok::raw_identifier))
        break;
      End = Tok.getEndLoc();
      continue;
    }
    if (!Tok.isOneOf(tok::l_square, tok::l_paren))
      break;
    int Open = 0;
    do {
      if (Tok.isOneOf(tok::l_square, tok::l_paren))
        ++Open;
      else if (Tok.isOneOf(tok::r_square, tok::r_paren))
        --Open;
      End = Tok.getEndLoc();
      ++Tokens;
    } while (Open > 0 && Tokens < 256 && Next(End));
    if (Open != 0)
      return "";
  }
  if (SM.getFileID(Loc) != SM.getFileID(End) ||
      SM.getSpellingLineNumber(Loc) != SM.getSpellingLineNumber(End))
    return "";
  unsigned B = SM.getFileOffset(Loc), E = SM.getFileOffset(End);
  Length = E - B;
  return SM.getBufferData(SM.getFileID(Loc)).substr(B, Length).str();
}

} // namespace cbl
