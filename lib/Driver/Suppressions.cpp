//===- Suppressions.cpp - Reading NOLINT comments from the source ---------===//
#include "cuda-bank-lint/Driver/Suppressions.h"
#include "cuda-bank-lint/Checks/Check.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace cbl {

namespace {

enum class Kind { Line, NextLine, Begin, End };

struct Comment {
  Kind K;
  bool HasList = false;
  std::string List;
  unsigned Line = 0, Column = 0;
};

/// Every NOLINT* comment on one line.
void scanLine(llvm::StringRef Text, unsigned LineNo, std::vector<Comment> &Out) {
  size_t Pos = 0;
  while ((Pos = Text.find("NOLINT", Pos)) != llvm::StringRef::npos) {
    Comment C;
    C.Line = LineNo;
    C.Column = unsigned(Pos) + 1;
    llvm::StringRef Rest = Text.drop_front(Pos + 6);
    if (Rest.consume_front("NEXTLINE"))
      C.K = Kind::NextLine;
    else if (Rest.consume_front("BEGIN"))
      C.K = Kind::Begin;
    else if (Rest.consume_front("END"))
      C.K = Kind::End;
    else
      C.K = Kind::Line;
    // "NOLINTfoo" is not a suppression (clang-tidy).
    if (!Rest.empty() && (std::isalnum((unsigned char)Rest[0]) || Rest[0] == '_')) {
      Pos += 6;
      continue;
    }
    if (Rest.consume_front("(")) {
      size_t Close = Rest.find(')');
      if (Close != llvm::StringRef::npos) {
        C.HasList = true;
        C.List = Rest.take_front(Close).str();
      }
    }
    Out.push_back(C);
    Pos += 6;
  }
}

struct FileSuppressions {
  std::vector<Comment> Comments;
  struct Range {
    unsigned Begin, End;
    Comment C;
  };
  std::vector<Range> Ranges;
};

FileSuppressions load(const std::string &File, const UnsavedFiles *Unsaved,
                      std::string &Messages) {
  FileSuppressions S;
  auto Buf = readSource(File, Unsaved);
  if (!Buf)
    return S;
  llvm::StringRef Text = (*Buf)->getBuffer();
  unsigned LineNo = 1;
  while (!Text.empty() || LineNo == 1) {
    auto [Line, Rest] = Text.split('\n');
    if (Line.contains("NOLINT"))
      scanLine(Line, LineNo, S.Comments);
    Text = Rest;
    ++LineNo;
    if (Rest.empty())
      break;
  }
  // NOLINTBEGIN(x) is closed by the next NOLINTEND(x) with the same list.
  std::vector<Comment> Open;
  for (const Comment &C : S.Comments) {
    if (C.K == Kind::Begin) {
      Open.push_back(C);
    } else if (C.K == Kind::End) {
      auto It = std::find_if(Open.rbegin(), Open.rend(), [&](const Comment &B) {
        return B.HasList == C.HasList && llvm::StringRef(B.List).trim() == llvm::StringRef(C.List).trim();
      });
      if (It == Open.rend()) {
        Messages += File + ":" + std::to_string(C.Line) + ":" + std::to_string(C.Column) +
                    ": warning: unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' "
                    "comment [nolint]\n";
        continue;
      }
      S.Ranges.push_back({It->Line, C.Line, *It});
      Open.erase(std::next(It).base());
    }
  }
  for (const Comment &B : Open)
    Messages += File + ":" + std::to_string(B.Line) + ":" + std::to_string(B.Column) +
                ": warning: unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' "
                "comment; it suppresses nothing [nolint]\n";
  return S;
}

bool suppressedAt(const FileSuppressions &S, unsigned Line, const std::string &Check) {
  for (const Comment &C : S.Comments) {
    bool Applies = (C.K == Kind::Line && C.Line == Line) ||
                   (C.K == Kind::NextLine && C.Line + 1 == Line);
    if (Applies && nolintNames(C.List, C.HasList, Check))
      return true;
  }
  for (const auto &R : S.Ranges)
    if (Line >= R.Begin && Line <= R.End && nolintNames(R.C.List, R.C.HasList, Check))
      return true;
  return false;
}

} // namespace

bool nolintNames(const std::string &List, bool HasList, const std::string &Check) {
  // The same glob semantics as --checks: the last matching glob decides.
  return !HasList || checkEnabled(Check, List);
}

void applySuppressions(std::vector<Finding> &Findings, std::string &Messages,
                       const UnsavedFiles *Unsaved) {
  std::map<std::string, FileSuppressions> Files;
  std::vector<Finding> Kept;
  auto SuppressedAt = [&](const SourcePos &P, const std::string &Check) {
    auto It = Files.find(P.File);
    if (It == Files.end())
      It = Files.emplace(P.File, load(P.File, Unsaved, Messages)).first;
    return suppressedAt(It->second, P.Line, Check);
  };
  for (Finding &F : Findings) {
    // NOLINT on the finding's line, or on a call that leads to it (then
    // only that call's instance is silenced).
    bool Silenced = SuppressedAt(F.Where, F.Check);
    for (const SourcePos &P : F.AlsoSuppressedAt)
      Silenced = Silenced || (P.valid() && SuppressedAt(P, F.Check));
    if (!Silenced)
      Kept.push_back(std::move(F));
  }
  Findings = std::move(Kept);
}

} // namespace cbl
