//===- FixApplierTest.cpp - --fix: duplicates once, conflicts reported ------===//
#include "cuda-bank-lint/Driver/FixApplier.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace cbl;

namespace {

class FixApplier : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("cbl-fix-test", "cu", Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << "float tile[32][32];\n";
  }
  void TearDown() override { llvm::sys::fs::remove(Path); }

  /// A finding of Check offering one fix-it: Length bytes at Offset (on line 1).
  Finding finding(const std::string &Check, unsigned Offset, unsigned Length,
                  const std::string &Text) {
    Finding F;
    F.Check = Check;
    F.Where = {std::string(Path), 1, 1, 0};
    F.Fixes.push_back({{{std::string(Path), 1, Offset + 1, Offset}, Length}, Text});
    return F;
  }

  std::string contents() {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    return Buf ? (*Buf)->getBuffer().str() : "<unreadable>";
  }

  llvm::SmallString<128> Path;
};

TEST_F(FixApplier, AppliesIdenticalFixItsOnce) {
  RunReport R;
  R.Findings = {finding("a", 15, 2, "32 + 1"), finding("b", 15, 2, "32 + 1")};
  FixOutcome Out = applyFixes(R);
  EXPECT_FALSE(Out.Failed) << Out.Messages;
  EXPECT_EQ(Out.Applied, 1u);
  EXPECT_EQ(Out.Files, 1u);
  EXPECT_EQ(Out.Messages, "");
  EXPECT_EQ(contents(), "float tile[32][32 + 1];\n");
}

TEST_F(FixApplier, ReportsAConflictAndAppliesTheRest) {
  RunReport R;
  R.Findings = {finding("first", 15, 2, "32 + 1"), finding("second", 15, 2, "32 + 2"),
                finding("third", 11, 2, "64")};
  FixOutcome Out = applyFixes(R);
  EXPECT_FALSE(Out.Failed) << Out.Messages;
  EXPECT_EQ(Out.Applied, 2u);
  EXPECT_EQ(contents(), "float tile[64][32 + 1];\n");
  EXPECT_NE(Out.Messages.find(":1:16: note: fix-it '32 + 2' [second] not applied: it conflicts "
                              "with the fix-it '32 + 1' [first] at "),
            std::string::npos)
      << Out.Messages;
}

TEST_F(FixApplier, SkipsAFixItPastTheEnd) {
  RunReport R;
  R.Findings = {finding("a", 15, 2, "33"), finding("b", 400, 1, "x")};
  FixOutcome Out = applyFixes(R);
  EXPECT_FALSE(Out.Failed) << Out.Messages;
  EXPECT_EQ(Out.Applied, 1u);
  EXPECT_EQ(contents(), "float tile[32][33];\n");
  EXPECT_NE(Out.Messages.find("[b] not applied: it lies past the end of the file"),
            std::string::npos)
      << Out.Messages;
}

} // namespace
