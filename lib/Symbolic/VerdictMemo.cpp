//===- VerdictMemo.cpp - Verdicts of accesses already analysed -------------===//
#include "cuda-bank-lint/Symbolic/VerdictMemo.h"
#include "cuda-bank-lint/AccessModel/HostFunction.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <cctype>
#include <set>

namespace cbl {

namespace {

// A new field in one of these makes the key incomplete: add it to the
// serialisation below (or say why the analysis never reads it), then update
// the size. Sizes of x86-64 with libstdc++; other platforms skip the check.
#if defined(__x86_64__) && defined(__GLIBCXX__)
// SymExpr::Text and Key are caches of the node's renderings, never part of the key;
// ReadsCounter, ThreadAxes, ReadsLaneValue, TreeSize and Hash follow from the
// kind, axis and lane-variance of the leaves and from the operands.
static_assert(sizeof(SymExpr) == 192, "SymExpr changed: update VerdictMemo's key");
static_assert(sizeof(Guard) == 80, "Guard changed: update VerdictMemo's key");
static_assert(sizeof(SharedAccess) == 392, "SharedAccess changed: update VerdictMemo's key");
static_assert(sizeof(LoopCounter) == 80, "LoopCounter changed: update VerdictMemo's key");
static_assert(sizeof(LoopInfo) == 104, "LoopInfo changed: update VerdictMemo's key");
static_assert(sizeof(SharedArray) == 296, "SharedArray changed: update VerdictMemo's key");
static_assert(sizeof(EvalShape) == 16, "EvalShape changed: update VerdictMemo's key");
static_assert(sizeof(LayoutChange) == 12, "LayoutChange changed: update VerdictMemo's key");
// Texts of a verdict that may name a line: shiftLines moves them.
static_assert(sizeof(AccessVerdict) == 1200, "AccessVerdict changed: update shiftLines");
// AccessVerdict::Edge holds costs and masks, never a line.
// AccessVerdict::Random names loaded values ("in[t]", or "value at line 9"
// for a load the compiler moved) and the unknowns regardless of which it holds.
static_assert(sizeof(VerdictCase) == 80, "VerdictCase changed: update shiftLines");
#endif

/// Whether S may name a line (mapLineNumbers would change it).
bool namesLine(llvm::StringRef S) {
  return S.contains("line ") || S.contains("iteration@");
}

/// Calls Shift on every line number in S ("line 12", "iteration@12": the
/// only ways the analysis and the front end name a line in their texts) and
/// returns S with the results in their place.
template <typename F> std::string mapLineNumbers(llvm::StringRef S, F Shift) {
  std::string Out;
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size();) {
    size_t Digits = llvm::StringRef::npos;
    for (llvm::StringRef Lead : {"line ", "iteration@"})
      if (S.substr(I).starts_with(Lead) &&
          (I == 0 || !(std::isalnum(static_cast<unsigned char>(S[I - 1])) || S[I - 1] == '_')))
        Digits = I + Lead.size();
    size_t End = Digits;
    while (End != llvm::StringRef::npos && End < S.size() && std::isdigit(static_cast<unsigned char>(S[End])))
      ++End;
    if (Digits == llvm::StringRef::npos || End == Digits || End - Digits > 9) {
      Out += S[I++];
      continue;
    }
    Out += S.slice(I, Digits);
    Out += std::to_string(Shift(std::stoll(S.slice(Digits, End).str())));
    I = End;
  }
  return Out;
}

/// Writes the inputs of one analyseAccess call as bytes; expressions as a
/// DAG (each node once, operands by index), so shared subtrees cost once.
/// Line numbers are written relative to a base line (see analyse): code that
/// only moved (a line inserted above it) has the same key, and its verdict's
/// texts are moved with it (shiftLines).
class KeyWriter {
public:
  KeyWriter(llvm::SmallVectorImpl<char> &Buf, int64_t BaseLine) : OS(Buf), Base(BaseLine) {}

  void num(uint64_t V) { OS.write(reinterpret_cast<const char *>(&V), sizeof V); }
  void text(llvm::StringRef S) {
    if (!namesLine(S)) { // most texts: written as they are
      num(S.size());
      OS << S;
      return;
    }
    std::string R = mapLineNumbers(S, [&](int64_t L) { return L - Base; });
    num(R.size());
    OS << R;
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

  /// The loops the access reads: its enclosing loops and those whose
  /// counters its expressions (or those of loops already written) name.
  /// Other loops of the function are not read by the analysis.
  void loops(const std::vector<LoopInfo> &Loops, const std::vector<unsigned> &Enclosing) {
    std::set<unsigned> Wanted(Enclosing.begin(), Enclosing.end());
    std::vector<bool> Written(Loops.size());
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (size_t I = 0; I < Loops.size(); ++I) {
        const LoopInfo &L = Loops[I];
        bool Read = Wanted.count(L.Id) != 0;
        for (const LoopCounter &C : L.Counters)
          Read |= Counters.count(C.Id) != 0;
        if (Written[I] || !Read)
          continue;
        Written[I] = Changed = true;
        loop(L);
      }
    }
    num(~0ull);
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
      const SharedArray &A = All[Id]; // Decl, InnermostExtent*, ExtentTexts: fix-it text only
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
  void loop(const LoopInfo &L) {
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
    num(uint64_t(int64_t(L.Where.Line) - Base)); // loop lines appear in the texts
    num(L.LaneVarying);
  }

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
    if (E.Kind == ExprKind::LoopVar)
      Counters.insert(E.LoopId);
    text(E.Name);
    text(E.Reason);
    num(E.LoopId);
    num(E.LaneVarying * 2 + E.threadVarying()); // TreeSize, Hash: derived
    num(unsigned(E.Op));
    list(Ops);
    if (E.Kind == ExprKind::Call && E.Fn)
      function(*E.Fn);
    uint64_t Id = Index.size();
    Index[&E] = Id;
    return Id;
  }

