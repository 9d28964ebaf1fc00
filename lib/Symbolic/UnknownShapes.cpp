//===- UnknownShapes.cpp - An access when the block shape is not known ----===//
//
// With no launch, annotation or --block-dim, an access whose address or
// guards use threadIdx.y or .z is analysed at every block width people
// launch such code with (WarpAnalysis.h: analyseAccessAnyShape): a
// conflict at every width is a warning, at some widths a possible conflict
// stated with its condition.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"
#include "cuda-bank-lint/Symbolic/VerdictMemo.h"
#include "WarpPasses.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>

namespace cbl {

using warp::worse;

namespace {

/// Whether the answer for Access depends on blockDim.x: the block shape is
/// not known (or only bounded: __launch_bounds__ alone, whose 1-D maximum
/// stands for the shape only where threadIdx.y and .z are not read) and the
/// address or a guard uses threadIdx.y or threadIdx.z.
bool dependsOnBlockWidth(const SharedAccess &Access, const BlockShape &Shape) {
  if (Shape.known() && !Shape.boundOnly())
    return false;
  bool UsesYZ = false;
  auto Note = [&](const SymRef &E) {
    SymLeaves L = collectLeaves(E);
    UsesYZ |= L.UsesThreadIdx[1] || L.UsesThreadIdx[2];
  };
  Note(Access.ByteOffset);
  for (const Guard &G : Access.Guards)
    Note(G.Cond);
  return UsesYZ;
}

/// The extents a launch fixes when the shape is known only in part
/// (dim3(32, nwarps): blockDim.x = 32); 0 where it does not. None for
/// __launch_bounds__ alone, whose 1-D maximum is a bound, not an extent.
std::array<unsigned, 3> fixedExtents(const BlockShape &Shape) {
  return Shape.boundOnly() ? std::array<unsigned, 3>{{0, 0, 0}} : Shape.Dim;
}

/// Whether Access is analysed over candidate blocks rather than one 1-D
/// block: its answer depends on the width, or a launch fixes the width (the
/// threads of a 1-D block of unknown width beyond it do not exist).
bool overCandidates(const SharedAccess &Access, const BlockShape &Shape) {
  return dependsOnBlockWidth(Access, Shape) || (!Shape.known() && fixedExtents(Shape)[0]);
}

/// The block widths people launch code of unknown shape with: the one a
/// launch fixes, else a multiple of 32 (each warp in one row; powers of two
/// suffice, wider rows only shift threadIdx.x by whole warps), or the extent
/// of an array dimension that threadIdx.x indexes (tile[16][16]: 16), less a
/// padding element when that leaves a power of two (tile[16][17]: 16). No
/// width larger than such an extent (those lanes would index outside the
/// array) or than the block's most threads (MaxThreads: __launch_bounds__).
std::vector<unsigned> plausibleWidths(const SharedAccess &Access, const BlockShape &Shape) {
  if (unsigned Fixed = fixedExtents(Shape)[0])
    return {Fixed};
  const unsigned MaxThreads = Shape.MaxThreads;
  std::set<unsigned> W;
  unsigned MaxX = MaxThreads;
  for (unsigned E : Access.ThreadXExtents)
    MaxX = std::min(MaxX, E);
  for (unsigned X = WarpSize; X <= MaxX; X *= 2)
    W.insert(X);
  for (unsigned E : Access.ThreadXExtents) {
    if (E >= 1 && E <= MaxThreads)
      W.insert(E);
    if (E > 2 && E - 1 <= MaxThreads && ((E - 1) & (E - 2)) == 0)
      W.insert(E - 1);
  }
  if (W.empty()) // a bound below a warp and every such extent: one row of it
    W.insert(MaxThreads);
  return std::vector<unsigned>(W.begin(), W.end());
}

/// "2-way when blockDim.x is 16; conflict-free when it is 32 to 1024".
std::string widthCondition(const std::vector<VerdictCase> &Cases, const BlockShape &Shape) {
  std::string Out;
  for (const VerdictCase &C : Cases) {
    llvm::StringRef L(C.Label);
    L.consume_front("blockDim.x=");
    std::string Values = L.str();
    size_t Dots = Values.find("..");
    if (Dots != std::string::npos)
      Values = Values.substr(0, Dots) + " to " + Values.substr(Dots + 2);
    std::string Cost = C.Cost.Wavefronts > C.Cost.Ideal
                           ? std::to_string(C.Cost.Degree) + "-way"
                           : std::string("conflict-free");
    Out += (Out.empty() ? "" : "; ") + Cost + " when blockDim.x is " + Values;
  }
  return Out + " (the block shape is not known: blockDim.x a multiple of 32 or the extent "
               "of the dimension threadIdx.x indexes" +
         threadBoundText(Shape) + ")";
}

/// The candidate block of width X when the shape is not known: the rows and
/// slices a launch fixes (one slice where it fixes none); rows it does not
/// fix, as many of X threads as the block's most threads hold in each slice
/// (whole warps where X is a multiple of 32).
EvalShape candidateShape(unsigned X, const BlockShape &Shape) {
  const std::array<unsigned, 3> Fixed = fixedExtents(Shape);
  const unsigned Z = Fixed[2] ? Fixed[2] : 1;
  EvalShape E;
  E.Dim = {{X, Fixed[1] ? Fixed[1] : std::max(1u, Shape.MaxThreads / (X * Z)), Z}};
  E.Warps = (E.Dim[0] * E.Dim[1] * E.Dim[2] + WarpSize - 1) / WarpSize;
  return E;
}

/// analyseAccess of one access at each of its candidate shapes, through
/// Memo when there is one (its inputs serialised once).
class ShapesOf {
public:
  ShapesOf(VerdictMemo *Memo, const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
           const std::vector<SharedArray> &Arrays, BankArch Arch, LayoutChange Change)
      : Memo(Memo), Access(Access), Loops(Loops), Arrays(Arrays), Arch(Arch), Change(Change) {
    if (Memo)
      In.emplace(Access, Loops, Arrays, Change);
  }
  AccessVerdict at(const EvalShape &Shape) {
    return Memo ? Memo->analyse(*In, Shape, Arch) : analyseAccess(Access, Loops, Arrays, Shape, Arch, Change);
  }

private:
  VerdictMemo *Memo;
  const SharedAccess &Access;
  const std::vector<LoopInfo> &Loops;
  const std::vector<SharedArray> &Arrays;
  BankArch Arch;
  LayoutChange Change;
  std::optional<VerdictMemo::Inputs> In;
};

} // namespace

bool conflictFreeAnyShape(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                          const std::vector<SharedArray> &Arrays, const BlockShape &Shape,
                          BankArch Arch, LayoutChange Change, VerdictMemo *Memo) {
  auto Clean = [](const AccessVerdict &V) {
    return (V.Status == VerdictStatus::Exact || V.Status == VerdictStatus::Bound) &&
           V.Cost.Wavefronts == V.Cost.Ideal;
  };
  ShapesOf Analyse(Memo, Access, Loops, Arrays, Arch, Change);
  if (!overCandidates(Access, Shape))
    return Clean(Analyse.at(evalShapeFor(Shape)));
  for (unsigned X : plausibleWidths(Access, Shape))
    if (!Clean(Analyse.at(candidateShape(X, Shape))))
      return false;
  return true;
}

AccessVerdict analyseAccessAnyShape(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                                    const std::vector<SharedArray> &Arrays, const BlockShape &Shape,
                                    BankArch Arch, LayoutChange Change,
                                    VerdictMemo *Memo) {
  ShapesOf Analyse(Memo, Access, Loops, Arrays, Arch, Change);
  if (!Access.Unsupported.empty() || !overCandidates(Access, Shape))
    return Analyse.at(evalShapeFor(Shape));
  AccessVerdict Worst;
  bool Any = false;
  unsigned Conflicting = 0, Evaluated = 0;
  std::vector<VerdictCase> Cases;
  for (unsigned X : plausibleWidths(Access, Shape)) {
    AccessVerdict V = Analyse.at(candidateShape(X, Shape));
    if (V.Status == VerdictStatus::Unknown || V.Status == VerdictStatus::DataDependent)
      return V;
    ++Evaluated;
    Conflicting += V.Cost.Wavefronts > V.Cost.Ideal;
    std::string Label = "blockDim.x=" + std::to_string(X);
    // One case per run of widths with the same cost: "blockDim.x=32..1024".
    if (!Cases.empty() && Cases.back().Cost.Degree == V.Cost.Degree &&
        Cases.back().Cost.Wavefronts == V.Cost.Wavefronts) {
      std::string &Prev = Cases.back().Label;
      Prev = Prev.substr(0, Prev.find("..")) + ".." + std::to_string(X);
    } else {
      Cases.push_back({Label, V.Cost, V.Warp, unsigned(__builtin_popcount(V.Mask))});
    }
    if (!Any || worse(V.Cost, Worst.Cost)) {
      Worst = V;
      Worst.WorstCase = Label;
    }
    Any = true;
  }
  Worst.Cases = Cases;
  Worst.BlockIterations = 0; // sums are for one candidate shape only
  // A conflict at some plausible widths only is a possible conflict, stated
  // with its condition; only a conflict at every one is a warning.
  if (Conflicting && Conflicting < Evaluated && Worst.Condition.empty()) {
    Worst.Status = VerdictStatus::Bound;
    Worst.Condition = widthCondition(Cases, Shape);
    Worst.Reason = Worst.Condition;
  }
  return Worst;
}

} // namespace cbl
