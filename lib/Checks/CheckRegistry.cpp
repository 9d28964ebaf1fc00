//===- CheckRegistry.cpp - The one list of checks --------------------------===//
#include "cuda-bank-lint/Checks/Check.h"
#include "BankConflictCheck.h"
#include "BarrierDivergenceCheck.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/GlobPattern.h"

namespace cbl {

const std::vector<CheckInfo> &registeredChecks() {
  static const std::vector<CheckInfo> Checks = {
      {BankConflictCheck::Name,
       "shared-memory access whose warp needs more wavefronts than a conflict-free one",
       "Reports loads and stores of __shared__ memory where the lanes of a warp access "
       "distinct 32-bit words of the same bank, so the hardware serialises them. The "
       "message gives the conflict degree, the wavefronts needed versus ideal (as Nsight "
       "Compute counts them on sm_70 and newer), the worst warp, the lane collision and "
       "the block shape assumed. Fix by padding the innermost dimension (offered as a "
       "fix-it when the tool verified it), by swizzling the index, or by changing which "
       "thread reads which element.",
       Severity::Warning,
       [] { return std::make_unique<BankConflictCheck>(); },
       {BankConflictCheck::Name},
       {{std::string(BankConflictCheck::Name) + ".PossibleSeverity",
         {"remark", "warning", "error", "none"}}}},
      {BarrierDivergenceCheck::Name,
       "block barrier that not every thread of the block reaches",
       "Reports __syncthreads() (and _count/_and/_or), cooperative-groups block and grid "
       "sync, inline-PTX bar.sync without a thread count, and calls to device functions "
       "that execute one, when the threads of a block disagree about reaching it. Every "
       "thread of every warp is evaluated; a finding names the lanes or warps that reach "
       "it and those that do not, the condition that splits them and the block shape. "
       "Findings are reported as cuda-barrier-divergence (lanes of one warp disagree, or "
       "the condition depends on per-thread data), cuda-barrier-divergence-across-warps "
       "(whole warps skip it) and cuda-barrier-early-exit (threads returned before it; a "
       "remark unless cuda-barrier-early-exit.Severity is 'warning'). Fix by moving the "
       "barrier out of the condition so every thread executes it, and guarding only the "
       "work.",
       Severity::Warning,
       [] { return std::make_unique<BarrierDivergenceCheck>(); },
       {BarrierDivergenceCheck::Name, BarrierDivergenceCheck::AcrossWarpsName,
        BarrierDivergenceCheck::EarlyExitName},
       {{BarrierDivergenceCheck::EarlyExitSeverityKey, {"remark", "warning", "off", "none"}}}},
  };
  return Checks;
}

std::vector<std::string> allCheckNames() {
  std::vector<std::string> Names;
  for (const CheckInfo &C : registeredChecks())
    Names.insert(Names.end(), C.FindingNames.begin(), C.FindingNames.end());
  return Names;
}

const CheckOptionInfo *findCheckOption(const std::string &Key) {
  for (const CheckInfo &C : registeredChecks())
    for (const CheckOptionInfo &O : C.Options)
      if (O.Key == Key)
        return &O;
  return nullptr;
}

bool checkEnabled(const std::string &Name, const std::string &Globs) {
  bool Enabled = false;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Globs).split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    bool Negative = P.consume_front("-");
    if (P.empty())
      continue;
    auto Pattern = llvm::GlobPattern::create(P);
    if (Pattern && Pattern->match(Name))
      Enabled = !Negative;
  }
  return Enabled;
}

} // namespace cbl
