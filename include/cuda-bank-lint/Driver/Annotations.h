//===- Annotations.h - In-source block-shape annotations ------------------===//
//
// `// cuda-bank-lint: block-dim(32, 8)` on the line(s) just above a kernel
// (above its template<> and __launch_bounds__ lines too) pins the kernel's
// block shape. It ranks below --block-dim and the config's BlockDim and above
// launches, __launch_bounds__ and the assumption (ShapeResolver.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_ANNOTATIONS_H
#define CUDA_BANK_LINT_DRIVER_ANNOTATIONS_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Frontend/UnsavedFiles.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace cbl {

/// Reads each file once (one instance per translation unit): its unsaved
/// text in Unsaved, if any, else the disk.
class AnnotationReader {
public:
  explicit AnnotationReader(const UnsavedFiles *Unsaved = nullptr) : Unsaved(Unsaved) {}
  /// The annotation above the declaration whose name is at Name. A
  /// malformed annotation yields nullopt and a warning in Messages.
  std::optional<BlockShape> blockDimFor(const SourcePos &Name, std::string &Messages);

private:
  const UnsavedFiles *Unsaved;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
};

} // namespace cbl

#endif
