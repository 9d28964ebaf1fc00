//===- CompileErrors.h - Which code Clang's errors stop (private) ----------===//
//
// nvcc and Clang do not reject the same code. The front end keeps Clang's
// errors and decides, for each, what it stops:
//  - nothing, for the few errors whose construct nvcc accepts and whose
//    effect on the AST is local (an attribute list Clang drops, a __shared__
//    object with a constructor nvcc does not run, a device-side kernel launch):
//    they become notes saying what was left out;
//  - the innermost function definition around the error (template patterns
//    and members of class templates included): a host-only function is simply
//    skipped (nvcc compiles host code with the host compiler), a device
//    function or kernel is not analysed, and neither is any kernel that calls
//    it, directly or not;
//  - the whole file, for errors outside every function and missing headers.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_COMPILEERRORS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_COMPILEERRORS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// One Clang error (or fatal error), with its notes.
struct ClangError {
  std::string File;         ///< where, after macro expansion (empty: no location)
  unsigned Offset = 0;
  SourcePos Where;
  std::string Message;      ///< the message alone
  std::string Text;         ///< as Clang prints it, notes included
  bool Fatal = false;
  std::string MissingHeader; ///< for "'x.h' file not found"
  /// Non-empty when nvcc accepts the construct: what the analysis leaves out.
  std::string Benign;
};

/// Buffers Clang's errors as text and classifies the benign ones.
class DiagnosticCollector : public clang::DiagnosticConsumer {
public:
  DiagnosticCollector();
  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  std::vector<ClangError> Errors;

private:
  std::string Buffer;
  std::unique_ptr<llvm::raw_string_ostream> OS;
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
};

/// Where each non-benign error is, in terms of function definitions.
class ErrorAttribution {
public:
  ErrorAttribution(clang::ASTContext &Ctx, const std::vector<ClangError> &Errors);

  /// Errors outside every function definition: the file is not analysed.
  std::vector<const ClangError *> Global;
  /// Host-only functions with errors (skipped; nvcc compiles them with the
  /// host compiler), with their first error.
  std::vector<std::pair<const clang::FunctionDecl *, const ClangError *>> Host;

  struct Stop {
    const ClangError *Error = nullptr;
    const clang::FunctionDecl *In = nullptr; ///< the function holding the error
  };
  /// The first error in FD (its template pattern) or in a function it calls,
  /// directly or not; nullopt when FD and its callees compile.
  std::optional<Stop> stopOf(const clang::FunctionDecl *FD);
  /// Device-side functions with errors of their own.
  std::vector<std::pair<const clang::FunctionDecl *, const ClangError *>> Device;
  bool any() const { return !Global.empty() || !Host.empty() || !Device.empty(); }
  /// Benign errors inside a function (a __shared__ object with a
  /// constructor): the function, for the summary to name it.
  std::vector<std::pair<const clang::FunctionDecl *, const ClangError *>> BenignIn;

private:
  llvm::DenseMap<const clang::FunctionDecl *, const ClangError *> Own; ///< by pattern
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<Stop>> Memo;
  std::optional<Stop> search(const clang::FunctionDecl *FD, unsigned Depth);
};

/// The canonical declaration of FD's template pattern (FD itself when it is
/// not an instantiation).
const clang::FunctionDecl *patternOf(const clang::FunctionDecl *FD);

/// "name" or "name<args>" as Clang prints it in diagnostics.
std::string functionName(const clang::FunctionDecl *FD);

} // namespace cbl

#endif
