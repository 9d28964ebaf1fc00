//===- VerdictMemo.h - Verdicts of accesses already analysed ---------------===//
//
// analyseAccess is a pure function of its inputs (the access, its function's
// loops, the arrays it names, the evaluated block shape, the architecture and
// the layout change). The memo keys each call by a 128-bit hash of a complete
// serialisation of those inputs (the block shape and the architecture with
// the hash of the rest, made once for an access's several candidate shapes)
// and returns the stored verdict when the same
// inputs come again: the same access in two instantiations or call sites of
// one translation unit, a candidate fix checked twice, and, in the language
// server, every access an edit did not change (the server keeps one memo per
// document across versions).
//
// The key leaves out what the analysis never reads: the access's own source
// position and spelling, and the positions of guards and array declarations.
// Line numbers it does read (loops, and texts that name a line, which the
// verdicts repeat) are keyed relative to the outermost enclosing loop's line
// (else the access's), so code that only
// moved keeps its verdicts, their texts moved with it. A static_assert
// on each serialised struct's size makes a new field a compile error until
// the key covers it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SYMBOLIC_VERDICTMEMO_H
#define CUDA_BANK_LINT_SYMBOLIC_VERDICTMEMO_H

#include "cuda-bank-lint/Symbolic/WarpAnalysis.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

namespace cbl {

class VerdictMemo {
public:
  /// At most MaxEntries verdicts are kept; beyond that the memo starts over.
  explicit VerdictMemo(size_t MaxEntries = 50000) : MaxEntries(MaxEntries) {}

  /// analyseAccess(Access, Loops, Arrays, Shape, Arch, Change), or the
  /// stored verdict of an earlier call with the same inputs.
  AccessVerdict analyse(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
                        const std::vector<SharedArray> &Arrays, const EvalShape &Shape,
                        BankArch Arch, LayoutChange Change);

  /// The inputs but the shape and the architecture, serialised and hashed
  /// once for the several shapes one access is analysed at (UnknownShapes:
  /// each candidate block width). Refers to the objects it was made of.
  class Inputs {
  public:
    Inputs(const SharedAccess &Access, const std::vector<LoopInfo> &Loops,
           const std::vector<SharedArray> &Arrays, LayoutChange Change);

  private:
    friend class VerdictMemo;
    const SharedAccess &Access;
    const std::vector<LoopInfo> &Loops;
    const std::vector<SharedArray> &Arrays;
    LayoutChange Change;
    std::pair<uint64_t, uint64_t> Hash{0, 0}; ///< of the serialised inputs
    int64_t Line = 0;                         ///< the base line of the key
  };
  /// analyse(...) of In's objects at Shape and Arch.
  AccessVerdict analyse(const Inputs &In, const EvalShape &Shape, BankArch Arch);

  /// Drops the verdicts not used since the previous call (the server calls it
  /// after each analysis of a document: what the last version used stays).
  void sweep();

  struct Counters {
    uint64_t Hits = 0, Misses = 0;
    size_t Entries = 0;
  };
  Counters counters() const;

  /// Benchmarks (--debug-no-verdict-memo): every memo of the process
  /// analyses each access anew and keeps nothing.
  static void disableForMeasurement();

private:
  using Key = std::pair<uint64_t, uint64_t>;
  struct Entry {
    AccessVerdict Verdict;
    int64_t Line = 0; ///< the base line of the key it was computed for
    bool Used = true;
  };
  size_t MaxEntries;
  mutable std::mutex Lock;
  std::map<Key, Entry> Entries;
  uint64_t Hits = 0, Misses = 0;
};

} // namespace cbl

#endif
