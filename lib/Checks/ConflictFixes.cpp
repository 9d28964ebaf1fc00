//===- ConflictFixes.cpp - The fixes a bank-conflict finding offers --------===//
//
// BankConflictCheck's fix notes: a padding of the innermost dimension (2-D
// and 3-D static arrays), an XOR swizzle of the rows as a note, and for a
// 1-D or extern array an index rewrite, each only once FixSearch verified
// it; as fix-its when they are source edits.
//
//===----------------------------------------------------------------------===//
#include "BankConflictCheck.h"
#include "IndexRewrite.h"

#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>

#include <cstring>

#include <set>

namespace cbl {

namespace {

/// "[ROWS]" for float t[ROWS][COLS]: every extent but the innermost, as
/// written; their values where one is not plain source text ("[32]"), or
/// "[...]" when they differ between instantiations (Instances > 1).
std::string outerDims(const SharedArray &A, size_t Instances) {
  std::string S;
  for (size_t I = 0; I + 1 < A.Dims.size(); ++I)
    S += "[" + (A.ExtentTexts.size() == A.Dims.size() ? A.ExtentTexts[I]
                : Instances > 1                       ? std::string("...")
                                                      : std::to_string(A.Dims[I])) +
         "]";
  return S;
}

/// The innermost extent as an operand of what an edit writes around it:
/// a macro whose body is an operation ('#define COLS 1 << 5') in
/// parentheses, since 'COLS + 1' would mean 1 << 6.
std::string extentOperand(const SharedArray &A) {
  return A.InnermostExtentHidesOperator ? "(" + A.InnermostExtentText + ")" : A.InnermostExtentText;
}

/// "an XOR swizzle of the 16-byte chunks of 'tile' by the row, element
/// [r][c] stored at [r][((c / 8) ^ (r % 8)) * 8 + c % 8] in every access,
/// makes every access to 'tile' conflict-free (verified ...)". Not a
/// fix-it: the index of every access changes, not one place.
std::string swizzleNote(const SharedArray &Arr, unsigned Chunk) {
  unsigned PerChunk = Chunk / Arr.ElementSize, Rows = 128 / Chunk;
  std::string Col = PerChunk == 1 ? fmt::format("c ^ (r % {})", Rows)
                                  : fmt::format("((c / {0}) ^ (r % {1})) * {0} + c % {0}", PerChunk,
                                                Rows);
  return fmt::format("an XOR swizzle of the {}-byte chunks of '{}' by the row, element [r][c] "
                     "stored at [r][{}] in every access, makes every access to '{}' conflict-free "
                     "(verified for every instantiation and the block shapes considered)",
                     Chunk, Arr.Name, Col, Arr.Name);
}

/// The innermost extent's text padded by Pad elements, as the edit writes
/// it: "N + 1" + 1 folds to "N + 2"; an extent with an operator that binds
/// less tightly than + at its top level ("1 << 5") is parenthesised first.
std::string paddedExtent(const std::string &Text, unsigned Pad) {
  int Depth = 0;
  bool Looser = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    Depth += C == '(' || C == '[';
    Depth -= C == ')' || C == ']';
    if (Depth == 0 && std::strchr("<>?&|^=,:!", C))
      Looser = true;
  }
  if (Looser)
    return "(" + Text + ") + " + std::to_string(Pad);
  size_t Digits = Text.find_last_not_of("0123456789");
  if (Digits != std::string::npos && Digits + 1 < Text.size() && Text.size() - Digits < 10) {
    size_t Plus = Text.find_last_not_of(' ', Digits);
    if (Plus != std::string::npos && Text[Plus] == '+' && Plus > 0)
      return Text.substr(0, Plus) + "+ " + std::to_string(std::stoul(Text.substr(Digits + 1)) + Pad);
  }
  return Text + " + " + std::to_string(Pad);
}

} // namespace

void BankConflictCheck::fixNotes(Finding &F, CheckContext &Ctx, FixSearch &Fixes,
                                 const Evaluated &E) {
  const SharedAccess &A = *E.Access;
  const SharedArray &Arr = Ctx.Model.Arrays[A.ArrayId];
  if (Ctx.outOfTime()) {
    F.Notes.push_back({Arr.Decl,
                       fmt::format("no fix was searched for: the file's time limit "
                                   "(--timeout={}) ran out",
                                   Ctx.Budget->Limit),
                       {}, NoteRole::Detail, /*OfArray=*/true});
    return;
  }
  if (Arr.Dims.size() >= 2 && !Arr.IsExtern && Arr.InnermostExtent) {
    if (unsigned Pad = Fixes.padding(E)) {
      std::string Padded = paddedExtent(extentOperand(Arr), Pad);
      FixIt Fix{*Arr.InnermostExtent, Padded};
      size_t Instances = sameDeclaration(Ctx.Model.Arrays, A.ArrayId).size();
      std::string Outer = outerDims(Arr, Instances);
      std::string Verified =
          Instances > 1 ? fmt::format("verified in each of its {} instantiations", Instances)
                        : "verified";
      F.Notes.push_back({Arr.Decl,
                         fmt::format("fix-it: pad '{}' to '{}{}[{}]' ({} for the block "
                                     "shapes considered: this access conflict-free ({} wavefront{} "
                                     "instead of {}), no access to '{}' worse)",
                                     Arr.Name, Arr.Name, Outer, Padded,
                                     Verified, E.Verdict.Cost.Ideal, E.Verdict.Cost.Ideal == 1 ? "" : "s",
                                     E.Verdict.Cost.Wavefronts, Arr.Name),
                         {Fix},
                         NoteRole::Fix});
      F.Fixes.push_back(Fix);
    } else {
      F.Notes.push_back({Arr.Decl,
                         fmt::format("no padding of the innermost dimension of '{}' up to 32 "
                                     "elements removes this conflict without making another access "
                                     "worse; consider an XOR swizzle of the column index",
                                     Arr.Name),
                         {}, NoteRole::Detail, /*OfArray=*/true});
    }
    if (unsigned Chunk = Fixes.swizzle(A.ArrayId))
      F.Notes.push_back({Arr.Decl, swizzleNote(Arr, Chunk), {}, NoteRole::Detail, /*OfArray=*/true});
  } else if (Arr.Dims.size() == 1) {
    rewriteNotes(F, Ctx, Fixes, E);
  }
}

