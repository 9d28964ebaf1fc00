//===- UnsavedFiles.h - Source text an editor holds, not yet on disk ------===//
//
// The language server analyses the text of the buffers open in the editor,
// not the files on disk. Everything that reads a source file for the
// analysis (Clang's parse, NOLINT comments, block-dim annotations) reads it
// through readSource(), which prefers the unsaved text. The command line has
// no unsaved files: readSource() then reads the disk, as before.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_FRONTEND_UNSAVEDFILES_H
#define CUDA_BANK_LINT_FRONTEND_UNSAVEDFILES_H

#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>
#include <string>

namespace cbl {

/// Texts by file, keyed by absolute path without "." and ".." (a snapshot:
/// the server makes a new one for each analysis).
class UnsavedFiles {
public:
  void set(const std::string &Path, std::string Text);
  /// The unsaved text of Path (any spelling of it), or null.
  const std::string *find(const std::string &Path) const;
  const std::map<std::string, std::string> &all() const { return Texts; }
  bool empty() const { return Texts.empty(); }

private:
  std::map<std::string, std::string> Texts;
};

/// The text of Path: its unsaved text in Unsaved (may be null), else the
/// file on disk.
llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> readSource(const std::string &Path,
                                                              const UnsavedFiles *Unsaved);

} // namespace cbl

#endif
