//===- fuzz-frontend.cpp - libFuzzer target: CUDA source through every check ===//
//
// The input is a .cu file of at most 4 KB, analysed as `cuda-bank-lint
// --cuda-mode=prelude --timeout=5 --explain FILE` would (the lit suite's %cbl):
// the language server's in-memory entry (analyseBuffer, the text as an
// unsaved buffer of a file that does not exist), then the text and JSON
// reports. The JSON report must be valid JSON.
//
// The driver recovers from crashes (llvm::CrashRecoveryContext: a function
// that crashes the checks is reported as an internal error, not fatal). For
// the fuzzer such a recovered crash is a finding: the target aborts on it.
// And since recovery replaces the sanitizers' and libFuzzer's signal
// handlers, the target gives them back after each input. A stack overflow
// inside the analysis still dies without a report (LLVM's handler has no
// alternate stack): with CBL_FUZZ_LAST_INPUT=FILE set, each input is written
// to FILE before it runs, so the input of a silent death is kept.
//   bin/fuzz-frontend -dict=utils/fuzz/frontend.dict -max_len=4096 CORPUS_DIR SEED_DIR
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Driver/BufferAnalysis.h"
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace cbl;

namespace {

constexpr size_t MaxInput = 4096;
/// Per input, the analysis after the parse (--timeout: what is left is
/// reported unknown); libFuzzer's -timeout bounds the whole input.
constexpr double TimeoutSeconds = 5;
/// The file the text stands for; it does not exist on disk.
const char *const BufferPath = "/cbl-fuzz/input.cu";

const AnalyzerOptions &options() {
  static const AnalyzerOptions Opts = [] {
    AnalyzerOptions O;
    std::string Error;
    O.Cuda = resolveCudaSetup(CudaMode::Prelude, "", Error);
    O.TimeoutSeconds = TimeoutSeconds;
    O.Jobs = 1;
    return O;
  }();
  return Opts;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > MaxInput)
    return 0;
  if (const char *Last = std::getenv("CBL_FUZZ_LAST_INPUT"))
    if (std::FILE *F = std::fopen(Last, "wb")) {
      std::fwrite(Data, 1, Size, F);
      std::fclose(F);
    }
  auto Unsaved = std::make_shared<UnsavedFiles>();
  Unsaved->set(BufferPath, std::string(reinterpret_cast<const char *>(Data), Size));
  AnalysisOutcome Out = analyseBuffer(BufferPath, Unsaved, /*Database=*/nullptr, options(),
                                      /*Preambles=*/nullptr);
  llvm::CrashRecoveryContext::Disable();
  // Analyzer.cpp's words for a recovered crash (a failed file or a skipped function).
  if (llvm::StringRef(Out.Messages).contains("internal error in cuda-bank-lint")) {
    std::fprintf(stderr, "fuzz-frontend: a crash was recovered:\n%s", Out.Messages.c_str());
    std::abort();
  }
  sortReport(Out.Report);
  std::string Text, Json;
  llvm::raw_string_ostream TextOS(Text), JsonOS(Json);
  TextOptions T;
  T.Explain = true;
  printText(Out.Report, TextOS, T);
  printJson(Out.Report, JsonOS);
  if (llvm::Expected<llvm::json::Value> V = llvm::json::parse(JsonOS.str()); !V) {
    std::fprintf(stderr, "fuzz-frontend: invalid JSON report: %s\n%s\n",
                 llvm::toString(V.takeError()).c_str(), Json.c_str());
    std::abort();
  }
  return 0;
}
