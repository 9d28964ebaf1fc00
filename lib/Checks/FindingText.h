//===- FindingText.h - Wording shared by the checks' findings --------------===//
//
// Lanes and numbers as findings list them, the block shape as a finding's
// one line states it, and the note that explains a finding (its Key note,
// shown by default; the others are under --explain). Private to lib/Checks.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_CHECKS_FINDINGTEXT_H
#define CUDA_BANK_LINT_LIB_CHECKS_FINDINGTEXT_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Report/Finding.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cbl {

/// "0-7, 16-23" (up to four runs), else "0, 2, 4, 6, 8, 10, ... (16 in all)".
std::string listNumbers(const std::vector<unsigned> &Ns);

/// "lane 5", "lanes 16-31": the lanes set in Mask.
std::string lanesText(uint32_t Mask);

/// The block shape as a finding's one line states it when the tool inferred
/// or assumed it ("block 32x8x1 from the launch at k.cu:36:3", "block shape
/// not known: ..."); empty when the user gave it (--block-dim, the
/// configuration, an annotation), where it is no news.
std::string inferredShape(const BlockShape &S);

/// A function's name as a finding's one line states it: a template
/// instance's nested argument lists elided ("gemm_device<cute::tuple<...>,
/// float, ...>") when the name is longer than a line can hold (CuTe kernel
/// instances run to 1,500 characters); the name itself otherwise. JSON and
/// --explain keep the whole name.
std::string shortFunctionName(const std::string &Name);

/// "ldmatrix.x4.trans" for "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16".
std::string shortMatrixName(const std::string &Opcode);

/// "reading", "writing", "in 'ldmatrix.x4' reading", or "in 'atomicAdd' on"
/// before the array's name.
std::string doing(const SharedAccess &A);

/// The array as a finding's one line names it after doing(A): "'shared'",
/// or "'shared' through 'dweight_shared'" when the source indexes another
/// name (a pointer carved out of the buffer, SharedMemory<T>'s 'sdata').
std::string arrayAsWritten(const SharedAccess &A, const std::string &Array);

/// Text with the conditions it quotes as the user wrote them, where the
/// front end found their source (Fn.ConditionSpellings: 'bt < T * B' is
/// 'bt < B * T'), and otherwise a quoted expression without its redundant
/// outer parentheses ('(k * 2 <= npad)' is 'k * 2 <= npad'). The one home
/// of how findings name a condition; for display only.
std::string asWritten(const std::string &Text, const FunctionModel &Fn);
/// asWritten on a finding's message and notes.
void asWritten(Finding &F, const FunctionModel &Fn);
/// On a record's reason and boundary; the conditions and values it lists
/// (assumed_uniform, bound_by, ...) as written where their source is known.
void asWritten(AccessRecord &R, const FunctionModel &Fn);

/// Appends " (What)" to the finding's key note (to its message when it has
/// none); nothing when What is empty.
void addToKeyNote(Finding &F, const std::string &What);

} // namespace cbl

#endif
