//===- PreambleCache.h - Parse a file's headers once, reuse them ----------===//
//
// While a file is edited its headers do not change: the CUDA headers (or the
// prelude) that the device-side command includes implicitly and the
// #include lines at the top of the file are the "preamble", compiled once
// into a precompiled header (clang::PrecompiledPreamble, as clangd does) and
// reused by each re-analysis that leaves them alone. A preamble is rebuilt
// when the command, the text of the preamble lines, or a file it read
// (on disk, or an unsaved buffer) changes. A preamble that does not compile
// is not used: the whole file is parsed, and its errors are reported as
// without a cache. Used by the language server (ModelOptions::Preambles);
// the command line parses each file once and does not use it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_FRONTEND_PREAMBLECACHE_H
#define CUDA_BANK_LINT_FRONTEND_PREAMBLECACHE_H

#include <memory>

namespace cbl {

class PreambleCache {
public:
  /// Keeps the preambles of at most Capacity commands (least recently used
  /// dropped first; each one is tens of MB with the CUDA headers).
  explicit PreambleCache(unsigned Capacity = 6);
  ~PreambleCache();
  PreambleCache(const PreambleCache &) = delete;
  PreambleCache &operator=(const PreambleCache &) = delete;

  struct Counters {
    unsigned Built = 0;   ///< preambles compiled
    unsigned Reused = 0;  ///< parses that reused one
    unsigned Unusable = 0; ///< parses of the whole file (the preamble does not compile)
  };
  Counters counters() const;
  /// Forgets the preambles that failed to compile (a header may exist now).
  void forgetFailures();

  struct Impl; ///< lib/Frontend/Preambles.cpp

private:
  std::unique_ptr<Impl> I;
  friend Impl &implOf(PreambleCache &C);
};

} // namespace cbl

#endif
