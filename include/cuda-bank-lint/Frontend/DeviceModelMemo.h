//===- DeviceModelMemo.h - Kernels' models kept between versions of a file ===//
//
// After the parse, most of an analysis is LLVM's -O3 pipeline over the
// kernels' device code and its translation into access models. While a file
// is edited most of its kernels do not change: the language server keeps one
// memo per document, and a re-analysis optimises and translates only the
// kernels whose code an edit changed (ModelOptions::DeviceModels).
//
// The unit kept is a root (a kernel, or a device function no kernel calls)
// with everything it reaches: every call is inlined into its root, so its
// optimised code is its own. Roots of one optimisation group that reach a
// function the optimiser may leave a call (one that calls itself, or one of
// 10,000 instructions or more) are kept or optimised together, a cluster.
// A cluster's key is a 128-bit hash of its unoptimised IR (every function,
// variable and type it reaches, with its line table), the text of the
// source lines of those functions, the ids of the shared variables it
// names, and what the translation takes from the AST (the launch arguments
// of its kernels). A kept cluster is not optimised again: the other
// clusters of its group are optimised without it, as the command line
// optimises a group without the roots that hold nothing shared.
// The byte offsets of kept models follow the new text (their lines and
// columns are in the key). The command line does not use it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_FRONTEND_DEVICEMODELMEMO_H
#define CUDA_BANK_LINT_FRONTEND_DEVICEMODELMEMO_H

#include <cstdint>
#include <memory>

namespace cbl {

class DeviceModelMemo {
public:
  DeviceModelMemo();
  ~DeviceModelMemo();
  DeviceModelMemo(const DeviceModelMemo &) = delete;
  DeviceModelMemo &operator=(const DeviceModelMemo &) = delete;

  struct Counters {
    uint64_t Kept = 0;      ///< roots whose models were kept
    uint64_t Optimised = 0; ///< roots optimised and translated (with a memo)
    size_t Entries = 0;
  };
  Counters counters() const;
  /// Drops the models not used since the previous call (the server calls it
  /// after each analysis of a document: what the last version used stays).
  void sweep();

  /// Testing (--debug-device-model-memo): every unit's device code is
  /// analysed twice with a memo of its own that keeps every other root's
  /// model, and the second analysis is the one used: it keeps those and
  /// optimises the others without them, as a re-analysis in the server
  /// does, so its output, which must equal a plain run's, tests both.
  static void analyseTwiceForTesting();
  static bool analysingTwice();

  struct Impl; ///< lib/Frontend/DeviceReuse.cpp

private:
  std::unique_ptr<Impl> I;
  friend Impl &implOf(DeviceModelMemo &M);
};

} // namespace cbl

#endif
