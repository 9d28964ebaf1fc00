//===- Coverage.cpp - Kernels whose shared memory is not modelled ---------===//
#include "cuda-bank-lint/Driver/Coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace cbl {

const char *unmodelledReasonText(UnmodelledReason R) {
  switch (R) {
  case UnmodelledReason::NoAccessRecognised:
    return "uses shared memory, but no access to it was recognised";
  case UnmodelledReason::CallWithoutBody: return "call whose body is not available";
  case UnmodelledReason::AsyncCopy: return "asynchronous copy (cp.async, TMA), not bank-modelled";
  case UnmodelledReason::Atomic: return "atomic without a measured rule";
  case UnmodelledReason::InlinePtx: return "inline PTX not modelled";
  case UnmodelledReason::Wmma: return "WMMA fragment load or store";
  case UnmodelledReason::RejectedCode: return "call Clang rejects";
  case UnmodelledReason::SharedConstructor: {
    static const std::string Text = std::string(SharedConstructorText) + ": its uses are not analysed";
    return Text.c_str();
  }
  case UnmodelledReason::Expression: return "an address computed by an operation not modelled";
  case UnmodelledReason::RunTimeValues:
    return "an address that depends on values not known statically (--explain says which)";
  case UnmodelledReason::TimeBudget: return "not analysed: the time limit (--timeout) ran out";
  case UnmodelledReason::Other: return "instruction not modelled";
  }
  return "instruction not modelled";
}

UnmodelledReason classifyUnsupported(llvm::StringRef Reason) {
  // The front end's wording, first match wins.
  enum class Where { Anywhere, Start, End };
  static constexpr struct {
    Where At;
    const char *Text;
    UnmodelledReason Reason;
  } Rules[] = {
      {Where::Anywhere, "whose body is not available", UnmodelledReason::CallWithoutBody},
      {Where::Start, "cp.async", UnmodelledReason::AsyncCopy},
      {Where::Anywhere, "atomic", UnmodelledReason::Atomic},
      {Where::Start, "WMMA", UnmodelledReason::Wmma},
      {Where::Start, "inline PTX", UnmodelledReason::InlinePtx},
      {Where::End, "was not measured", UnmodelledReason::InlinePtx},
      {Where::Anywhere, "Clang rejects", UnmodelledReason::RejectedCode},
  };
  for (const auto &R : Rules)
    if (R.At == Where::Start    ? Reason.starts_with(R.Text)
        : R.At == Where::End    ? Reason.ends_with(R.Text)
                                : Reason.contains(R.Text))
      return R.Reason;
  return UnmodelledReason::Other;
}

UnmodelledReason classifyUnknown(llvm::StringRef Reason) {
  // The reason proper, before what the loop enumeration adds in parentheses.
  llvm::StringRef Own = Reason.split(" (the loops were not run").first;
  if (Own.starts_with("budget: "))
    return UnmodelledReason::TimeBudget;
  for (const char *Text : {" not modelled", "result of call to '", "is not tracked",
                           "nested too deeply"})
    if (Own.contains(Text))
      return UnmodelledReason::Expression;
  return UnmodelledReason::RunTimeValues;
}

std::optional<std::pair<std::string, UnmodelledReason>> unmodelledByNote(const FrontEndNote &N) {
  llvm::StringRef M = N.Message;
  if (!M.consume_front("kernel '") && !M.consume_front("function '"))
    return std::nullopt;
  auto [Name, Rest] = M.split("' ");
  if (Rest.starts_with("uses shared memory, but no access to it was recognised"))
    return std::make_pair(Name.str(), UnmodelledReason::NoAccessRecognised);
  if (Rest.consume_front("has ") && Rest.starts_with(SharedConstructorText))
    return std::make_pair(Name.str(), UnmodelledReason::SharedConstructor);
  return std::nullopt;
}

namespace {

std::string withoutTemplateArguments(const std::string &Name) {
  return Name.substr(0, Name.find('<'));
}

} // namespace

