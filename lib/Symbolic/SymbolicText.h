//===- SymbolicText.h - Words for symbolic facts (private) ----------------===//
//
// How the symbolic layer phrases what it found: lists of names ("'n', 's'"),
// residue classes of a parameter ("'stride' is even"), the reason of a bound.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_SYMBOLIC_SYMBOLICTEXT_H
#define CUDA_BANK_LINT_LIB_SYMBOLIC_SYMBOLICTEXT_H

#include <map>
#include <string>
#include <vector>

namespace cbl {

/// "'a', 'b', 'c'": each name in single quotes.
std::string quotedList(const std::vector<std::string> &Names);

/// Why a verdict whose active lanes depend on unknowns is an upper bound.
std::string boundByReason(const std::vector<std::string> &BoundBy);
/// What a cost decided under threshold guards (gid < n) means: that of the
/// warps whose lanes all pass them. Empty when there are none.
std::string boundaryNote(const std::vector<std::string> &ThresholdBy);

/// "the cost depends on the value of 'P': <Cases>": the reason of a verdict
/// whose degree depends on one unknown.
std::string dependsOnValueReason(const std::string &Name, const std::string &Cases);

/// "when 'stride' is even", "when 'stride' mod 8 is 2 or 6": the residues
/// (mod 32) marked in Set, described with the smallest modulus that captures
/// them.
std::string describeResidues(const std::string &Name, const std::vector<bool> &Set);

} // namespace cbl

#endif
