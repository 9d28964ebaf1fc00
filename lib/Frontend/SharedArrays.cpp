//===- SharedArrays.cpp - Layout of __shared__ variables -------------------===//
#include "SharedArrays.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cbl {

SourcePos toSourcePos(const SourceManager &SM, SourceLocation Loc) {
  SourcePos P;
  if (Loc.isInvalid())
    return P;
  // Diagnostics point where the user wrote the code: for macro arguments the
  // spelling, for macro bodies the expansion site.
  SourceLocation L = SM.getFileLoc(Loc);
  PresumedLoc PL = SM.getPresumedLoc(L);
  if (PL.isInvalid())
    return P;
  P.File = withoutDots(PL.getFilename()); // "./k.cuh" found through -I.
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  P.Offset = SM.getFileOffset(L);
  P.InSystemHeader = SM.isInSystemHeader(L);
  return P;
}

bool isSharedVar(const VarDecl *VD) {
  return VD && VD->hasAttr<CUDASharedAttr>();
}

namespace {

/// An operation at the top of E (a size expression) that binds less tightly
/// than '*' and whose operator is in a macro body: the name written for it
/// is not an operand of '+' or '/' as it stands.
bool hidesOperator(const Expr *E) {
  E = E->IgnoreImplicit(); // a template parameter's value stays a name
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isMultiplicativeOp() && !B->isPtrMemOp() && B->getOperatorLoc().isMacroID();
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return C->getQuestionLoc().isMacroID();
  return false;
}

} // namespace

void SharedArrayTable::recordExtentTexts(TypeLoc TL, SharedArray &A) const {
  const SourceManager &SM = Ctx.getSourceManager();
  bool Plain = true;
  while (auto ATL = TL.getAsAdjusted<ArrayTypeLoc>()) {
    TL = ATL.getElementLoc();
    const Expr *Size = ATL.getSizeExpr();
    // makeFileCharRange accepts a macro name written in the declaration
    // ([TILE_DIM]) but rejects a range that is only part of a macro body.
    CharSourceRange CR = Size ? Lexer::makeFileCharRange(
                                    CharSourceRange::getTokenRange(Size->getSourceRange()), SM,
                                    Ctx.getLangOpts())
                              : CharSourceRange();
    Plain &= CR.isValid();
    A.InnermostExtent.reset();
    A.InnermostExtentText.clear();
    A.InnermostExtentHidesOperator = false;
    if (!CR.isValid())
      continue;
    StringRef Text = Lexer::getSourceText(CR, SM, Ctx.getLangOpts());
    A.ExtentTexts.push_back(Text.str());
    SourceSpan Span;
    Span.Begin = toSourcePos(SM, CR.getBegin());
    Span.Length = unsigned(Text.size());
    A.InnermostExtent = Span;
    A.InnermostExtentText = Text.str();
    A.InnermostExtentHidesOperator = hidesOperator(Size);
  }
  if (!Plain || A.ExtentTexts.size() != A.Dims.size())
    A.ExtentTexts.clear();
}

int SharedArrayTable::add(const VarDecl *VD, std::vector<SharedArray> &Out) {
  if (!isSharedVar(VD))
    return -1;
  const VarDecl *Canon = VD->getCanonicalDecl();
  auto It = Ids.find(Canon);
  if (It != Ids.end())
    return int(It->second);
  // Prefer the definition (it carries the sizes) for layout and location.
  const VarDecl *Def = VD->getDefinition() ? VD->getDefinition() : VD;
  SharedArray A;
  A.Id = unsigned(Out.size());
  A.Name = Def->getNameAsString();
  A.Decl = toSourcePos(Ctx.getSourceManager(), Def->getLocation());
  A.IsExtern = Def->hasExternalStorage() || Def->getType()->isIncompleteArrayType();
  QualType T = Def->getType();
  while (const ArrayType *AT = Ctx.getAsArrayType(T)) {
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      A.Dims.push_back(CAT->getSize().getZExtValue());
    else
      A.Dims.push_back(0);
    T = AT->getElementType();
  }
  A.ElementType = T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  // Clang's layout queries are undefined for dependent types (llvm_unreachable,
  // compiled out of Debian's release build), and a declaration Clang rejected
  // can have one: '__shared__ float s[blockDim.y256]' gets a size that is a
  // RecoveryExpr, and getDeclAlign recursed until the stack ran out (found by
  // fuzz-frontend). Such an array has no size or alignment; the kernel that
  // uses it is not analysed anyway (Clang rejects its code).
  bool HasLayout = !Def->isInvalidDecl() && !Def->getType()->isDependentType();
  A.ElementSize = !HasLayout || T->isIncompleteType() || T->isDependentType()
                      ? 0
                      : Ctx.getTypeSizeInChars(T).getQuantity();
  A.Alignment = HasLayout ? Ctx.getDeclAlign(Def).getQuantity() : 1;

  // Remember where the extents are written, for padding fix-its (and, of a
  // 1-D array, for the index skew that grows it) and their messages.
  if (!A.Dims.empty() && Def->getTypeSourceInfo())
    recordExtentTexts(Def->getTypeSourceInfo()->getTypeLoc(), A);
  Ids[Canon] = A.Id;
  Out.push_back(std::move(A));
  return int(Out.back().Id);
}

} // namespace cbl
