//===- Includers.cpp - A translation unit for a file that is not one ------===//
#include "cuda-bank-lint/Driver/Includers.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <map>
#include <set>

namespace cbl {

namespace {

/// The names a file #includes ("x.cuh", "dir/y.h"), read once per path.
const std::vector<std::string> &includesOf(const std::string &Path,
                                           std::map<std::string, std::vector<std::string>> &Cache) {
  auto It = Cache.find(Path);
  if (It != Cache.end())
    return It->second;
  std::vector<std::string> &Names = Cache[Path];
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return Names;
  static const llvm::Regex Include("^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]");
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    llvm::SmallVector<llvm::StringRef, 2> M;
    if (L.contains("include") && Include.match(L, &M))
      Names.push_back(M[1].str());
  }
  return Names;
}

} // namespace

/// Whether From includes Target (absolute paths), directly or through
/// includes that resolve beside the including file (quoted includes of one
/// project), at most a few levels deep.
static bool reaches(const std::string &From, const std::string &Target,
                    std::map<std::string, std::vector<std::string>> &Cache) {
  std::vector<std::pair<std::string, unsigned>> Todo{{From, 0}};
  std::set<std::string> Seen;
  while (!Todo.empty()) {
    auto [Path, Depth] = Todo.back();
    Todo.pop_back();
    if (!Seen.insert(Path).second)
      continue;
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    for (const std::string &Name : includesOf(Path, Cache)) {
      std::string Resolved = absolutePath(Name, Dir);
      if (Resolved == Target)
        return true;
      if (Depth < 4 && llvm::sys::fs::is_regular_file(Resolved))
        Todo.push_back({Resolved, Depth + 1});
    }
  }
  return false;
}

std::vector<std::string> findIncluders(const std::string &File,
                                       const std::vector<std::string> &Candidates, size_t Max) {
  std::vector<std::string> Found;
  std::string Target = absolutePath(File);
  std::map<std::string, std::vector<std::string>> Cache;
  for (const std::string &C : Candidates)
    if (Found.size() < Max && absolutePath(C) != Target && reaches(absolutePath(C), Target, Cache))
      Found.push_back(C);
  return Found;
}

std::optional<std::string> findIncluder(const std::string &File,
                                        const std::vector<std::string> &Candidates) {
  std::vector<std::string> Found = findIncluders(File, Candidates, 1);
  if (Found.empty())
    return std::nullopt;
  return Found.front();
}

bool includesFile(const std::string &From, const std::string &File) {
  std::map<std::string, std::vector<std::string>> Cache;
  return reaches(absolutePath(From), absolutePath(File), Cache);
}

std::vector<std::string> nearbySources(const std::string &File, unsigned MaxFiles) {
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(absolutePath(File)));
  for (unsigned Up = 0; Up <= 2 && !Dir.empty() && Out.size() < MaxFiles; ++Up) {
    std::vector<std::string> Level;
    std::error_code EC;
    unsigned Visited = 0;
    for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
         It != End && !EC && Visited < MaxFiles; It.increment(EC), ++Visited)
      if (llvm::sys::path::extension(It->path()) == ".cu" && Seen.insert(It->path()).second)
        Level.push_back(It->path());
    std::sort(Level.begin(), Level.end());
    Out.insert(Out.end(), Level.begin(), Level.end());
    if (llvm::sys::path::parent_path(Dir) == Dir)
      break;
    Dir = llvm::sys::path::parent_path(Dir);
  }
  return Out;
}

} // namespace cbl
