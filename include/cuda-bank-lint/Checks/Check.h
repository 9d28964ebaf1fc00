//===- Check.h - Interface of a cuda-bank-lint check ----------------------===//
//
// A check reads the access model of one translation unit and appends
// Findings (and, for the bank analysis, AccessRecords) to the run report.
// Each check is one file pair in lib/Checks, registered once in
// CheckRegistry.cpp, in the manner of clang-tidy.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_CHECKS_CHECK_H
#define CUDA_BANK_LINT_CHECKS_CHECK_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/BankModel/BankModel.h"
#include "cuda-bank-lint/Report/Finding.h"

#include <chrono>
#include <functional>
#include <optional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cbl {

class VerdictMemo;

/// Options every check may read.
struct CheckOptions {
  BankArch Arch = BankArch::Sm70Plus;
  unsigned MinConflictDegree = 2; ///< report only conflicts of at least this degree
  bool Explain = false;           ///< keep per-lane tables in the records
  /// Findings inside system headers (libraries such as CUB) are reported where
  /// they are; by default they are reported at the user's call into them.
  bool SystemHeaders = false;
  /// Per-check options, "check-name.Option" -> value (clang-tidy style).
  std::map<std::string, std::string> Values;
};

/// When the analysis of a file must stop (--timeout): checks give what they
/// have not reached by then the status unknown, with the reason, and count it.
struct TimeBudget {
  std::optional<std::chrono::steady_clock::time_point> Deadline;
  std::string Limit;                ///< the limit as given, for the reason text
  mutable unsigned Unanalysed = 0;  ///< accesses and barriers given up
  bool exhausted() const { return Deadline && std::chrono::steady_clock::now() >= *Deadline; }
  std::string reason() const {
    return "budget: the file's time limit (--timeout=" + Limit +
           ") ran out before this access was analysed";
  }
};

struct CheckContext {
  const TranslationUnitModel &Model;
  const CheckOptions &Options;
  RunReport &Out;
  const TimeBudget *Budget = nullptr; ///< null: no limit
  /// Verdicts of accesses analysed before (same inputs, same verdict); null:
  /// every access is analysed.
  VerdictMemo *Memo = nullptr;
  /// Workers for the accesses of this file (1: in this thread only).
  unsigned Threads = 1;
  bool outOfTime() const { return Budget && Budget->exhausted(); }
};

class Check {
public:
  virtual ~Check() = default;
  virtual void run(CheckContext &Ctx) = 0;
};

/// A per-check option of CheckOptions ("check-name.Option") and the values
/// it accepts.
struct CheckOptionInfo {
  std::string Key;                 ///< "cuda-barrier-early-exit.Severity"
  std::vector<std::string> Values; ///< accepted values, the default first
};

struct CheckInfo {
  std::string Name;
  std::string Summary;      ///< one line, for SARIF rules
  std::string Help;         ///< a paragraph: what it finds and how to fix it
  Severity DefaultSeverity = Severity::Warning;
  std::function<std::unique_ptr<Check>()> Make;
  /// Every name its findings carry (Name first): what --checks, NOLINT and
  /// --list-checks see.
  std::vector<std::string> FindingNames;
  std::vector<CheckOptionInfo> Options;
};

/// All checks, in a fixed order.
const std::vector<CheckInfo> &registeredChecks();

/// Every name a finding can carry, in registry order.
std::vector<std::string> allCheckNames();

/// The option registered under Key, or null.
const CheckOptionInfo *findCheckOption(const std::string &Key);

/// clang-tidy glob semantics: comma-separated globs, '-' disables, the last
/// matching glob wins. Returns false if no glob matches.
bool checkEnabled(const std::string &Name, const std::string &Globs);

} // namespace cbl

#endif
