//===- IRLocations.h - Debug locations of the device IR -> source (private) ===//
//
// Clang's line tables name a file as its code generator saw it; this maps
// them back to the SourceManager of the same parse, so that positions in the
// access model are those the AST side gives (toSourcePos: file name, line,
// column, offset, system header). An inlined instruction's inlined-at chain
// is the call chain from the analysed function; the toolkit's own wrappers
// (atomicAdd, __syncthreads, threadIdx) are not frames: an access inside
// one is at the user's call.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_IRLOCATIONS_H
#define CUDA_BANK_LINT_LIB_FRONTEND_IRLOCATIONS_H

#include "DeviceLowering.h"
#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cbl {

/// The path of a line table's file: its name, under its directory when
/// the name is relative.
std::string pathOf(const llvm::DIFile &F);
/// The FileID of Path (absolute or relative to the file manager's
/// directory) among the files the source manager read; invalid if none.
clang::FileID fileIdOf(const clang::SourceManager &SM, llvm::StringRef Path);

/// Whether Path (without dots) is a toolkit header: under one of ToolkitDirs
/// (each without dots), CUB and Thrust (`cccl/`) excepted, whose code is the
/// user's to read.
bool inToolkit(llvm::StringRef Path, const std::vector<std::string> &ToolkitDirs);

class IRLocations {
public:
  /// ToolkitDirs: directories whose functions are the toolkit's wrappers.
  IRLocations(clang::SourceManager &SM, const clang::LangOptions &LangOpts,
              std::vector<std::string> ToolkitDirs);

  /// Where an instruction is, as the user sees it: its own position, or
  /// the call of the toolkit wrapper it belongs to.
  struct Place {
    SourcePos Where;
    clang::SourceLocation Loc;     ///< the same position for the AST
    std::vector<CallFrame> Chain;  ///< calls from the analysed function, outermost first
    std::string Wrapper;           ///< the toolkit function called there (atomicAdd), if any
    /// The library function (in a system header) the user's code calls on
    /// the way to the instruction (fetch_add: the line tables name no class).
    std::string Library;
  };
  Place placeOf(const llvm::DILocation *DL);
  /// The position of one debug location (no chain).
  SourcePos positionOf(const llvm::DILocation *DL, clang::SourceLocation *Loc = nullptr);
  SourcePos positionOf(clang::SourceLocation Loc);
  /// The whole condition of the `if (...)` or `while (...)` that starts at
  /// Loc, when it is on one line and not a && b, a || b or a ? b : c.
  std::string conditionText(clang::SourceLocation Loc);
  /// A comparison as written: its text ("bt < B * T"), its operator and
  /// the names each side reads (not members: `blockIdx.x` reads blockIdx).
  struct Comparison {
    std::string Text, Op;
    std::set<std::string> Left, Right;
  };
  /// The comparison (<, <=, >, >=, ==, !=) whose operator is at Loc, on one
  /// line and outside macros, with operands of no lower precedence (they
  /// end at an unmatched bracket, a comma, &&, ||, ?:, an assignment...);
  /// none when an operand holds another < or > (a template argument list).
  std::optional<Comparison> comparisonAt(clang::SourceLocation Loc);
  clang::SourceManager &sourceManager() { return SM; }
  /// The source text of the lvalue or call that starts at Loc (a name with
  /// its subscripts, member accesses and calls), and its length, when it is
  /// on one line; empty otherwise.
  std::string expressionAt(clang::SourceLocation Loc, unsigned &Length);
  /// Where a member access or member call (dims.z, block.sync()) starts:
  /// the object before the member's name at Loc, which is where the debug
  /// info puts it; Loc when no object precedes it.
  clang::SourceLocation memberAccessStart(clang::SourceLocation Loc);
  /// The end of an asm statement that starts at Loc (its closing
  /// parenthesis): nvcc's line table puts a multi-line asm's instructions
  /// on its last line. Loc itself when it is not one.
  clang::SourceLocation asmStatementEnd(clang::SourceLocation Loc);
  /// What the statement controlled by the `if` whose condition starts at
  /// Loc is: `if (c) return;` (or `{ return; }`) gives "return", likewise
  /// "break" and "continue"; empty otherwise. In the IR an early return
  /// and an if around the rest of the function are one branch.
  std::string ifStatementJump(clang::SourceLocation Loc);
  /// Whether the source line of DL holds Word as a whole word.
  bool lineSpells(const llvm::DILocation *DL, llvm::StringRef Word);
  /// Whether the source at Loc is the keyword Word (a whole word).
  bool startsWithWord(clang::SourceLocation Loc, llvm::StringRef Word);
  /// The start of the lvalue an assignment operator (=, +=, ++, ...) at Op
  /// writes, or of the object whose member Op names (the debug location of
  /// a member's load: `q[t].y` is at `y`), on the same line; Op itself when
  /// there is none.
  clang::SourceLocation lvalueBefore(clang::SourceLocation Op);

  /// The accesses merged into a wider instruction (NvccMerges.cpp), in
  /// program order; none for an instruction not merged.
  void setMerged(const MergedAccesses *M) { Merged = M; }
  llvm::ArrayRef<MergedPart> mergedParts(const llvm::Instruction &I) const {
    if (!Merged)
      return {};
    auto It = Merged->find(&I);
    return It == Merged->end() ? llvm::ArrayRef<MergedPart>() : llvm::ArrayRef<MergedPart>(It->second);
  }

private:
  const MergedAccesses *Merged = nullptr;
  clang::SourceManager &SM;
  const clang::LangOptions &LangOpts;
  std::vector<std::string> ToolkitDirs;
  llvm::DenseMap<const llvm::DIFile *, clang::FileID> Files;
  clang::FileID fileOf(const llvm::DIFile *F);
  /// The buffer holding Loc and Loc's offset in it; false for a macro
  /// location or one outside its buffer.
  bool textAt(clang::SourceLocation Loc, llvm::StringRef &Buf, size_t &At);
  bool isToolkit(const llvm::DIScope *Scope) const;
};

} // namespace cbl

#endif
