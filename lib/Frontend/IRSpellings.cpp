//===- IRSpellings.cpp - Conditions as the user wrote them ------------------===//
//
// A comparison of the IR reads as the compiler made it: 'bt < T * B' where
// the source says `bt < B * T`, 'k * 2 <= npad' for the test of a rotated
// loop whose source is `k <= npad`. Its debug location is the operator of
// the source comparison; where that comparison has the operands on the
// same sides (the names each side reads) and the same order relation,
// findings quote the source text (FunctionModel::ConditionSpellings, read
// by Checks/FindingText.h's asWritten). A predicate the compiler inverted
// (an `if` whose branches it swapped) stands for the source's text in its
// negation; an equality made of an order (or the reverse) is no match.
//
//===----------------------------------------------------------------------===//
#include "IRTranslator.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace cbl {

namespace {

/// The names E reads, as the source spells them: a leaf's name without
/// members ("blockIdx.x" reads blockIdx), threadIdx and blockDim.
void namesOf(const SymExpr &E, std::set<std::string> &Names) {
  if (E.Kind == ExprKind::ThreadIdx || E.Kind == ExprKind::BlockDim) {
    Names.insert(E.Kind == ExprKind::ThreadIdx ? "threadIdx" : "blockDim");
    return;
  }
  const std::string &N = E.Name;
  for (size_t I = 0; I < N.size();) {
    if (!isAlpha(N[I]) && N[I] != '_') {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < N.size() && (isAlnum(N[J]) || N[J] == '_'))
      ++J;
    if (I == 0 || N[I - 1] != '.')
      Names.insert(N.substr(I, J - I));
    I = J;
  }
  for (const SymRef &Op : E.Ops)
    namesOf(*Op, Names);
}

size_t common(const std::set<std::string> &A, const std::set<std::string> &B) {
  size_t N = 0;
  for (const std::string &X : A)
    N += B.count(X);
  return N;
}

/// -1: less (<, <=), 1: greater, 0: an equality of its own kind.
int order(Opcode O) { return O == Opcode::LT || O == Opcode::LE ? -1 : O == Opcode::GT || O == Opcode::GE ? 1 : 0; }
int order(StringRef Op) { return Op.starts_with("<") ? -1 : Op.starts_with(">") ? 1 : 0; }

} // namespace

void IRTranslator::spellComparison(const ICmpInst &C, const SymRef &E) {
  const DILocation *DL = C.getDebugLoc().get();
  if (!DL || E->Kind != ExprKind::Binary || !isComparison(E->Op) || E->Op == Opcode::LAnd ||
      E->Op == Opcode::LOr)
    return;
  clang::SourceLocation Loc;
  if (!Locs.positionOf(DL, &Loc).valid())
    return;
  std::optional<IRLocations::Comparison> Src = Locs.comparisonAt(Loc);
  if (!Src)
    return;
  std::set<std::string> Left, Right;
  namesOf(*E->Ops[0], Left);
  namesOf(*E->Ops[1], Right);
  size_t Same = common(Left, Src->Left) + common(Right, Src->Right);
  size_t Crossed = common(Left, Src->Right) + common(Right, Src->Left);
  if ((Same == 0) == (Crossed == 0))
    return; // no side matched, or both ways
  bool Swapped = Crossed > 0;
  auto Relates = [&](Opcode O) {
    int Want = order(O) * (Swapped ? -1 : 1);
    return Want == order(Src->Op) && (Want != 0 || (O == Opcode::EQ) == (Src->Op == "=="));
  };
  // A test the compiler inverted (swapping the branches: `k <= npad` as
  // `k * 2 > npad`): its negation, which the guards read, is the source's.
  SymRef Written = Relates(E->Op) ? E : notOf(E);
  if (Written->Kind != ExprKind::Binary || !Relates(Written->Op))
    return;
  // Kept when the same too: another comparison of this form written
  // otherwise makes the form ambiguous.
  auto [It, New] = Out.ConditionSpellings.try_emplace(toString(Written), Src->Text);
  if (!New && It->second != Src->Text)
    It->second.clear(); // two source texts: the compiler's form
}

} // namespace cbl
