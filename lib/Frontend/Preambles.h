//===- Preambles.h - Running a front-end action over a cached preamble ----===//
//
// Private to the front end: ModelBuilder runs its action through here when
// ModelOptions::Preambles is set (PreambleCache.h says what a preamble is).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_PREAMBLES_H
#define CUDA_BANK_LINT_LIB_FRONTEND_PREAMBLES_H

#include "cuda-bank-lint/Frontend/PreambleCache.h"

#include "clang/AST/DeclID.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// The top-level declarations of the user's headers (not system headers) in
/// a preamble. A parse over the preamble hands its consumer only the
/// declarations after the preamble; these, resolved through the parse's
/// ASTReader, give it the rest of the user's code without deserialising the
/// toolkit's headers.
using PreambleUserDecls = std::vector<clang::LocalDeclID>;

/// Runs Action on the main file of the Clang command Args (argv[0] ... file,
/// one compilation job) over VFS, with the preamble of that file from Cache:
/// reused if still valid, else compiled first. Diagnostics of the part after
/// the preamble go to Diags. Returns what the action's run returned, or
/// nullopt when no preamble can be used (the command is rejected, or the
/// preamble does not compile): then nothing was reported to Diags and the
/// caller parses the whole file. UserDecls is set to the preamble's
/// declarations of user headers before the action runs.
std::optional<bool> runWithPreamble(PreambleCache &Cache, const std::vector<std::string> &Args,
                                    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                                    clang::FrontendAction &Action, clang::DiagnosticConsumer &Diags,
                                    PreambleUserDecls &UserDecls);

} // namespace cbl

#endif
