//===- SharedArrays.h - Discovery of __shared__ variables (private) -------===//
//
// Finds every __shared__ / extern __shared__ variable of a translation unit
// (namespace scope, function scope, every template instantiation) and records
// its layout in the access model.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_SHAREDARRAYS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_SHAREDARRAYS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/DenseMap.h"

namespace cbl {

SourcePos toSourcePos(const clang::SourceManager &SM, clang::SourceLocation Loc);

class SharedArrayTable {
public:
  explicit SharedArrayTable(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  /// Registers VD if it is __shared__; returns its id, or -1.
  int add(const clang::VarDecl *VD, std::vector<SharedArray> &Out);
  /// The id of a registered variable, or -1.
  int lookup(const clang::VarDecl *VD) const {
    auto It = Ids.find(VD->getCanonicalDecl());
    return It == Ids.end() ? -1 : int(It->second);
  }

private:
  /// The extents of A as written (TL: its declaration's type).
  void recordExtentTexts(clang::TypeLoc TL, SharedArray &A) const;
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::VarDecl *, unsigned> Ids;
};

/// Is VD a variable in shared memory?
bool isSharedVar(const clang::VarDecl *VD);

} // namespace cbl

#endif
