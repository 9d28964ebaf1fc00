//===- fuzz-config.cpp - libFuzzer target: the configuration file ---------===//
//
// The input is a .cuda-bank-lint.yaml. It must either parse or be rejected
// with a message; what parses must survive --dump-config: the dump parses
// again, to the same effective configuration (a round trip).
//   bin/fuzz-config -dict=utils/fuzz/config.dict CORPUS_DIR SEED_DIR
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Driver/Config.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>

using namespace cbl;

namespace {

/// What a run uses of C, defaults filled in as dumpConfig fills them.
auto effective(const Config &C) {
  std::vector<std::tuple<std::string, unsigned, unsigned, unsigned>> Rules;
  for (const BlockDimRule &R : C.BlockDim)
    Rules.emplace_back(R.Glob, R.Dim[0], R.Dim[1], R.Dim[2]);
  return std::make_tuple(C.Checks.value_or(DefaultChecks), C.WarningsAsErrors.value_or(""),
                         C.HeaderFilterRegex.value_or(".*"),
                         C.ExcludeHeaderFilterRegex.value_or(""), C.Arch.value_or(DefaultArch),
                         C.MinConflictDegree.value_or(DefaultMinConflictDegree), Rules,
                         C.LaunchArguments.value_or(true), C.SystemHeaders.value_or(false),
                         C.ExtraArgs, C.ExtraArgsBefore, C.CheckOptions);
}

[[noreturn]] void failRoundTrip(const char *What, const std::string &Dump,
                                const std::string &Detail) {
  std::fprintf(stderr, "fuzz-config: %s\n--- dump:\n%s--- \n%s\n", What, Dump.c_str(),
               Detail.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  std::optional<Config> C = parseConfig(Text, "fuzz.yaml", Error);
  if (!C) {
    if (Error.empty()) // a rejected config always says why
      failRoundTrip("rejected without a message", Text, "");
    return 0;
  }
  std::string Dump = dumpConfig(*C);
  std::string Again;
  std::optional<Config> Back = parseConfig(Dump, "dump.yaml", Again);
  if (!Back)
    failRoundTrip("the dump does not parse", Dump, Again);
  if (effective(*Back) != effective(*C))
    failRoundTrip("the dump parses to another configuration", Dump, dumpConfig(*Back));
  return 0;
}
