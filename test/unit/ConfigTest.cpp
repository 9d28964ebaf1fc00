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

TEST(Suppressions, NolintListsAreGlobs) {
  EXPECT_TRUE(nolintNames("", false, "cuda-shared-bank-conflict"));
  EXPECT_TRUE(nolintNames("cuda-shared-*", true, "cuda-shared-bank-conflict"));
  EXPECT_TRUE(nolintNames("foo, cuda-shared-bank-conflict", true, "cuda-shared-bank-conflict"));
  EXPECT_FALSE(nolintNames("cuda-barrier-*", true, "cuda-shared-bank-conflict"));
  EXPECT_FALSE(nolintNames("", true, "cuda-shared-bank-conflict"));
}

} // namespace
