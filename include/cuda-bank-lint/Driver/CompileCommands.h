//===- CompileCommands.h - Which flags parse each file --------------------===//
//
// clang-tidy's rules for finding a file's compile command, plus nvcc:
//  - `-p <build-dir>` (or the file itself) loads compile_commands.json;
//    without it the parent directories of the first input are searched,
//    each also in build/, out/, cmake-build-*/ and _build/;
//  - `--` flags (FixedCompilationDatabase) serve files without an entry, and
//    without -p they turn discovery off, as in clang-tidy;
//  - CUDA entries (nvcc lines, .cu/.cuh files, -x cuda) are translated once
//    (NvccTranslation.h); headers and files missing from the database borrow
//    the flags of the closest CUDA entry through Clang's
//    InterpolatingCompilationDatabase, as clangd does. C++-only entries are
//    never borrowed: their flags do not describe CUDA code.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_COMPILECOMMANDS_H
#define CUDA_BANK_LINT_DRIVER_COMPILECOMMANDS_H

#include "clang/Tooling/CompilationDatabase.h"

#include "cuda-bank-lint/Support/Paths.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cbl {

class CompileCommands {
public:
  /// Loads the database. Error is set (and nullptr returned) for a missing,
  /// empty or malformed database (located: "file:line:col: error: ..." for
  /// bad JSON, an entry that is not an object or lacks "file", "directory"
  /// or a command).
  static std::unique_ptr<CompileCommands>
  load(const std::string &BuildPath, const std::string &FirstInput,
       std::unique_ptr<clang::tooling::CompilationDatabase> Fixed, std::string &Error);

  /// What load() does once it has read the file: Json is the text of the
  /// database at Path (named in messages; nothing is read from it). Error
  /// is set (and nullptr returned) as for load(). The fuzzer's entry
  /// (utils/fuzz/fuzz-compile-db.cpp).
  static std::unique_ptr<CompileCommands> fromBuffer(llvm::StringRef Json, const std::string &Path,
                                                     std::string &Error);

  /// The compile_commands.json that load() reads for these arguments (empty:
  /// none; Error set when BuildPath names no database).
  static std::string locate(const std::string &BuildPath, const std::string &FirstInput,
                            bool HasFixed, std::string &Error);

  struct Resolved {
    std::vector<std::string> Args; ///< argv[0] = compiler ... File
    std::string Notes;             ///< for --verbose: which entry, dropped flags
    std::string Error;             ///< e.g. the entry's directory does not exist
    bool OwnEntry = false;         ///< the database has an entry for this very file
  };
  Resolved resolve(const std::string &File) const;

  /// The files of the database's CUDA entries (absolute), empty without one.
  std::vector<std::string> entries() const;

  /// What `-p build` without inputs lints, as run-clang-tidy does: the files
  /// of the entries that compile CUDA (.cu files, -x cu / -x cuda), absolute,
  /// once each, in database order.
  const std::vector<std::string> &sources() const { return Sources; }

  /// The compile_commands.json in use, or empty.
  const std::string &databasePath() const { return DatabasePath; }

private:
  std::string DatabasePath;
  std::unique_ptr<clang::tooling::CompilationDatabase> Cuda; ///< translated, interpolating
  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed;
  std::map<std::string, std::vector<std::string>> Dropped; ///< entry file -> unknown flags
  std::map<std::string, bool> FromNvcc;
  std::vector<std::string> Sources;
};

} // namespace cbl

#endif
