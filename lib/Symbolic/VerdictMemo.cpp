//===- VerdictMemo.cpp - Verdicts of accesses already analysed -------------===//
#include "cuda-bank-lint/Symbolic/VerdictMemo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <set>

namespace cbl {

namespace {

// A new field in one of these makes the key incomplete: add it to the
// serialisation below (or say why the analysis never reads it), then update
// the size. Sizes of x86-64 with libstdc++; other platforms skip the check.
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(SymExpr) == 160, "SymExpr changed: update VerdictMemo's key");
static_assert(sizeof(Guard) == 80, "Guard changed: update VerdictMemo's key");
static_assert(sizeof(SharedAccess) == 392, "SharedAccess changed: update VerdictMemo's key");
static_assert(sizeof(LoopCounter) == 80, "LoopCounter changed: update VerdictMemo's key");
static_assert(sizeof(LoopInfo) == 104, "LoopInfo changed: update VerdictMemo's key");
static_assert(sizeof(SharedArray) == 264, "SharedArray changed: update VerdictMemo's key");
static_assert(sizeof(EvalShape) == 16, "EvalShape changed: update VerdictMemo's key");
static_assert(sizeof(LayoutChange) == 12, "LayoutChange changed: update VerdictMemo's key");
#endif

/// Writes the inputs of one analyseAccess call as bytes; expressions as a
/// DAG (each node once, operands by index), so shared subtrees cost once.
class KeyWriter {
public:
  explicit KeyWriter(llvm::SmallVectorImpl<char> &Buf) : OS(Buf) {}

  void num(uint64_t V) { OS.write(reinterpret_cast<const char *>(&V), sizeof V); }
  void text(llvm::StringRef S) {
    num(S.size());
    OS << S;
  }
  void expr(const SymRef &E) { num(E ? node(*E) : ~0ull); }

  void access(const SharedAccess &A) {
    // Leaves out Where, Length and Spelling: presentation only.
    num(A.ArrayId);
    Arrays.insert(A.ArrayId);
    num(unsigned(A.Op));
    num(unsigned(A.Atomic));
    text(A.Instruction);
    num(A.Matrix);
    num(A.AddressLanes);
    num(A.Width);
    expr(A.ByteOffset);
    num(A.Guards.size());
    for (const Guard &G : A.Guards) { // Where: not read by the analysis
      expr(G.Cond);
      num(G.Negated);
      num(unsigned(G.Kind));
    }
    list(A.Loops);
    list(A.ThreadXExtents);
    num(A.Region);
    num(A.Volatile);
    text(A.MaySplit);
    num(A.MergedWith.size());
    for (const auto &M : A.MergedWith)
      text(M.second);
    num(A.CallChain.size());
    for (const CallFrame &F : A.CallChain)
      text(F.Callee);
    text(A.NotAnalysable);
    text(A.Unsupported);
  }

  void loops(const std::vector<LoopInfo> &Loops) {
    num(Loops.size());
    for (const LoopInfo &L : Loops) {
      num(L.Id);
      num(L.Counters.size());
      for (const LoopCounter &C : L.Counters) {
        num(C.Id);
        text(C.Name);
        expr(C.Init);
        expr(C.Next);
        num(C.LaneVarying);
      }
      expr(L.Cond);
      num(L.Where.Line); // loop lines appear in the verdicts' texts
      num(L.LaneVarying);
    }
  }

  /// The arrays the access and its expressions name (and the one Change
  /// lays out anew).
  void arrays(const std::vector<SharedArray> &All, const LayoutChange &Change) {
    if (Change.Array >= 0)
      Arrays.insert(unsigned(Change.Array));
    num(Arrays.size());
    for (unsigned Id : Arrays) {
      num(Id);
      if (Id >= All.size()) {
        num(~0ull);
        continue;
      }
      const SharedArray &A = All[Id]; // Decl, InnermostExtent*: fix-it text only
      text(A.Name);
      num(A.IsExtern);
      text(A.ElementType);
      num(A.ElementSize);
      num(A.Alignment);
      list(A.Dims);
    }
    num(unsigned(Change.Array));
    num(Change.Padding);
    num(Change.SwizzleBytes);
  }

private:
  template <typename T> void list(const std::vector<T> &V) {
    num(V.size());
    for (const T &X : V)
      num(uint64_t(X));
  }

  uint64_t node(const SymExpr &E) {
    auto It = Index.find(&E);
    if (It != Index.end())
      return It->second;
    std::vector<uint64_t> Ops;
    for (const SymRef &Op : E.Ops)
      Ops.push_back(Op ? node(*Op) : ~0ull);
    num(0xe0 + unsigned(E.Kind));
    num(E.Type.Bits * 2 + E.Type.Signed);
    num(uint64_t(E.Value));
    num(unsigned(E.Dim));
    num(E.ArrayId);
    num(E.DimIndex);
    if (E.Kind == ExprKind::RowStride)
      Arrays.insert(E.ArrayId);
    text(E.Name);
    text(E.Reason);
    num(E.LoopId);
    num(E.LaneVarying * 2 + E.ThreadVarying); // TreeSize, Hash: derived
    num(unsigned(E.Op));
    list(Ops);
    uint64_t Id = Index.size();
    Index[&E] = Id;
    return Id;
  }

  llvm::raw_svector_ostream OS;
  llvm::DenseMap<const SymExpr *, uint64_t> Index;
  std::set<unsigned> Arrays;
};

} // namespace

AccessVerdict VerdictMemo::analyse(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                                   const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                                   BankArch Arch, LayoutChange Change) {
  llvm::SmallString<4096> Buf;
  KeyWriter W(Buf);
  W.access(Access);
  W.loops(Loops);
  W.arrays(Arrays, Change);
  for (unsigned D : Shape.Dim)
    W.num(D);
  W.num(Shape.Warps);
  W.num(unsigned(Arch));
  llvm::XXH128_hash_t H =
      llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Buf.data()),
                                                 Buf.size()));
  Key K{H.low64, H.high64};
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Entries.find(K);
    if (It != Entries.end()) {
      ++Hits;
      It->second.Used = true;
      return It->second.Verdict;
    }
    ++Misses;
  }
  AccessVerdict V = analyseAccess(Access, Loops, Arrays, Shape, Arch, Change);
  std::lock_guard<std::mutex> G(Lock);
  if (Entries.size() >= MaxEntries)
    Entries.clear();
  Entries[K] = Entry{V, true};
  return V;
}

void VerdictMemo::sweep() {
  std::lock_guard<std::mutex> G(Lock);
  for (auto It = Entries.begin(); It != Entries.end();) {
    if (!It->second.Used) {
      It = Entries.erase(It);
      continue;
    }
    It->second.Used = false;
    ++It;
  }
}

VerdictMemo::Counters VerdictMemo::counters() const {
  std::lock_guard<std::mutex> G(Lock);
  return {Hits, Misses, Entries.size()};
}

} // namespace cbl
