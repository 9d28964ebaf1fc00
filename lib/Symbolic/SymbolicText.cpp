//===- SymbolicText.cpp - Rendering symbolic facts as text -----------------===//
//
// Byte offsets as C (array strides resolved) and parameter residue classes
// as words; kept apart from the analysis passes of WarpAnalysis.cpp.
//
//===----------------------------------------------------------------------===//
#include "SymbolicText.h"
#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

namespace cbl {

/// "'stride' is even", "'stride' mod 8 is 2 or 6": the residues (mod 32) in
/// Set, described with the smallest modulus that captures them.
std::string quotedList(const std::vector<std::string> &Names) {
  std::string S;
  for (const auto &N : Names)
    S += (S.empty() ? "'" : ", '") + N + "'";
  return S;
}

std::string boundByReason(const std::vector<std::string> &BoundBy) {
  return "which threads run it depends on " + quotedList(BoundBy) +
         "; the cost shown is the worst case, when every lane passes the condition";
}

std::string boundaryNote(const std::vector<std::string> &ThresholdBy) {
  if (ThresholdBy.empty())
    return "";
  return "the cost of the warps whose lanes all pass the conditions on " + quotedList(ThresholdBy) +
         "; a warp at the boundary runs it with fewer lanes and costs at most this";
}

std::string dependsOnValueReason(const std::string &Name, const std::string &Cases) {
  return "the cost depends on the value of '" + Name + "': " + Cases;
}

std::string describeResidues(const std::string &Name, const std::vector<bool> &Set) {
  const unsigned N = unsigned(Set.size());
  for (unsigned M = 1; M <= N; M *= 2) {
    std::vector<bool> Classes(M, false);
    for (unsigned R = 0; R < N; ++R)
      if (Set[R])
        Classes[R % M] = true;
    bool Exact = true;
    for (unsigned R = 0; R < N; ++R)
      Exact &= Classes[R % M] == Set[R];
    if (!Exact)
      continue;
    if (M == 1)
      return "for every value of '" + Name + "'";
    if (M == 2)
      return "when '" + Name + "' is " + (Classes[0] ? "even" : "odd");
    std::vector<unsigned> In, Out;
    for (unsigned R = 0; R < M; ++R)
      (Classes[R] ? In : Out).push_back(R);
    if (In.size() == 1 && In[0] == 0)
      return "when '" + Name + "' is a multiple of " + std::to_string(M);
    if (Out.size() == 1 && Out[0] == 0)
      return "when '" + Name + "' is not a multiple of " + std::to_string(M);
    bool Negate = Out.size() < In.size();
    if (Negate)
      In = Out;
    std::string S = "when '" + Name + "' mod " + std::to_string(M) + (Negate ? " is not " : " is ");
    for (size_t I = 0; I < In.size(); ++I)
      S += (I ? (I + 1 == In.size() ? (Negate ? " nor " : " or ") : ", ") : "") + std::to_string(In[I]);
    return S;
  }
  return "";
}


static SymRef resolveStrides(const SymRef &E, const std::vector<SharedArray> &Arrays) {
  if (E->Kind == ExprKind::RowStride)
    return SymExpr::constant(rowStrideOf(Arrays[E->ArrayId], E->DimIndex, 0), E->Type);
  if (E->Ops.empty())
    return E;
  std::vector<SymRef> Ops;
  for (const SymRef &Op : E->Ops)
    Ops.push_back(resolveStrides(Op, Arrays));
  return withOperands(E, Ops);
}

std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays) {
  return toString(resolveStrides(Offset, Arrays));
}

std::string renderOffset(const SymRef &Offset, const std::vector<SharedArray> &Arrays,
                         const BlockShape &Shape) {
  if (!Shape.known())
    return renderOffset(Offset, Arrays);
  SymRef At = replaceLeaves(resolveStrides(Offset, Arrays), [&](const SymRef &E) -> SymRef {
    unsigned D = unsigned(E->Dim);
    if (E->Kind == ExprKind::BlockDim)
      return SymExpr::constant(Shape.Dim[D], E->Type);
    if (E->Kind == ExprKind::ThreadIdx && D > 0 && Shape.Dim[D] == 1)
      return SymExpr::constant(0, E->Type);
    return nullptr;
  });
  return toString(At);
}

} // namespace cbl
