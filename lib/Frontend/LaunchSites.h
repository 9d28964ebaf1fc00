//===- LaunchSites.h - The launches host code makes, in any form (private) ===//
//
// Host code launches a kernel with the <<<>>> syntax or with the runtime API:
//
//   k<<<grid, block, shmem, stream>>>(a, b);
//   cudaLaunchKernel((void *)k, grid, block, args, shmem, stream);
//   cudaLaunchCooperativeKernel(k, grid, block, args);      // C++ overload
//   cudaLaunchConfig_t cfg = {grid};
//   cfg.blockDim = block;
//   cudaLaunchKernelEx(&cfg, k, a, b);                      // or ...ExC(&cfg, (void *)k, args)
//
// Each becomes one LaunchRecord: the expression that names the kernel, the
// grid and block arguments, the call and its form. Everything that reads
// launches (BlockShapes, Launchers, HostValues) reads the record only. A
// cudaLaunchKernelEx configuration is followed to the local it points to
// (&cfg): its blockDim is the one plain assignment `cfg.blockDim = e` that
// stands directly in the launching function's body before the launch, or,
// with none, what cfg's initialiser gives it (aggregate or designated);
// anything else (a second write, a write in a branch, cfg written whole)
// leaves the block not known. The runtime functions are recognised by
// name where a system header (the toolkit's, or the tool's prelude)
// declares them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_LAUNCHSITES_H
#define CUDA_BANK_LINT_LIB_FRONTEND_LAUNCHSITES_H

#include "HostValues.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace cbl {

/// How a launch is written.
enum class LaunchForm {
  Chevron,     ///< k<<<grid, block>>>(args)
  Runtime,     ///< cudaLaunchKernel (C function or C++ template)
  Cooperative, ///< cudaLaunchCooperativeKernel (both forms)
  Extended,    ///< cudaLaunchKernelEx / cudaLaunchKernelExC: a cudaLaunchConfig_t
};

/// One launch, whatever its form.
struct LaunchRecord {
  const clang::CallExpr *Call = nullptr; ///< the launch itself
  const clang::Expr *Kernel = nullptr;   ///< a kernel's name, a pointer to one, a cast of either
  const clang::Expr *Grid = nullptr;     ///< null: not known (a configuration not followed)
  const clang::Expr *Block = nullptr;    ///< null: not known (a configuration not followed)
  /// The kernel's arguments, when the launch passes them one by one (not
  /// through a void ** array).
  llvm::ArrayRef<const clang::Expr *> Args;
  LaunchForm Form = LaunchForm::Chevron;
};

/// The form of a call of the runtime's launch functions (FD declared in a
/// system header), if FD is one.
std::optional<LaunchForm> runtimeLaunchForm(const clang::FunctionDecl *FD, const clang::SourceManager &SM);

/// The configuration argument of a runtime call of form Form (&cfg of
/// cudaLaunchKernelEx), or null: the launch only reads it.
const clang::Expr *launchConfigArgument(const clang::CallExpr *C, LaunchForm Form);

/// The launch C makes (a CUDAKernelCallExpr, or a call of a runtime
/// function that runtimeLaunchForm recognises), with W complete.
std::optional<LaunchRecord> launchOf(const clang::CallExpr *C, const HostWrites &W, clang::ASTContext &Ctx);

/// The kernel launch L names itself (its name, or its address, cast or
/// not), not through a pointer or a parameter; null otherwise.
const clang::FunctionDecl *namedKernel(const LaunchRecord &L);

} // namespace cbl

#endif