std::vector<UnmodelledKernel> unmodelledKernels(const std::vector<AccessRecord> &Accesses,
                                                const std::vector<FrontEndNote> &Notes,
                                                const std::vector<SkippedFunction> &Skipped) {
  std::vector<UnmodelledKernel> Out;
  std::set<std::pair<std::string, UnmodelledReason>> Seen;
  auto Add = [&](const std::string &Name, const SourcePos &Where, UnmodelledReason R,
                 bool IsKernel = true) {
    std::string Kernel = withoutTemplateArguments(Name);
    if (Seen.insert({Kernel, R}).second)
      Out.push_back({Kernel, Where, R, IsKernel});
  };
  for (const AccessRecord &A : Accesses)
    if (A.Status == VerdictStatus::Unsupported)
      Add(A.Function, A.Where, classifyUnsupported(A.Reason), A.InKernel);
    else if (A.Status == VerdictStatus::Unknown)
      Add(A.Function, A.Where, classifyUnknown(A.Reason), A.InKernel);
  // A kernel not analysed because its code uses a __shared__ object with a
  // constructor (an error of its own too), or one that has such an object.
  for (const SkippedFunction &S : Skipped)
    if (S.Why == SkippedFunction::Cause::SharedConstructor)
      Add(S.Name, S.Where, UnmodelledReason::SharedConstructor,
          S.What == SkippedFunction::Kind::Kernel);
  for (const FrontEndNote &N : Notes)
    if (auto Kernel = unmodelledByNote(N))
      Add(Kernel->first, N.Where, Kernel->second);
  return Out;
}

std::string describeUnmodelled(const std::string &File,
                               const std::vector<UnmodelledKernel> &Kernels, bool Strict) {
  if (Kernels.empty())
    return "";
  // The reasons of most kernels first (ties in the enumerators' order);
  // kernels in order of sight.
  std::map<UnmodelledReason, std::vector<std::string>> Grouped;
  std::set<UnmodelledReason> WithFunctions; // groups naming a device function
  std::set<std::string> Distinct, Functions;
  for (const UnmodelledKernel &K : Kernels) {
    Grouped[K.Reason].push_back("'" + K.Kernel + "'" + (K.IsKernel ? "" : " (a device function)"));
    (K.IsKernel ? Distinct : Functions).insert(K.Kernel);
    if (!K.IsKernel)
      WithFunctions.insert(K.Reason);
  }
  std::vector<std::pair<UnmodelledReason, std::vector<std::string>>> ByReason(Grouped.begin(),
                                                                              Grouped.end());
  std::stable_sort(ByReason.begin(), ByReason.end(), [](const auto &A, const auto &B) {
    return A.second.size() > B.second.size();
  });
  auto Count = [](size_t N) { return fmt::format("{} kernel{}", N, N == 1 ? "" : "s"); };
  std::string Where = Distinct.empty() ? "" : Count(Distinct.size());
  if (!Functions.empty())
    Where += fmt::format("{}{} device function{}", Where.empty() ? "" : " and ", Functions.size(),
                         Functions.size() == 1 ? "" : "s");
  std::string Out = fmt::format("{}: {}shared memory not modelled in {}{}:\n", File,
                                Strict ? "error: " : "", Where, Strict ? " (--strict)" : "");
  constexpr size_t Named = 4;
  for (const auto &[Reason, Names] : ByReason) {
    std::string List;
    for (size_t I = 0; I < Names.size() && I < Named; ++I)
      List += (I ? ", " : "") + Names[I];
    if (Names.size() > Named)
      List += fmt::format(" and {} more", Names.size() - Named);
    std::string N = !WithFunctions.count(Reason)
                        ? Count(Names.size())
                        : fmt::format("{} function{}", Names.size(), Names.size() == 1 ? "" : "s");
    Out += fmt::format("  {}: {} ({})\n", N, unmodelledReasonText(Reason), List);
  }
  return Out;
}

} // namespace cbl