  /// A host function by its contents (two helpers of one name may differ).
  void function(const HostFunction &F) {
    text(F.Name);
    num(F.Result.Bits * 2 + F.Result.Signed);
    num(F.Params);
    num(F.SlotTypes.size());
    for (IntType T : F.SlotTypes)
      num(T.Bits * 2 + T.Signed);
    statements(F.Body);
  }
  void statements(const std::vector<HostFunction::Stmt> &Body) {
    num(Body.size());
    for (const HostFunction::Stmt &S : Body) {
      num(unsigned(S.Kind) * 4 + S.TestFirst);
      num(S.Slot);
      num(S.Value ? node(*S.Value) : ~0ull);
      statements(S.Body);
      statements(S.Else);
    }
  }

  llvm::raw_svector_ostream OS;
  int64_t Base;
  llvm::DenseMap<const SymExpr *, uint64_t> Index;
  std::set<unsigned> Arrays;
  std::set<unsigned> Counters; ///< LoopCounter::Id of the LoopVar leaves written
};

/// Moves every line number in V's texts by Delta.
void shiftLines(AccessVerdict &V, int64_t Delta) {
  auto Shift = [&](std::string &S) {
    S = mapLineNumbers(S, [&](int64_t L) { return L + Delta; });
  };
  auto ShiftAll = [&](std::vector<std::string> &List) {
    for (std::string &S : List)
      Shift(S);
  };
  Shift(V.Reason);
  ShiftAll(V.Parameters);
  ShiftAll(V.AssumedUniform);
  ShiftAll(V.BoundBy);
  ShiftAll(V.BoundaryBy);
  Shift(V.Boundary);
  for (VerdictCase &C : V.Cases)
    Shift(C.Label);
  Shift(V.WorstCase);
  Shift(V.Condition);
  if (V.Random) {
    ShiftAll(V.Random->Values);
    ShiftAll(V.Random->Regardless);
  }
}

std::atomic<bool> Disabled{false};

} // namespace

void VerdictMemo::disableForMeasurement() { Disabled = true; }

VerdictMemo::Inputs::Inputs(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                            const std::vector<SharedArray> &Arrays, LayoutChange Change)
    : Access(Access), Loops(Loops), Arrays(Arrays), Change(Change) {
  if (Disabled)
    return;
  // Lines are keyed relative to the outermost enclosing loop's (the loops
  // may be in a kernel calling the helper the access is in), else to the
  // access's own.
  Line = !Access.Loops.empty() && Access.Loops[0] < Loops.size() ? Loops[Access.Loops[0]].Where.Line
                                                                 : Access.Where.Line;
  llvm::SmallString<4096> Bytes;
  KeyWriter W(Bytes, Line);
  W.access(Access);
  W.loops(Loops, Access.Loops);
  W.arrays(Arrays, Change);
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()));
  Hash = {H.low64, H.high64};
}

AccessVerdict VerdictMemo::analyse(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                                   const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                                   BankArch Arch, LayoutChange Change) {
  return analyse(Inputs(Access, Loops, Arrays, Change), Shape, Arch);
}

AccessVerdict VerdictMemo::analyse(const Inputs &In, const EvalShape &Shape, BankArch Arch) {
  if (Disabled) {
    {
      std::lock_guard<std::mutex> G(Lock);
      ++Misses;
    }
    return analyseAccess(In.Access, In.Loops, In.Arrays, Shape, Arch, In.Change);
  }
  llvm::SmallString<64> Buf;
  KeyWriter W(Buf, In.Line);
  W.num(In.Hash.first);
  W.num(In.Hash.second);
  for (unsigned D : Shape.Dim)
    W.num(D);
  W.num(Shape.Warps);
  W.num(unsigned(Arch));
  llvm::XXH128_hash_t H =
      llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Buf.data()),
                                                 Buf.size()));
  Key K{H.low64, H.high64};
  const int64_t Line = In.Line;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Entries.find(K);
    if (It != Entries.end()) {
      ++Hits;
      It->second.Used = true;
      AccessVerdict V = It->second.Verdict;
      if (Line != It->second.Line)
        shiftLines(V, Line - It->second.Line);
      return V;
    }
    ++Misses;
  }
  AccessVerdict V = analyseAccess(In.Access, In.Loops, In.Arrays, Shape, Arch, In.Change);
  std::lock_guard<std::mutex> G(Lock);
  if (Entries.size() >= MaxEntries)
    Entries.clear();
  Entries[K] = Entry{V, Line, true};
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
