//===- FixSearch.cpp - Paddings and swizzles, once per declaration --------===//
#include "FixSearch.h"
#include "cuda-bank-lint/Checks/InProgress.h"
#include "cuda-bank-lint/Support/ParallelFor.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

namespace cbl {

std::vector<unsigned> sameDeclaration(const std::vector<SharedArray> &Arrays, unsigned Id) {
  std::vector<unsigned> Out;
  const SourcePos &D = Arrays[Id].Decl;
  for (const SharedArray &A : Arrays)
    if (A.Id == Id || (D.valid() && A.Decl.File == D.File && A.Decl.Offset == D.Offset &&
                       A.Name == Arrays[Id].Name))
      Out.push_back(A.Id);
  return Out;
}

FixSearch::FixSearch(CheckContext &Ctx, const std::vector<EvaluatedAccess> &All)
    : Ctx(Ctx), All(All) {
  const auto &Arrays = Ctx.Model.Arrays;
  Canonical.resize(Arrays.size());
  for (const SharedArray &A : Arrays)
    Canonical[A.Id] = sameDeclaration(Arrays, A.Id).front();
  // Every access of a declaration, in every instantiation; the conflicted
  // ones by place, so that a target finds its instances at once.
  for (size_t I = 0; I < All.size(); ++I) {
    const EvaluatedAccess &E = All[I];
    Declaration &D = declarationOf(E.Access->ArrayId);
    D.Members.push_back(I);
    if (E.Verdict.Cost.Wavefronts > E.Verdict.Cost.Ideal)
      D.Conflicted[{E.Access->Where.File, E.Access->Where.Offset, E.Access->Op}].push_back(I);
  }
}

const FixSearch::PaddedResult &FixSearch::padded(size_t Index, unsigned Pad) {
  auto [It, New] = Padded.try_emplace({Index, Pad});
  if (New) {
    const EvaluatedAccess &E = All[Index];
    AccessVerdict V = analyseAccessAnyShape(*E.Access, E.Fn->Loops, Ctx.Model.Arrays, E.Fn->Shape,
                                            Ctx.Options.Arch,
                                            LayoutChange{int(E.Access->ArrayId), Pad, 0}, Ctx.Memo);
    It->second = {V.Status, V.Cost.Wavefronts, V.Cost.Ideal};
  }
  return It->second;
}

/// The targets stop at the first block shape one still conflicts in: the
/// full verdicts are computed only for paddings that make every instance of
/// the target conflict-free.
bool FixSearch::targetsClean(const std::vector<size_t> &Targets, unsigned Pad) {
  for (size_t T : Targets) {
    const EvaluatedAccess &E = All[T];
    if (!conflictFreeAnyShape(*E.Access, E.Fn->Loops, Ctx.Model.Arrays, E.Fn->Shape,
                              Ctx.Options.Arch, LayoutChange{int(E.Access->ArrayId), Pad, 0},
                              Ctx.Memo))
      return false;
    const PaddedResult &V = padded(T, Pad);
    if ((V.Status != VerdictStatus::Exact && V.Status != VerdictStatus::Bound) ||
        V.Wavefronts != V.Ideal)
      return false;
  }
  return true;
}

/// No access of the declaration gets more excess wavefronts, nor another
/// status, with the padding: once per declaration and padding.
bool FixSearch::noWorse(Declaration &D, unsigned Pad) {
  auto [It, New] = D.NoWorse.try_emplace(Pad, true);
  if (!New)
    return It->second;
  for (size_t I : D.Members) {
    const AccessVerdict &Before = All[I].Verdict;
    if (Before.Status != VerdictStatus::Exact && Before.Status != VerdictStatus::Bound)
      continue;
    const PaddedResult &After = padded(I, Pad);
    if (After.Status != Before.Status ||
        After.Wavefronts - After.Ideal > Before.Cost.Wavefronts - Before.Cost.Ideal)
      return It->second = false;
  }
  return true;
}

unsigned FixSearch::padding(const EvaluatedAccess &Target) {
  Declaration &D = declarationOf(Target.Access->ArrayId);
  Place P{Target.Access->Where.File, Target.Access->Where.Offset, Target.Access->Op};
  auto Known = D.Padding.find(P);
  if (Known != D.Padding.end())
    return Known->second;
  static const std::vector<size_t> None;
  auto Conflicted = D.Conflicted.find(P);
  const std::vector<size_t> &Targets = Conflicted == D.Conflicted.end() ? None : Conflicted->second;
  for (unsigned Pad = 1; Pad <= 32; ++Pad)
    if (targetsClean(Targets, Pad) && noWorse(D, Pad))
      return D.Padding[P] = Pad;
  return D.Padding[P] = 0;
}

bool FixSearch::swizzleClean(Declaration &D, unsigned Chunk) {
  auto [It, New] = D.SwizzleClean.try_emplace(Chunk, true);
  if (!New)
    return It->second;
  for (size_t I : D.Members) {
    const EvaluatedAccess &E = All[I];
    // A wider access would straddle chunks that move independently.
    if (E.Access->Width > Chunk ||
        !conflictFreeAnyShape(*E.Access, E.Fn->Loops, Ctx.Model.Arrays, E.Fn->Shape,
                              Ctx.Options.Arch, LayoutChange{int(E.Access->ArrayId), 0, Chunk},
                              Ctx.Memo))
      return It->second = false;
  }
  return true;
}

unsigned FixSearch::swizzle(unsigned Id) {
  auto [It, New] = Swizzles.try_emplace(Id, 0);
  if (!New)
    return It->second;
  const auto &Arrays = Ctx.Model.Arrays;
  for (unsigned Other : sameDeclaration(Arrays, Id))
    if (!swizzleRowBytes(Arrays[Other]))
      return 0;
  Declaration &D = declarationOf(Id);
  for (unsigned Chunk : {16u, 4u})
    if (Arrays[Id].ElementSize <= Chunk && swizzleClean(D, Chunk))
      return It->second = Chunk;
  return 0;
}

std::vector<const EvaluatedAccess *> FixSearch::accessesOf(unsigned ArrayId) {
  std::vector<const EvaluatedAccess *> Out;
  for (size_t I : declarationOf(ArrayId).Members)
    Out.push_back(&All[I]);
  return Out;
}

namespace {

unsigned excess(VerdictStatus S, unsigned Wavefronts, unsigned Ideal) {
  bool Costed = S == VerdictStatus::Exact || S == VerdictStatus::Bound;
  return Costed && Wavefronts > Ideal ? Wavefronts - Ideal : 0;
}

} // namespace

std::optional<std::vector<FixSearch::PaddedResult>>
FixSearch::withRewrite(const Declaration &D, unsigned Id, const IndexRewrite &R, Gain &Best) {
  std::vector<SharedArray> Laid = Ctx.Model.Arrays;
  for (unsigned Other : sameDeclaration(Laid, Id))
    Laid[Other] = rewrittenArray(Laid[Other], R);
  std::map<size_t, size_t> Position; // index into All -> index into D.Members
  for (size_t K = 0; K < D.Members.size(); ++K)
    Position[D.Members[K]] = K;
  std::vector<std::optional<PaddedResult>> After(D.Members.size());
  std::vector<std::optional<AccessVerdict>> Ready(D.Members.size()); // verdicts with R
  // Whether the member at Order[P] is no worse with R (false also when time
  // is up). Its verdict is computed in one step with those of the next
  // members of Order not known yet, four per worker of the file
  // (ParallelFor.h; one with none): the checks stop at the first worse one,
  // so a few are computed for nothing, and the workers share uneven costs.
  const size_t BatchSize = Ctx.Threads > 1 ? 4 * size_t(Ctx.Threads) : 1;
  auto Analyse = [&](const std::vector<size_t> &Order, size_t P) {
    const size_t K = Order[P];
    if (After[K])
      return true;
    if (Ctx.outOfTime())
      return false;
    std::vector<size_t> Batch;
    for (size_t Q = P; Q < Order.size() && Batch.size() < BatchSize; ++Q)
      if (!Ready[Order[Q]] && !After[Order[Q]])
        Batch.push_back(Order[Q]);
    parallelFor(Ctx.Threads, Batch.size(), [&](size_t J) {
      const EvaluatedAccess &E = All[D.Members[Batch[J]]];
      SharedAccess A = *E.Access;
      A.ByteOffset = rewrittenOffset(A.ByteOffset, R);
      Ready[Batch[J]] = analyseAccessAnyShape(A, E.Fn->Loops, Laid, E.Fn->Shape,
                                              Ctx.Options.Arch, {}, Ctx.Memo);
    }, [] { FunctionInProgress::reset(); });
    const AccessVerdict &V = *Ready[K];
    const AccessVerdict &Before = All[D.Members[K]].Verdict;
    bool Costed = Before.Status == VerdictStatus::Exact || Before.Status == VerdictStatus::Bound;
    if (Costed && (V.Status != Before.Status ||
                   excess(V.Status, V.Cost.Wavefronts, V.Cost.Ideal) >
                       excess(Before.Status, Before.Cost.Wavefronts, Before.Cost.Ideal)))
      return false;
    After[K] = PaddedResult{V.Status, V.Cost.Wavefronts, V.Cost.Ideal};
    return true;
  };
  // The gain is the conflicted places': they are analysed first, and the
  // other accesses (which must not get worse) only for a candidate that
  // would be chosen.
  std::vector<size_t> Conflicted;
  for (const auto &[Place, Instances] : D.Conflicted)
    for (size_t I : Instances)
      Conflicted.push_back(Position[I]);
  Gain G{0, 0};
  size_t P = 0;
  for (const auto &[Place, Instances] : D.Conflicted) {
    bool Clean = true;
    for (size_t I : Instances) {
      const size_t K = Conflicted[P];
      if (!Analyse(Conflicted, P++))
        return std::nullopt;
      const AccessVerdict &Before = All[I].Verdict;
      unsigned Was = excess(Before.Status, Before.Cost.Wavefronts, Before.Cost.Ideal);
      unsigned Now = excess(After[K]->Status, After[K]->Wavefronts, After[K]->Ideal);
      Clean &= Now == 0;
      G.second += Was - Now;
    }
    G.first += Clean;
  }
  if (!G.second || !(G > Best))
    return std::nullopt;
  std::vector<size_t> Every(D.Members.size());
  std::iota(Every.begin(), Every.end(), size_t(0));
  std::vector<PaddedResult> Out;
  for (size_t K = 0; K < D.Members.size(); ++K) {
    if (!Analyse(Every, K))
      return std::nullopt;
    Out.push_back(*After[K]);
  }
  Best = G;
  return Out;
}

void FixSearch::searchRewrite(Declaration &D, unsigned Id) {
  D.RewriteSearched = true;
  const auto &Arrays = Ctx.Model.Arrays;
  unsigned Widest = 0;
  for (size_t I : D.Members)
    Widest = std::max(Widest, All[I].Access->Width);
  // A rewrite every instantiation of the declaration allows.
  std::vector<IndexRewrite> Candidates = rewriteCandidates(Arrays[Id], Widest);
  for (unsigned Other : sameDeclaration(Arrays, Id)) {
    std::vector<IndexRewrite> Here = rewriteCandidates(Arrays[Other], Widest);
    llvm::erase_if(Candidates, [&](const IndexRewrite &R) { return !llvm::is_contained(Here, R); });
  }
  Gain Best{0, 0};
  for (const IndexRewrite &R : Candidates)
    if (std::optional<std::vector<PaddedResult>> After = withRewrite(D, Id, R, Best)) {
      D.Rewrite = R;
      D.Rewritten = std::move(*After);
    }
}

std::optional<FixSearch::Rewrite> FixSearch::rewrite(const EvaluatedAccess &Target) {
  unsigned Id = Target.Access->ArrayId;
  Declaration &D = declarationOf(Id);
  if (!D.RewriteSearched)
    searchRewrite(D, Id);
  if (!D.Rewrite)
    return std::nullopt;
  size_t Index = size_t(&Target - All.data());
  auto It = std::find(D.Members.begin(), D.Members.end(), Index);
  if (It == D.Members.end())
    return std::nullopt;
  const PaddedResult &After = D.Rewritten[size_t(It - D.Members.begin())];
  const AccessVerdict &Before = Target.Verdict;
  if (excess(After.Status, After.Wavefronts, After.Ideal) >=
      excess(Before.Status, Before.Cost.Wavefronts, Before.Cost.Ideal))
    return std::nullopt; // the rewrite helps other accesses, not this one
  return Rewrite{*D.Rewrite, After.Wavefronts, After.Ideal};
}

} // namespace cbl
