//===- SymbolicText.h - Words for symbolic facts (private) ----------------===//
//
// How the symbolic layer phrases what it found: residue classes of a
// parameter ("'stride' is even"). Used by WarpAnalysis.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_SYMBOLIC_SYMBOLICTEXT_H
#define CUDA_BANK_LINT_LIB_SYMBOLIC_SYMBOLICTEXT_H

#include <string>
#include <vector>

namespace cbl {

/// "when 'stride' is even", "when 'stride' mod 8 is 2 or 6": the residues
/// (mod 32) marked in Set, described with the smallest modulus that captures
/// them.
std::string describeResidues(const std::string &Name, const std::vector<bool> &Set);

} // namespace cbl

#endif
