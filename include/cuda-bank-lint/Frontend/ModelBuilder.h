//===- ModelBuilder.h - Parse one CUDA file into an access model ----------===//
//
// The front end's entry point: runs Clang on the device side of one file and
// returns the TranslationUnitModel, or the compiler's errors. An error stops
// only the code it is in (lib/Frontend/CompileErrors.h): a host-only function
// is skipped, a device function and every kernel that calls it are not
// analysed (the model lists them with the error), and only errors outside
// every function, or missing headers, fail the whole file.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_FRONTEND_MODELBUILDER_H
#define CUDA_BANK_LINT_FRONTEND_MODELBUILDER_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Frontend/CudaCompilation.h"
#include "cuda-bank-lint/Frontend/PreambleCache.h"
#include "cuda-bank-lint/Frontend/DeviceModelMemo.h"
#include "cuda-bank-lint/Frontend/UnsavedFiles.h"

#include <memory>
#include <string>
#include <vector>

namespace cbl {

struct ParsedFile {
  TranslationUnitModel Model;  ///< Model.Skipped lists what errors stopped
  bool Failed = false;         ///< nothing could be analysed
  std::string MissingHeader;   ///< when Failed because a header was not found
  std::string FirstError;      ///< when Failed: the first error, message only
  SourcePos FirstErrorWhere;
  std::string ErrorText;       ///< Clang's text of the errors in device code or outside functions
  std::string HostErrorText;   ///< Clang's text of the errors in host-only functions (--verbose)
};

/// What the front end may infer beyond the source of the kernels.
struct ModelOptions {
  /// Kernel parameters that every launch in the file sets the same way take
  /// that value (config LaunchArguments).
  bool LaunchArguments = true;
  /// Debugging: a file each translation unit's optimised device IR is
  /// appended to (--debug-dump-device-ir).
  std::string DumpDeviceIR;
  /// Directories of the toolkit's own headers (set by parseCudaFile): their
  /// functions are not call frames of the device IR's accesses.
  std::vector<std::string> ToolkitDirs;
  /// Only the launches (TranslationUnitModel::Launches): no function is
  /// walked (another translation unit's launches of a kernel).
  bool LaunchesOnly = false;
  /// The editor's unsaved buffers, parsed instead of those files on disk
  /// (the language server); null: the disk only.
  std::shared_ptr<const UnsavedFiles> Unsaved;
  /// Reuse each file's preamble, its headers, between parses (the language
  /// server); null: every parse is complete.
  PreambleCache *Preambles = nullptr;
  /// Keep each kernel's model between parses, and optimise and translate
  /// only the kernels whose code changed (the language server: one memo per
  /// document); null: every kernel anew.
  DeviceModelMemo *DeviceModels = nullptr;
  /// Threads LLVM's pipeline may use on a unit whose device code is large
  /// (its kernels optimised in groups; the same IR for any number).
  unsigned Threads = 1;
  /// The least instructions a group of kernels optimised on its own holds,
  /// and the most groups (--debug-device-parts; the tests split small units).
  unsigned DevicePartInstructions = 10000;
  unsigned DeviceMaxParts = 2;
};

/// Parses File with the compile command Command (argv[0] = compiler, last
/// element = File) rewritten for the device side under Setup.
ParsedFile parseCudaFile(const std::string &File, const std::vector<std::string> &Command,
                         const CudaSetup &Setup, const ModelOptions &Options = {});

} // namespace cbl

#endif
