//===- IRSpellings.cpp - Values and conditions as the user wrote them -------===//
//
// Values are named as the source names them (nameOf): a parameter or
// variable by its name, a load or call by its expression, a comparison by
// its condition, never by Clang's temporaries.
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

/// x.1.lcssa: x; Clang's names of temporaries: none.
std::string variableOf(const Value *V) {
  if (!V->hasName())
    return "";
  StringRef N = V->getName().take_until([](char C) { return C == '.'; });
  static const char *const Temporaries[] = {
      "add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor", "conv", "idxprom", "idx",
      "arrayidx", "arraydecay", "cmp", "tobool", "call", "inc", "dec", "cond", "lnot", "frombool", "tmp",
      "retval", "this", "agg", "ref", "coerce", "spec", "sext", "zext", "trunc", "narrow", "neg", "not",
      "lsr", "ashr", "smax", "smin", "umax", "umin", "spec", "pre", "phi", "sel", "mask", "bf", "wide",
      "indvars", "exitcond", "cleanup", "storemerge", "land", "lor", "cast", "incdec", "ptr", "iv"};
  if (N.empty() || !(isalpha(N[0]) || N[0] == '_') || N.starts_with("__") ||
      llvm::any_of(Temporaries, [&](const char *T) { return N == T; }) || N.back() >= '0' && N.back() <= '9')
    return "";
  return N.str();
}

std::string IRTranslator::nameOf(const Value *V, const std::string &Suffix, const DILocation *At) {
  if (const auto *Arg = dyn_cast<Argument>(V))
    return Arg->hasName() ? Arg->getName().str() : "parameter " + std::to_string(Arg->getArgNo() + 1);
  std::string Name = variableOf(V);
  if (Name.empty()) {
    const auto *I = dyn_cast<Instruction>(V);
    const DILocation *Where = At ? At : I ? I->getDebugLoc().get() : nullptr;
    clang::SourceLocation Loc;
    SourcePos P = Where ? Locs.positionOf(Where, &Loc) : SourcePos();
    unsigned Length = 0;
    // A toolkit call's result is named by the user's call (atomicAdd(p, 1)).
    if (Where)
      if (IRLocations::Place Pl = Locs.placeOf(Where); !Pl.Wrapper.empty())
        Loc = Pl.Loc, P = Pl.Where;
    // A member's debug location is its name: `dims.z` from its object on.
    if (At || isa_and_nonnull<LoadInst>(I) || isa_and_nonnull<CallBase>(I) || isa_and_nonnull<AtomicRMWInst>(I) ||
        isa_and_nonnull<AtomicCmpXchgInst>(I))
      Name = Locs.expressionAt(Locs.memberAccessStart(Loc), Length);
    else if (isa_and_nonnull<CmpInst>(I)) // if (v > 0.5f)
      Name = Locs.conditionText(Locs.lvalueBefore(Loc));
    // A load the compiler moved (no line of its own): by its address.
    if (const auto *LI = dyn_cast_or_null<LoadInst>(I); LI && Name.empty())
      if (const auto *G = dyn_cast<GetElementPtrInst>(LI->getPointerOperand());
          G && G->getNumIndices() == 1 && isa<Argument>(G->getPointerOperand()) && G->getPointerOperand()->hasName())
        Name = G->getPointerOperand()->getName().str() + "[" + toString(intOf(G->getOperand(1))) + "]";
    if (Name.empty())
      Name = P.valid() ? "value at line " + std::to_string(P.Line) : "value";
  }
  Name += Suffix;
  // Distinct values must have distinct names: the symbolic layer takes two
  // unknowns of one name for the same value.
  auto [It, New] = UnknownNames.try_emplace(Name, V);
  if (!New && It->second != V) {
    for (unsigned K = 2;; ++K) {
      std::string Candidate = Name + "#" + std::to_string(K);
      auto [J, Fresh] = UnknownNames.try_emplace(Candidate, V);
      if (Fresh || J->second == V)
        return Candidate;
    }
  }
  return Name;
}

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
