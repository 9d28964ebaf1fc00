//===- ConfigTest.cpp - .cuda-bank-lint.yaml parsing, merging and dumping --===//
#include "cuda-bank-lint/Driver/Config.h"
#include "cuda-bank-lint/Driver/Suppressions.h"

#include <gtest/gtest.h>

using namespace cbl;

namespace {

TEST(Config, ReadsEveryKey) {
  std::string Error;
  auto C = parseConfig("Checks: 'cuda-*,-cuda-barrier-*'\n"
                       "WarningsAsErrors: cuda-shared-bank-conflict\n"
                       "HeaderFilterRegex: 'include/.*'\n"
                       "Arch: sm_80\n"
                       "MinConflictDegree: 4\n"
                       "BlockDim:\n"
                       "  'transpose*': [32, 8]\n"
                       "  reduce: 256\n"
                       "ExtraArgs: [-DTILE=32]\n"
                       "LaunchArguments: false\n"
                       "CheckOptions:\n"
                       "  cuda-barrier-early-exit.Severity: warning\n",
                       "cfg.yaml", Error);
  ASSERT_TRUE(C) << Error;
  EXPECT_EQ(*C->Checks, "cuda-*,-cuda-barrier-*");
  EXPECT_EQ(*C->MinConflictDegree, 4u);
  ASSERT_EQ(C->BlockDim.size(), 2u);
  EXPECT_EQ(C->BlockDim[0].Glob, "transpose*");
  EXPECT_EQ(C->BlockDim[0].Dim, (std::array<unsigned, 3>{{32, 8, 1}}));
  EXPECT_EQ(C->BlockDim[0].Origin, "cfg.yaml:7");
  EXPECT_EQ(C->BlockDim[1].Dim, (std::array<unsigned, 3>{{256, 1, 1}}));
  EXPECT_EQ(C->ExtraArgs, std::vector<std::string>{"-DTILE=32"});
  EXPECT_EQ(C->LaunchArguments, std::optional<bool>(false));
  EXPECT_EQ(C->CheckOptions.at("cuda-barrier-early-exit.Severity"), "warning");
}

TEST(Config, ErrorsNameFileLineAndKey) {
  std::string Error;
  EXPECT_FALSE(parseConfig("Checks: 'cuda-*'\nChecsk: x\n", "a.yaml", Error));
  EXPECT_NE(Error.find("a.yaml:2:1: error: unknown key 'Checsk'"), std::string::npos) << Error;
  Error.clear();
  EXPECT_FALSE(parseConfig("MinConflictDegree: many\n", "b.yaml", Error));
  EXPECT_NE(Error.find("b.yaml:1:20: error: invalid value for 'MinConflictDegree'"), std::string::npos)
      << Error;
  Error.clear();
  EXPECT_FALSE(parseConfig("BlockDim: { 'k*': [64, 64] }\n", "c.yaml", Error));
  EXPECT_NE(Error.find("c.yaml:1:"), std::string::npos) << Error;
  EXPECT_NE(Error.find("'BlockDim' of 'k*'"), std::string::npos) << Error;
  Error.clear();
  EXPECT_FALSE(parseConfig("LaunchArguments: maybe\n", "e.yaml", Error));
  EXPECT_NE(Error.find("e.yaml:1:18: error: invalid value for 'LaunchArguments': expected true or "
                       "false, got 'maybe'"),
            std::string::npos)
      << Error;
  Error.clear();
  EXPECT_FALSE(parseConfig("Checks: [unclosed\n", "d.yaml", Error));
  EXPECT_NE(Error.find("d.yaml:"), std::string::npos) << Error;
}

TEST(Config, ChildOverridesParentAndDumpRoundTrips) {
  std::string Error;
  auto Parent = parseConfig("Checks: 'cuda-*'\nMinConflictDegree: 8\nExtraArgs: [-DP]\n"
                            "LaunchArguments: false\n"
                            "BlockDim: { 'k*': [128] }\n",
                            "p.yaml", Error);
  auto Child = parseConfig("InheritParentConfig: true\nMinConflictDegree: 4\nExtraArgs: [-DC]\n"
                           "BlockDim: { 'kern': [32, 4] }\n",
                           "c.yaml", Error);
  ASSERT_TRUE(Parent && Child) << Error;
  Config M = mergeConfig(*Parent, *Child);
  EXPECT_EQ(*M.Checks, "cuda-*");
  EXPECT_EQ(*M.MinConflictDegree, 4u);
  EXPECT_EQ(M.LaunchArguments, std::optional<bool>(false)); // inherited
  EXPECT_EQ(M.ExtraArgs, (std::vector<std::string>{"-DP", "-DC"}));
  ASSERT_EQ(M.BlockDim.size(), 2u);
  EXPECT_EQ(M.BlockDim[0].Glob, "kern"); // the child's rules first
  auto Again = parseConfig(dumpConfig(M), "dump.yaml", Error);
  ASSERT_TRUE(Again) << Error << dumpConfig(M);
  EXPECT_EQ(dumpConfig(*Again).substr(dumpConfig(*Again).find("Checks")),
            dumpConfig(M).substr(dumpConfig(M).find("Checks")));
}

TEST(Config, EveryKeyRoundTripsThroughTheDump) {
  std::string Error;
  auto C = parseConfig("Checks: '-*,cuda-shared-*'\n"
                       "WarningsAsErrors: 'cuda-barrier-*'\n"
                       "HeaderFilterRegex: 'include/.*'\n"
                       "ExcludeHeaderFilterRegex: 'third_party/'\n"
                       "Arch: sm_80\n"
                       "MinConflictDegree: 4\n"
                       "BlockDim:\n"
                       "  'transpose*': [32, 8]\n"
                       "  'reduce<*': [256, 1, 1]\n"
                       "LaunchArguments: false\n"
                       "SystemHeaders: true\n"
                       "Strict: true\n"
                       "Remarks: true\n"
                       "ExtraArgs: ['-DA=1', \"it's\"]\n"
                       "ExtraArgsBefore: ['-std=c++17']\n"
                       "CheckOptions:\n"
                       "  cuda-barrier-early-exit.Severity: warning\n"
                       "  cuda-shared-bank-conflict.PossibleSeverity: none\n",
                       "all.yaml", Error);
  ASSERT_TRUE(C) << Error;
  std::string Dump = dumpConfig(*C);
  EXPECT_NE(Dump.find("# from all.yaml\n---\n"), std::string::npos) << Dump;
  auto Again = parseConfig(Dump, "dump.yaml", Error);
  ASSERT_TRUE(Again) << Error << Dump;
  EXPECT_EQ(Again->Checks, C->Checks);
  EXPECT_EQ(Again->WarningsAsErrors, C->WarningsAsErrors);
  EXPECT_EQ(Again->HeaderFilterRegex, C->HeaderFilterRegex);
  EXPECT_EQ(Again->ExcludeHeaderFilterRegex, C->ExcludeHeaderFilterRegex);
  EXPECT_EQ(Again->Arch, C->Arch);
  EXPECT_EQ(Again->MinConflictDegree, C->MinConflictDegree);
  ASSERT_EQ(Again->BlockDim.size(), 2u);
  EXPECT_EQ(Again->BlockDim[0].Glob, "transpose*"); // order kept: first match wins
  EXPECT_EQ(Again->BlockDim[0].Dim, (std::array<unsigned, 3>{{32, 8, 1}}));
  EXPECT_EQ(Again->BlockDim[1].Glob, "reduce<*");
  EXPECT_EQ(Again->LaunchArguments, C->LaunchArguments);
  EXPECT_EQ(Again->SystemHeaders, C->SystemHeaders);
  EXPECT_EQ(Again->Strict, std::optional<bool>(true));
  EXPECT_EQ(Again->Remarks, std::optional<bool>(true));
  EXPECT_EQ(Again->ExtraArgs, (std::vector<std::string>{"-DA=1", "it's"}));
  EXPECT_EQ(Again->ExtraArgsBefore, C->ExtraArgsBefore);
  EXPECT_EQ(Again->CheckOptions, C->CheckOptions);
  // Written by llvm::yaml::Output, read back to the same text.
  std::string Second = dumpConfig(*Again);
  EXPECT_EQ(Second.substr(Second.find("---")), Dump.substr(Dump.find("---")));
}

TEST(Config, ValuesAreValidated) {
  std::string Error;
  EXPECT_FALSE(parseConfig("Arch: sm_999\n", "a.yaml", Error));
  EXPECT_NE(Error.find("a.yaml:1:7: error: invalid value for 'Arch': unknown architecture 'sm_999'"),
            std::string::npos)
      << Error;
  for (const char *Ok : {"sm_90", "sm_90a", "compute_80", "sm_120", "sm_3x-8byte", "sm_13", "sm_70+"})
    EXPECT_EQ(archError(Ok), "") << Ok;
  for (const char *Bad : {"sm_999", "sm_2x", "sm_40", "sm_91", "90x", ""})
    EXPECT_NE(archError(Bad), "") << Bad;
  unsigned N = 0;
  EXPECT_NE(minConflictDegreeError("1", N), "");
  EXPECT_NE(minConflictDegreeError("33", N), "");
  EXPECT_EQ(minConflictDegreeError("32", N), "");
  EXPECT_EQ(N, 32u);
  EXPECT_EQ(checkGlobsError("cuda-*,-cuda-barrier-*"), "");
  EXPECT_NE(checkGlobsError("cuda-*,cuda-[*"), "");
  Error.clear();
  EXPECT_FALSE(parseConfig("Checks: 'cuda-[*'\nMinConflictDegree: 0\n", "g.yaml", Error));
  EXPECT_NE(Error.find("g.yaml:1:9: error: invalid value for 'Checks'"), std::string::npos) << Error;
  EXPECT_NE(Error.find("g.yaml:2:20: error: invalid value for 'MinConflictDegree'"), std::string::npos)
      << Error << "every invalid value is reported, not only the first";
  Error.clear();
  EXPECT_FALSE(parseConfig("CheckOptions: {cuda-barrier-early-exit.Severity: loud}\n", "o.yaml", Error));
  EXPECT_NE(Error.find("o.yaml:1:50: error: invalid value for 'cuda-barrier-early-exit.Severity': "
                       "expected remark, warning, off or none, got 'loud'"),
            std::string::npos)
      << Error;
  Error.clear();
  EXPECT_FALSE(parseConfig("CheckOptions: {cuda-barrier-divergence.Severity: warning}\n", "u.yaml", Error));
  EXPECT_NE(Error.find("u.yaml:1:16: error: unknown check option 'cuda-barrier-divergence.Severity'"),
            std::string::npos)
      << Error;
}

TEST(Config, ChecksAreAppended) {
  std::string Error;
  auto Parent = parseConfig("Checks: '-*,cuda-barrier-*'\n", "p.yaml", Error);
  auto Child = parseConfig("InheritParentConfig: true\nChecks: 'cuda-shared-*'\n", "c.yaml", Error);
  ASSERT_TRUE(Parent && Child) << Error;
  Config M = mergeConfig(*Parent, *Child);
  EXPECT_EQ(*M.Checks, "-*,cuda-barrier-*,cuda-shared-*");
  EXPECT_EQ(effectiveChecks(M), "cuda-*,-*,cuda-barrier-*,cuda-shared-*");
  EXPECT_EQ(effectiveChecks(Config()), "cuda-*");
  EXPECT_EQ(appendGlobs(std::nullopt, "x"), "x");
  EXPECT_EQ(appendGlobs(std::string("a"), ""), "a");
}

TEST(Config, UnknownCheckNamesAreVerifyConfigWarnings) {
  std::string Error;
  auto C = parseConfig("Checks: 'cuda-*,cuda-barrier-earlyexit,foo-*'\n", "v.yaml", Error);
  ASSERT_TRUE(C) << Error << "unknown names are not errors";
  ASSERT_EQ(C->Unverified.size(), 2u);
  EXPECT_NE(C->Unverified[0].find("v.yaml:1:9: warning: unknown check 'cuda-barrier-earlyexit'; did "
                                  "you mean 'cuda-barrier-early-exit' [-verify-config]"),
            std::string::npos)
      << C->Unverified[0];
  EXPECT_NE(C->Unverified[1].find("check glob 'foo-*' doesn't match any known check"),
            std::string::npos)
      << C->Unverified[1];
  EXPECT_TRUE(unknownCheckGlobs("-*,cuda-barrier-early-exit").empty());
}

TEST(Suppressions, NolintListsAreGlobs) {
  EXPECT_TRUE(nolintNames("", false, "cuda-shared-bank-conflict"));
  EXPECT_TRUE(nolintNames("cuda-shared-*", true, "cuda-shared-bank-conflict"));
  EXPECT_TRUE(nolintNames("foo, cuda-shared-bank-conflict", true, "cuda-shared-bank-conflict"));
  EXPECT_FALSE(nolintNames("cuda-barrier-*", true, "cuda-shared-bank-conflict"));
  EXPECT_FALSE(nolintNames("", true, "cuda-shared-bank-conflict"));
}

} // namespace
