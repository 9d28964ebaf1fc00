//===- Presentation.h - An analysis as LSP diagnostics, actions, hovers ---===//
//
// Everything the editor is shown is made here from one BufferResult:
//  - diagnostics: the document's findings (code: the check's name,
//    codeDescription: its page in docs/checks/, notes as
//    relatedInformation, severity error/warning/remark -> Error/Warning/
//    Information, source "cuda-bank-lint"), the compiler's errors and the
//    tool's messages about the file, a configuration or database problem;
//  - code actions: the fix-its the findings carry (the padding the check
//    verified for every access and block shape) as quick fixes;
//  - hovers: on a shared-memory access, its verdict as --explain prints it
//    (printExplain) and the bank grid of its worst warp as text (gridText:
//    the same layout the HTML report draws).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SERVER_PRESENTATION_H
#define CUDA_BANK_LINT_SERVER_PRESENTATION_H

#include "cuda-bank-lint/Server/Protocol.h"
#include "cuda-bank-lint/Server/Workspace.h"

#include "llvm/Support/JSON.h"

namespace cbl {

/// The diagnostics of R's document.
llvm::json::Array diagnostics(const BufferResult &R, PositionEncoding Encoding);

/// Quick fixes for the findings whose range meets [Begin, End].
llvm::json::Array codeActions(const BufferResult &R, const Position &Begin, const Position &End,
                              PositionEncoding Encoding);

/// The hover at P (Markdown), or null when P is on no analysed access.
llvm::json::Value hover(const BufferResult &R, const Position &P, PositionEncoding Encoding);

/// Where a check's documentation is (the SARIF rules' helpUri).
std::string checkDocumentation(const std::string &Check);

} // namespace cbl

#endif
