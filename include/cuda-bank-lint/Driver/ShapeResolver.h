//===- ShapeResolver.h - The one home of a kernel's block shape -----------===//
//
// Every kernel's block shape is decided here, in this order:
//   1. --block-dim (every kernel);
//   2. the config's BlockDim rules (first match);
//   3. a `// cuda-bank-lint: block-dim(x, y, z)` annotation above the kernel;
//   4. the first launch with a constant shape in the translation unit;
//   5. the first such launch in another translation unit: an entry of the
//      compilation database, else a .cu file near the analysed one (a kernel
//      defined in a .cuh and launched from a .cu);
//   6. __launch_bounds__ (1-D, its maximum; BlockShape::boundOnly: the
//      barrier check takes it as a bound on the thread count, not a shape);
//   7. otherwise assumed: the symbolic layer considers the block widths such
//      code is launched with (docs/design.md).
// The result is FunctionModel::Shape, whose From and Description say which
// rule gave it; the front end only gathers the evidence (launches, bounds).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_SHAPERESOLVER_H
#define CUDA_BANK_LINT_DRIVER_SHAPERESOLVER_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Driver/Config.h"
#include "cuda-bank-lint/Frontend/UnsavedFiles.h"

#include <array>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cbl {

/// Launches of kernels in other translation units, found on demand: the
/// candidate files whose text launches a kernel of that name are parsed for
/// their launches only, once each (thread-safe).
class LaunchIndex {
public:
  /// Candidates: the files that may launch a kernel (absolute paths).
  /// Parse: the launches of one file, with their kernels' names.
  using Parser = std::function<std::vector<LaunchedKernel>(const std::string &)>;
  LaunchIndex(std::function<std::vector<std::string>(const std::string &File)> Candidates,
              Parser Parse)
      : Candidates(std::move(Candidates)), Parse(std::move(Parse)) {}

  /// The first launch (by file, then position) of Kernel (the same name,
  /// declared at the same place) among the candidates of Analysed, Analysed
  /// itself left out.
  std::optional<BlockShape> find(const FunctionModel &Kernel, const std::string &Analysed);

private:
  std::function<std::vector<std::string>(const std::string &)> Candidates;
  Parser Parse;
  std::mutex Lock;
  /// Per analysed file, its candidates; per candidate, the names its launches
  /// may be of (read once), and its launches once parsed.
  std::map<std::string, std::vector<std::string>> CandidateFiles;
  std::map<std::string, std::set<std::string>> Launchable;
  std::map<std::string, std::vector<LaunchedKernel>> Parsed;
};

struct ShapeOptions {
  std::optional<std::array<unsigned, 3>> BlockDim; ///< --block-dim
  const std::vector<BlockDimRule> *Rules = nullptr; ///< config BlockDim
  LaunchIndex *OtherUnits = nullptr;                ///< null: this unit only
  const UnsavedFiles *Unsaved = nullptr;            ///< annotations read from these first
  std::optional<std::array<unsigned, 3>> GridDim;   ///< --grid-dim, for every function
};

/// Sets the Shape of every function of M (File: the analysed file); warnings
/// about malformed annotations go to Messages.
void resolveShapes(TranslationUnitModel &M, const std::string &File, const ShapeOptions &Opts,
                   std::string &Messages);

} // namespace cbl

#endif
