//===- DeviceModel.h - Access models from the optimised device IR (private) ===//
//
// The device-IR front end's entry point: lowers the roots (DeviceLowering.h),
// runs LLVM's analyses on each (DominatorTree, PostDominatorTree, LoopInfo,
// UniformityAnalysis with the sources of divergence of a CUDA thread) and
// translates it (IRTranslator.h) into a FunctionModel.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_DEVICEMODEL_H
#define CUDA_BANK_LINT_LIB_FRONTEND_DEVICEMODEL_H

#include "BlockShapes.h"
#include "DeviceLowering.h"
#include "SharedArrays.h"

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"

#include <functional>
#include <map>
#include <vector>

namespace cbl {

struct DeviceRoot {
  const clang::FunctionDecl *Decl = nullptr;
  std::map<unsigned, BlockShapeFinder::FixedArgument> Fixed; ///< kernels: launch arguments
};

struct DeviceModels {
  /// In the order of the roots.
  std::vector<std::pair<const clang::FunctionDecl *, FunctionModel>> Functions;
  /// Roots not analysed: the declaration and why.
  std::vector<NotLoweredRoot> NotLowered;
  /// Roots no kernel runs (LoweredDevice::NeverRun): not analysed.
  std::vector<const clang::FunctionDecl *> NeverRun;
};

/// Models of Roots (kernels first; a device function that a root calls is
/// analysed inside it, not on its own). Shared: every __shared__ variable
/// of the table, for their ids.
DeviceModels buildDeviceModels(clang::CompilerInstance &CI, clang::ASTContext &Ctx,
                               const std::vector<DeviceRoot> &Roots,
                               const std::vector<const clang::VarDecl *> &Shared,
                               const SharedArrayTable &Table, std::vector<SharedArray> &Arrays,
                               const std::vector<std::string> &ToolkitDirs,
                               const LoweringOptions &Lowering);

} // namespace cbl

#endif
