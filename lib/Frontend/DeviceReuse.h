//===- DeviceReuse.h - Kernels' models kept between versions (private) ----===//
//
// The language server's side of the device-IR front end
// (cuda-bank-lint/Frontend/DeviceModelMemo.h): before a unit's device code
// is optimised, each cluster of roots whose key the memo holds is taken
// out of the module with its models; after translation, the models of the
// others are kept under their keys.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_DEVICEREUSE_H
#define CUDA_BANK_LINT_LIB_FRONTEND_DEVICEREUSE_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/Frontend/DeviceModelMemo.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

struct LoweredPart;

/// A module's call graph: the defined functions each defined function names
/// (namedFunctions, DeviceLowering.h).
using NamedFunctions = llvm::DenseMap<const llvm::Function *, std::vector<const llvm::Function *>>;

/// What a root's model takes from outside its IR (buildDeviceModels).
struct ReuseContext {
  DeviceModelMemo *Memo = nullptr;
  std::string Base; ///< what holds for the whole unit (the toolkit's directories)
  /// Writes what the translation of Root reads from the AST (a kernel's
  /// launch arguments).
  std::function<void(const clang::FunctionDecl *Root, llvm::raw_ostream &OS)> RootInputs;
  /// The id of a shared variable in the unit's table (-1: not in it).
  std::function<int(const clang::VarDecl *)> ArrayId;
  /// Lines First to Last of a file the unit read, by the path its line
  /// table names (none: not a file the unit read).
  std::function<std::optional<llvm::StringRef>(llvm::StringRef Path, unsigned First, unsigned Last)> SourceLines;
};

/// The models kept, and the key to keep each root's new model under.
struct ReuseOutcome {
  std::map<const clang::FunctionDecl *, FunctionModel> Kept;
  llvm::DenseMap<const clang::FunctionDecl *, std::string> Keys;
};

/// A root of the unit and its optimisation group (optimiseInParts).
struct GroupedRoot {
  const clang::FunctionDecl *Decl;
  unsigned Group;
};

/// Looks up each cluster of Roots (the roots of a group that share a
/// function they reach) in C.Memo, on Whole before it is optimised: the
/// roots of each cluster found leave Whole (declarations now, as roots that
/// hold nothing shared) with their models in Kept; the others get their keys.
/// Named: the module's call graph (namedFunctions), as optimiseInParts has it.
ReuseOutcome keepModels(LoweredPart &Whole, const NamedFunctions &Named, const std::vector<GroupedRoot> &Roots,
                        const ReuseContext &C);

/// After translation: M is kept under Key (from ReuseOutcome::Keys).
void storeModel(DeviceModelMemo &Memo, const std::string &Key, const FunctionModel &M);
/// A memo for analyseTwiceForTesting: it keeps every other model stored.
std::unique_ptr<DeviceModelMemo> everyOtherMemo();

} // namespace cbl

#endif
