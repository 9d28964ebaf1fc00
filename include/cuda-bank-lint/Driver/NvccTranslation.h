//===- NvccTranslation.h - Compile-database commands as Clang command lines ===//
//
// Turns one compile_commands.json entry into the command line parseCudaFile
// expects (argv[0] = compiler, flags, the analysed file last):
//  - nvcc lines are translated to Clang's CUDA flags (the table in
//    shared/notes/platform.md and docs/integration.md); nvcc flags that have
//    no Clang meaning for parsing are dropped, unknown ones with a note;
//  - clang/gcc lines pass through;
//  - in both, response files (@F, nvcc's --options-file F) are expanded
//    relative to the entry's directory and relative include paths are made
//    absolute, because the tool parses in its own working directory.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_DRIVER_NVCCTRANSLATION_H
#define CUDA_BANK_LINT_DRIVER_NVCCTRANSLATION_H

#include <string>
#include <vector>

namespace cbl {

struct TranslatedCommand {
  std::vector<std::string> Args;    ///< argv[0] = compiler ... File
  bool FromNvcc = false;
  std::vector<std::string> Dropped; ///< unknown nvcc flags that were dropped
};

/// True when argv[0] (after a ccache/sccache launcher) is nvcc.
bool isNvccCommand(const std::vector<std::string> &Args);

/// Translates one database entry. Directory is the entry's "directory",
/// EntryFile its "file"; every argument naming EntryFile is removed and File
/// (the path to analyse) is appended last.
TranslatedCommand translateCompileCommand(const std::vector<std::string> &Args,
                                          const std::string &Directory,
                                          const std::string &EntryFile,
                                          const std::string &File);

/// The lowest real architecture named by nvcc's -arch/-code/-gencode values
/// (e.g. "arch=compute_80,code=[compute_80,sm_80]" -> 80); 0 if none.
unsigned lowestNvccArch(const std::vector<std::string> &ArchValues);

} // namespace cbl

#endif
