//===- CoverageTest.cpp - Unmodelled kernels, non-source inputs -----------===//
#include "cuda-bank-lint/Driver/Coverage.h"
#include "cuda-bank-lint/Driver/Inputs.h"

#include <gtest/gtest.h>

using namespace cbl;

namespace {

// The front end's wording of each reason (lib/Frontend: IRSites, Atomics,
// PtxInstructions, DeviceLowering).
TEST(Coverage, ClassifiesTheFrontEndsReasons) {
  EXPECT_EQ(classifyUnsupported("call of 'memcpy_x', whose body is not available"),
            UnmodelledReason::CallWithoutBody);
  EXPECT_EQ(classifyUnsupported("cp.async is not bank-modelled: on the H100 ..."),
            UnmodelledReason::AsyncCopy);
  EXPECT_EQ(classifyUnsupported("shared-memory atomic 'atomicOr' on 8-byte values (...): no rule "
                                "measured for it yet"),
            UnmodelledReason::Atomic);
  EXPECT_EQ(classifyUnsupported("inline PTX 'ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8' "
                                "with an operand in shared memory: not modelled yet"),
            UnmodelledReason::InlinePtx);
  EXPECT_EQ(classifyUnsupported("'stmatrix.sync.aligned.m16n8.x1.trans.shared.b8' was not measured"),
            UnmodelledReason::InlinePtx);
  EXPECT_EQ(classifyUnsupported("WMMA a f16 fragment (llvm.nvvm.wmma...)"), UnmodelledReason::Wmma);
  EXPECT_EQ(classifyUnsupported("in a call Clang rejects (it uses a declaration Clang marks "
                                "invalid, e.g. a __shared__ cuda::barrier): not analysed"),
            UnmodelledReason::RejectedCode);
  EXPECT_EQ(classifyUnsupported("an access of 32 bytes per thread"), UnmodelledReason::Other);
}

TEST(Coverage, OneEntryPerKernelAndReasonAcrossInstantiations) {
  auto Record = [](const std::string &Fn, const std::string &Reason, VerdictStatus S) {
    AccessRecord R;
    R.Function = Fn;
    R.Reason = Reason;
    R.Status = S;
    R.Where = {"k.cu", 3, 1, 0};
    return R;
  };
  std::string Call = "call to 'f', whose body is not available, with a pointer into shared memory";
  std::vector<AccessRecord> Records{Record("stage<32>", Call, VerdictStatus::Unsupported),
                                    Record("stage<64>", Call, VerdictStatus::Unsupported),
                                    Record("other", Call, VerdictStatus::Unsupported),
                                    Record("known", "value loaded from memory",
                                           VerdictStatus::DataDependent)};
  std::vector<FrontEndNote> Notes{
      {{"k.cu", 9, 17, 0}, "kernel 'hidden<1>' uses shared memory, but no access to it was "
                           "recognised (its addresses are not modelled); nothing is reported for it"},
      {{"k.cu", 9, 17, 0}, "kernel 'hidden<2>' uses shared memory, but no access to it was "
                           "recognised (its addresses are not modelled); nothing is reported for it"},
      {{}, "analysed through 'a.cu', which includes it"}};
  std::vector<UnmodelledKernel> K = unmodelledKernels(Records, Notes);
  ASSERT_EQ(K.size(), 3u);
  EXPECT_EQ(K[0].Kernel, "stage");
  EXPECT_EQ(K[1].Kernel, "other");
  EXPECT_EQ(K[2].Kernel, "hidden");
  EXPECT_EQ(K[2].Reason, UnmodelledReason::NoAccessRecognised);
  EXPECT_EQ(describeUnmodelled("k.cu", K, false),
            "k.cu: shared memory not modelled in 3 kernels:\n"
            "  2 kernels: call whose body is not available ('stage', 'other')\n"
            "  1 kernel: uses shared memory, but no access to it was recognised ('hidden')\n");
  EXPECT_EQ(describeUnmodelled("k.cu", {K[2]}, true),
            "k.cu: error: shared memory not modelled in 1 kernel (--strict):\n"
            "  1 kernel: uses shared memory, but no access to it was recognised ('hidden')\n");
  EXPECT_EQ(describeUnmodelled("k.cu", {}, true), "");
}

TEST(Inputs, NotSourceText) {
  EXPECT_EQ(notSourceText("__global__ void k() {}\n"), "");
  EXPECT_EQ(notSourceText("// caf\xc3\xa9 \xf0\x9d\x84\x9e\n"), "");          // UTF-8
  EXPECT_EQ(notSourceText("// caf\xe9, na\xefve: a Latin-1 comment\n"), ""); // a few stray bytes
  EXPECT_EQ(notSourceText(llvm::StringRef("ELF\x02\x01\x00\x00", 7)), "NUL bytes in its first 8 KiB");
  std::string Packed;
  for (int I = 0; I < 64; ++I)
    Packed += char(0x80 + I);
  EXPECT_EQ(notSourceText(Packed),
            "not text: 64 of its first 64 bytes are neither UTF-8 nor whitespace");
  // A UTF-8 character cut by the end of the 8 KiB sample is not a stray byte.
  std::string Long(8191, 'x');
  Long += "\xc3\xa9";
  EXPECT_EQ(notSourceText(Long), "");
}

} // namespace
