//===- BlockShapes.h - Block shape of each kernel from the source (private) ===//
//
// Finds, for each kernel, the block shape the translation unit launches it
// with: a k<<<grid, block>>> launch whose block argument is a constant
// expression (dim3(32, 8), a #define, a constexpr, or a local dim3 initialised
// with constants), also where a generic launcher makes the launch with what
// its callers pass (Launchers.h), otherwise __launch_bounds__ (max threads,
// 1-D; a bound on the thread count for the barrier check); and the
// kernel parameters every launch sets the same way (a constant, the block
// size it launches with, or a function of it: HostValues.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_BLOCKSHAPES_H
#define CUDA_BANK_LINT_LIB_FRONTEND_BLOCKSHAPES_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>
#include <vector>

namespace cbl {

class BlockShapeFinder {
public:
  explicit BlockShapeFinder(clang::ASTContext &Ctx);
  /// The shape of the first launch with a constant one, if any; else the
  /// constant components of the first launch that has some (the others 0).
  std::optional<BlockShape> launchShapeOf(const clang::FunctionDecl *Kernel) const;
  /// The constant shapes of the kernel's other launches in this file, each
  /// once, when they differ from launchShapeOf's.
  std::vector<BlockShape> otherLaunchShapesOf(const clang::FunctionDecl *Kernel) const;
  /// The shape __launch_bounds__ gives (1-D, its maximum), if any.
  std::optional<BlockShape> boundsShapeOf(const clang::FunctionDecl *Kernel) const;
  /// Kernel's __launch_bounds__ when it bounds nothing (FunctionModel::BoundsIgnored).
  std::string ignoredBoundsOf(const clang::FunctionDecl *Kernel) const;
  /// Every launched kernel with a constant shape, with that shape.
  const llvm::DenseMap<const clang::FunctionDecl *, BlockShape> &launches() const {
    return Launched;
  }

  /// A parameter's value that every launch of the kernel in this file gives
  /// it: a constant (Constant set) or a component of blockDim (Axis set).
  struct FixedArgument {
    LaunchArgument Text;
    std::optional<int64_t> Constant;
    std::optional<unsigned> BlockAxis;
    SymRef Value; ///< otherwise: a function of the block size (log2(n / 2), lws(n))
  };
  /// By parameter position; empty when the file does not launch the kernel.
  std::map<unsigned, FixedArgument> argumentsOf(const clang::FunctionDecl *Kernel) const;

private:
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, BlockShape> Launched;
  llvm::DenseMap<const clang::FunctionDecl *, BlockShape> Partly; ///< some components known
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<BlockShape>> Others;
  llvm::DenseMap<const clang::FunctionDecl *, std::map<unsigned, FixedArgument>> Arguments;
};

} // namespace cbl

#endif