void BankConflictCheck::rewriteNotes(Finding &F, CheckContext &Ctx, FixSearch &Fixes,
                                     const Evaluated &E) {
  const SharedAccess &A = *E.Access;
  const SharedArray &Arr = Ctx.Model.Arrays[A.ArrayId];
  std::optional<FixSearch::Rewrite> R = Fixes.rewrite(E);
  if (!R) {
    F.Notes.push_back({Arr.Decl,
                       fmt::format("no skew or XOR swizzle of the index of '{}' was verified to "
                                   "make this access better and no access worse",
                                   Arr.Name),
                       {}, NoteRole::Detail, /*OfArray=*/true});
    return;
  }
  // The subscript of every access of the declaration, each once; the first
  // that cannot be rewritten stops the fix-it.
  std::vector<FixIt> Edits;
  std::string Blocker, Shown;
  std::set<std::pair<std::string, unsigned>> Seen;
  auto Take = [&](const SourcePos &Where, const std::string &Spelling, bool InHelper) {
    std::string Why = "it is in a helper, reached through a pointer";
    std::optional<Subscript> S =
        InHelper ? std::nullopt : subscriptOf(Where, Spelling, Arr, Why);
    if (!S) {
      if (Blocker.empty())
        Blocker = fmt::format("the access at {}:{}:{}{} cannot be rewritten: {}", Where.File,
                              Where.Line, Where.Column,
                              Spelling.empty() ? std::string() : " ('" + Spelling + "')", Why);
      return;
    }
    std::string New = rewrittenIndex(S->Text, Arr.ElementSize, R->How);
    if (Where.Offset == A.Where.Offset && Where.File == A.Where.File)
      Shown = fmt::format("'{}[{}]' -> '{}[{}]'", Arr.Name, S->Text, Arr.Name, New);
    if (Seen.insert({Where.File, S->Span.Begin.Offset}).second && New != S->Text)
      Edits.push_back({S->Span, New});
  };
  for (const EvaluatedAccess *Other : Fixes.accessesOf(A.ArrayId)) {
    const SharedAccess &O = *Other->Access;
    Take(O.Where, O.Spelling, !O.CallChain.empty());
    for (const auto &[Where, Text] : O.MergedWith)
      if (!llvm::StringRef(Text).ends_with("(unrolled by the compiler)")) // iterations: one subscript
        Take(Where, Text, !O.CallChain.empty());
  }
  size_t Accesses = Seen.size();
  std::string Grown;
  if (R->How.How == IndexRewrite::Kind::Skew) {
    if (!Arr.InnermostExtent) {
      if (Blocker.empty())
        Blocker = "the extent of '" + Arr.Name + "' is not written in plain source";
    } else {
      std::string Extent = rewrittenIndex(extentOperand(Arr), Arr.ElementSize, R->How);
      Grown = fmt::format(", '{}[{}]' -> '{}[{}]'", Arr.Name, Arr.InnermostExtentText, Arr.Name,
                          Extent);
      Edits.push_back({*Arr.InnermostExtent, Extent});
    }
  }
  size_t Instances = sameDeclaration(Ctx.Model.Arrays, A.ArrayId).size();
  std::string Effect =
      R->Wavefronts <= R->Ideal
          ? fmt::format("this access conflict-free ({} wavefront{} instead of {})", R->Wavefronts,
                        R->Wavefronts == 1 ? "" : "s", E.Verdict.Cost.Wavefronts)
          : fmt::format("this access {} wavefronts instead of {}", R->Wavefronts, E.Verdict.Cost.Wavefronts);
  // Without a fix-it the note is the array's, the same for each of its
  // findings (said once): this access's figures are left out.
  auto Verified = [&](const std::string &Effect) {
    return fmt::format(
        "verified{} for the block shapes considered: {}, no access to '{}' worse{}",
        Instances > 1 ? fmt::format(" in each of its {} instantiations", Instances) : "", Effect,
        Arr.Name,
        Arr.IsExtern && R->How.How == IndexRewrite::Kind::Xor
            ? "; the buffer must hold whole 128-byte segments"
            : "");
  };
  if (!Blocker.empty()) {
    F.Notes.push_back({Arr.Decl,
                       fmt::format("no fix-it: {} ({}), but {}", describeRewrite(Arr, R->How),
                                   Verified("this access better"), Blocker),
                       {}, NoteRole::Fix, /*OfArray=*/true});
    return;
  }
  F.Notes.push_back({Arr.Decl,
                     fmt::format("fix-it: {}: {} in its {} access{}{} ({})",
                                 describeRewrite(Arr, R->How), Shown, Accesses,
                                 Accesses == 1 ? "" : "es", Grown, Verified(Effect)),
                     Edits, NoteRole::Fix});
  F.Fixes.insert(F.Fixes.end(), Edits.begin(), Edits.end());
}

} // namespace cbl
