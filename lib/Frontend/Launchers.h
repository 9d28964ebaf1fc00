//===- Launchers.h - Launches made through generic launchers (private) ----===//
//
// A launch whose callee is not a kernel but a value the host function
// receives or computes:
//
//   template <typename Kernel, typename... Args>
//   void launch(Kernel kernel, const params &p, Args &&...args) {
//     kernel<<<p.grid, p.block, p.shmem, p.stream>>>(args...);
//   }
//   launch(reduce<4>, params(grid, dim3(32, 4), 0, s), ...);
//
// is a launch of whatever kernel each call passes there (also with the
// runtime API: cudaLaunchKernel(kernel, ...), LaunchSites.h). The calls of the
// launching function in the translation unit are followed (at most
// MaxLauncherDepth levels, MaxLauncherCalls calls of each function,
// MaxLauncherChains chains in all), each
// binding the function's parameters to its arguments (BoundCall,
// HostValues.h), until the callee names kernels: a kernel's name or
// template-id, its address, a local function pointer (its initialiser and
// every assignment: a pointer chosen by a run-time switch launches each
// kernel it may hold), a conditional of those. The launch configuration is
// evaluated with the same bindings (BlockShapes.cpp). A launch that names
// its kernel but whose block is a parameter of its function
// (void run(int threads) { k<<<g, threads>>>(); }) is followed to the
// calls of that function the same way, until the block is known.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_LAUNCHERS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_LAUNCHERS_H

#include "HostValues.h"
#include "LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <deque>
#include <functional>
#include <vector>

namespace cbl {

inline constexpr unsigned MaxLauncherDepth = 3;
inline constexpr unsigned MaxLauncherCalls = 32;
inline constexpr unsigned MaxLauncherChains = 256; ///< chains of calls tried per launch

/// One kernel launched by a launch whose callee is not a kernel, through the
/// calls in Frame (innermost first; null for a local function pointer of
/// the launching function itself).
struct IndirectLaunch {
  const clang::FunctionDecl *Kernel = nullptr;
  const LaunchRecord *Launch = nullptr;
  const BoundCall *Frame = nullptr;
};

/// Follows launches through the calls of the functions that make them. The
/// frames the launches point to live as long as this object.
class LauncherCalls {
public:
  LauncherCalls(const HostWrites &W, clang::ASTContext &Ctx) : W(W), Ctx(Ctx) {}
  /// The kernels launch L makes, each with the calls that bind its
  /// launcher's parameters. Complete: whether L's block argument is known
  /// with a chain (then no further caller is followed for it). L must
  /// outlive the result.
  std::vector<IndirectLaunch> follow(const LaunchRecord &L,
                                     const std::function<bool(const BoundCall *)> &Complete);

private:
  void extend(const LaunchRecord &L, std::vector<const clang::CallExpr *> &Chain,
              const std::function<bool(const BoundCall *)> &Complete, std::vector<IndirectLaunch> &Out);
  const BoundCall *frames(const std::vector<const clang::CallExpr *> &Chain);
  const HostWrites &W;
  clang::ASTContext &Ctx;
  std::deque<BoundCall> Frames; ///< stable addresses
  unsigned Chains = 0;          ///< tried for the launch being followed
};

/// The kernels a launch's callee may name.
struct KernelNames {
  std::vector<const clang::FunctionDecl *> Kernels;
  /// It reads a parameter that no call of the chain binds: the calls of the
  /// outermost function tell more.
  bool NeedsCaller = false;
};

/// The kernels E (a launch's callee) may name where Frame binds parameters.
KernelNames kernelsNamed(const clang::Expr *E, const BoundCall *Frame, const HostWrites &W);

} // namespace cbl

#endif
