//===- UnsavedFiles.cpp - Source text an editor holds, not yet on disk ----===//
#include "cuda-bank-lint/Frontend/UnsavedFiles.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cbl {


void UnsavedFiles::set(const std::string &Path, std::string Text) {
  Texts[absolutePath(Path)] = std::move(Text);
}

const std::string *UnsavedFiles::find(const std::string &Path) const {
  auto It = Texts.find(absolutePath(Path));
  return It == Texts.end() ? nullptr : &It->second;
}

llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> readSource(const std::string &Path,
                                                              const UnsavedFiles *Unsaved) {
  if (Unsaved)
    if (const std::string *Text = Unsaved->find(Path))
      return llvm::MemoryBuffer::getMemBufferCopy(*Text, Path);
  return llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
}

} // namespace cbl
