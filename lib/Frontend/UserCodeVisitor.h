//===- UserCodeVisitor.h - AST traversal that skips system headers (private) ===//
//
// The CUDA and C++ headers are most of a translation unit; the analyses look
// only at user code (kernels, launches, shared variables), so traversals skip
// declarations located in system headers. Template instantiations of user
// templates are located at their pattern, in user code, and are kept.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_USERCODEVISITOR_H
#define CUDA_BANK_LINT_LIB_FRONTEND_USERCODEVISITOR_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace cbl {

template <class Derived> struct UserCodeVisitor : clang::RecursiveASTVisitor<Derived> {
  explicit UserCodeVisitor(const clang::SourceManager &SM) : SM(SM) {}
  bool TraverseDecl(clang::Decl *D) {
    if (D && !llvm::isa<clang::TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    return clang::RecursiveASTVisitor<Derived>::TraverseDecl(D);
  }
  const clang::SourceManager &SM;
};

} // namespace cbl

#endif
