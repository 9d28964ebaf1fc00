//===- fuzz-compile-db.cpp - libFuzzer target: compile_commands.json ------===//
//
// The input is the text of a compilation database, read from memory
// (CompileCommands::fromBuffer: validation, Clang's JSON reader, nvcc
// translation with response files). A database either loads or is rejected
// with a message; every file it names resolves to a command line that ends
// in that file, and so does a header beside it (the interpolated command).
//   bin/fuzz-compile-db -dict=utils/fuzz/compile-db.dict CORPUS_DIR SEED_DIR
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Driver/CompileCommands.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace cbl;

namespace {

[[noreturn]] void fail(const char *What, const std::string &Detail) {
  std::fprintf(stderr, "fuzz-compile-db: %s: %s\n", What, Detail.c_str());
  std::abort();
}

void checkResolved(const CompileCommands &DB, const std::string &File) {
  CompileCommands::Resolved R = DB.resolve(File);
  if (!R.Error.empty())
    return; // e.g. the entry's directory does not exist
  if (R.Args.size() < 2 || R.Args.back() != File)
    fail("a resolved command does not end in its file", File);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  auto DB = CompileCommands::fromBuffer(Text, "/cbl-fuzz/compile_commands.json", Error);
  if (!DB) {
    if (Error.empty())
      fail("rejected without a message", Text);
    return 0;
  }
  for (const std::string &F : DB->entries()) {
    checkResolved(*DB, F);
    llvm::SmallString<256> Header(F);
    llvm::sys::path::replace_extension(Header, "cuh");
    checkResolved(*DB, std::string(Header));
  }
  for (const std::string &F : DB->sources())
    checkResolved(*DB, F);
  return 0;
}
