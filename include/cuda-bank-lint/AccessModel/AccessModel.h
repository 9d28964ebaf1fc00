//===- AccessModel.h - What the front end extracts from a translation unit -===//
//
// The access model is the boundary between the Clang front end and everything
// downstream (symbolic evaluation, checks, reporters): shared arrays with their
// layout, every load and store to them with a symbolic byte offset and the
// guards under which it runs, block barriers with their guards, and each
// analysed function's block shape. Nothing here refers to Clang types, so the
// downstream layers can be tested without parsing.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_ACCESSMODEL_ACCESSMODEL_H
#define CUDA_BANK_LINT_ACCESSMODEL_ACCESSMODEL_H

#include "cuda-bank-lint/AccessModel/SymExpr.h"
#include "cuda-bank-lint/BankModel/BankModel.h"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cbl {

/// How far the analysis of an access got; one status from analysis to report.
enum class VerdictStatus { Exact, Bound, Unknown, DataDependent, Unsupported };
const char *verdictStatusName(VerdictStatus S);

/// What a data-dependent access's estimate on random data draws for each
/// lane: the loaded values its address reads (each over the values that keep
/// the address inside the array), or, where the address combines more loaded
/// values than are drawn one by one, the element of the array it accesses.
enum class RandomDraw { LoadedValues, ArrayElement };
const char *randomDrawName(RandomDraw D);

/// A position in a source file (1-based line and column, byte offset).
struct SourcePos {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  unsigned Offset = 0;
  bool InSystemHeader = false; ///< a header found through -isystem (libraries, the toolkit)
  bool valid() const { return Line != 0; }
};

/// One call on the way from an analysed function to an access in a helper.
struct CallFrame {
  SourcePos Site;       ///< the call
  std::string Callee;   ///< the function it calls
};

/// A contiguous byte range of a file, for fix-its.
struct SourceSpan {
  SourcePos Begin;
  unsigned Length = 0;
};

/// A `__shared__` variable and its layout.
struct SharedArray {
  unsigned Id = 0;
  std::string Name;
  SourcePos Decl;
  bool IsExtern = false;        ///< extern __shared__ (dynamic) storage
  std::string ElementType;      ///< spelling of the innermost element type
  uint64_t ElementSize = 0;     ///< bytes
  uint64_t Alignment = 0;       ///< bytes, of the variable
  /// Extents, outermost first; empty for a scalar; {0} for an unsized extern.
  std::vector<uint64_t> Dims;
  /// The source text and location of the innermost extent (for padding fixes);
  /// unset when it is not plain source text (e.g. in a macro body).
  std::optional<SourceSpan> InnermostExtent;
  std::string InnermostExtentText;
  /// The innermost extent is an operation that binds less tightly than '*'
  /// and whose operator a macro hides ('COLS' for '#define COLS 1 << 5'): an
  /// edit writes it in parentheses.
  bool InnermostExtentHidesOperator = false;
  /// Every extent as written, outermost first, for the fix-it's message;
  /// empty when one is not plain source text.
  std::vector<std::string> ExtentTexts;
};

/// Which threads of a block a launch uses, and how we know.
struct BlockShape {
  std::array<unsigned, 3> Dim{{0, 0, 0}}; ///< 0 = unknown component
  enum class Source { CommandLine, Config, Annotation, Launch, LaunchBounds, Assumed };
  Source From = Source::Assumed;
  SourcePos Where;          ///< the launch / attribute / annotation, if any
  std::string Description;  ///< e.g. "from the launch at k.cu:40:3"
  /// Blocks in the grid (--grid-dim), 0 = unknown component: bounds blockIdx
  /// and fixes gridDim where the barrier checks look for a witness.
  std::array<unsigned, 3> Grid{{0, 0, 0}};
  /// The most threads a block can have: __launch_bounds__'s maximum where
  /// the kernel has one (a launch with more fails), else 1024. Bounds the
  /// shapes tried where the shape is not known.
  unsigned MaxThreads = 1024;
  bool known() const { return Dim[0] && Dim[1] && Dim[2]; }
  unsigned threads() const { return Dim[0] * Dim[1] * Dim[2]; }
  /// From __launch_bounds__: Dim is (N, 1, 1) for its maximum N, a bound on
  /// the thread count; the barrier check takes the shape as not known.
  bool boundOnly() const { return From == Source::LaunchBounds; }
};
const char *blockShapeSourceName(BlockShape::Source S);
/// "block 32x8x1 from the launch at k.cu:40:3", or the assumption made.
std::string describeBlockShape(const BlockShape &S);
/// ", 256 threads at most (__launch_bounds__)" where __launch_bounds__ caps
/// the threads below 1024; empty otherwise.
std::string threadBoundText(const BlockShape &S);

/// The statement a guard comes from. EarlyReturn, Break and Continue (and
/// Reached, for a mix of them) narrow what follows an exit taken by some
/// threads; Unrolled selects the iterations a merged access stands for.
enum class GuardKind {
  If, Else, Conditional, And, Or, Loop, Switch, EarlyReturn, Break, Continue, Reached, Unrolled
};
/// "if", "else", "?:", "&&", "||", "loop", "switch", "early return", "break",
/// "continue", "reached", "unrolled".
const char *guardKindSpelling(GuardKind K);

/// A condition that must hold for an access or barrier to run.
struct Guard {
  SymRef Cond;       ///< evaluated per lane; non-zero means "taken"
  bool Negated = false;
  SourcePos Where;   ///< the if/loop/return that introduced it
  GuardKind Kind = GuardKind::If;
  /// Every thread of the block takes it alike, although Cond reads values
  /// that differ between threads: the condition of a loop whose trip count
  /// is the same for all (`for (t = tid; t < n + tid; t += c)`).
  bool BlockUniform = false;
  /// BlockUniform holds only where the lanes of each warp are threadIdx.x %
  /// 32 (blockDim.x a multiple of 32, or a 1-D block): the condition is a
  /// full-warp vote over values indexed by threadIdx.x % 32.
  bool IfLaneRows = false;
};

/// A loop-carried integer of a loop: its value entering the loop (Init, which
/// may depend on the lane and on enclosing loops' counters) and at the end of
/// an iteration (Next, in terms of the counters at the iteration's start).
/// Expressions refer to it through a LoopVar leaf whose LoopId is Id.
struct LoopCounter {
  unsigned Id = 0;        ///< unique within the function
  std::string Name;
  SymRef Init, Next;
  bool LaneVarying = false; ///< differs between lanes (i = threadIdx.x; ...)
  /// Not a variable of the program (whether the lane is still in a loop of
  /// several exits): not named where iterations are listed.
  bool Internal = false;
};

/// The one name of a loop's Internal counter wherever users read it (a
/// condition, an assumption, a reason): "a lane runs another iteration of
/// the loop at line 15"; a reason says "whether " and this.
std::string internalLoopFlagName(unsigned Line);

struct LoopInfo;
/// The loop of Loops whose Internal counter is named Name, if any: where a
/// list of names (a verdict's parameters) holds the flag, what it stands for.
const LoopInfo *loopOfInternalFlag(const std::vector<LoopInfo> &Loops, const std::string &Name);

/// A loop whose iterations the symbolic layer may enumerate: the counters
/// start at their Init, the body runs while Cond holds, then every counter
/// takes its Next value.
struct LoopInfo {
  unsigned Id = 0;
  std::vector<LoopCounter> Counters;
  SymRef Cond;
  SourcePos Where;
  bool LaneVarying = false; ///< some counter differs between lanes
};

/// One load, store or atomic of shared memory (a read-modify-write in C++,
/// `s[i] += x`, is two records: a load and a store).
struct SharedAccess {
  unsigned ArrayId = 0;
  SourcePos Where;
  /// Bytes of the accessed lvalue's source text from Where, when it is on
  /// one line of one file (0: unknown); findings underline it.
  unsigned Length = 0;
  std::string Spelling;     ///< the source text of the accessed lvalue
  AccessOp Op = AccessOp::Load;
  AtomicRule Atomic = AtomicRule::Native; ///< Op == Atomic: what it compiles to
  /// The instruction or call as the user wrote it, when the access is not a
  /// plain load or store ("atomicAdd", "atom.shared.add.u32"); else empty.
  std::string Instruction;
  /// ldmatrix/stmatrix: the lanes whose address the instruction reads (.x1:
  /// lanes 0-7, .x2: 0-15, .x4: all), one 16-byte row each.
  bool Matrix = false;
  uint32_t AddressLanes = 0xffffffffu;
  unsigned Width = 4;       ///< bytes moved per lane by one instruction
  SymRef ByteOffset;        ///< from the start of the array's storage
  std::vector<Guard> Guards;
  std::vector<unsigned> Loops; ///< enclosing counted loops, outermost first
  /// Extents of the array dimensions whose index uses threadIdx.x (tile[ty][tx]
  /// of float tile[16][17]: 17): block widths people launch such code with.
  std::vector<unsigned> ThreadXExtents;
  bool Volatile = false;    ///< through a volatile lvalue
  /// Set when the lanes of a warp may run this access apart, in several
  /// instructions (after an atomic retry loop, which nvcc does not
  /// reconverge before the next barrier): why.
  std::string MaySplit;
  /// Set when this access stands for several the compiler merges into one
  /// instruction: the others, in program order.
  std::vector<std::pair<SourcePos, std::string>> MergedWith;
  /// Set when the access is in a helper analysed at a call: the calls from
  /// the analysed function down to the helper, outermost first.
  std::vector<CallFrame> CallChain;
  /// Set when the front end could not model the access at all.
  std::string NotAnalysable;
  /// Set for an instruction the tool recognises but has no model for (a
  /// shared-memory atomic, inline PTX, a call whose body is not available
  /// that receives shared memory): the reason, status 'unsupported'.
  std::string Unsupported;
};

/// A block-level barrier (__syncthreads and friends) reached in a function.
struct BarrierSite {
  SourcePos Where;
  std::string Spelling;     ///< "__syncthreads()", "block.sync()", ...
  bool GridWide = false;    ///< grid_group::sync: waits for every thread of the grid
  std::vector<Guard> Guards;
  /// Set when the barrier is reached only through a call: the callee's name.
  std::string ViaCall;
  SourcePos CalleeBarrier;
  /// ViaCall only: the callee's integer parameters and the values passed to
  /// them here (the callee's own barriers are analysed assuming uniform
  /// arguments; the barrier check joins the two).
  std::vector<std::pair<std::string, SymRef>> Args;
};

/// A kernel or device function (one template instantiation) and its accesses.
/// A kernel parameter whose value every launch in the translation unit
/// fixes the same way: a constant, or the block size (k<<<g, b>>>(..., b.x)).
struct LaunchArgument {
  std::string Param;    ///< the parameter's name
  std::string Value;    ///< "256", "blockDim.x"
  std::string Spelling; ///< what the (first) launch passes, as written
  SourcePos Where;      ///< that launch
  unsigned Launches = 0;
};

/// "kernel parameter 'bdim' taken as blockDim.x: the launch at k.cu:40:3
/// (the only one in this file) passes 'block.x' for it".
std::string describeLaunchArgument(const LaunchArgument &A);

struct FunctionModel {
  std::string Name;         ///< with template arguments, e.g. "reduce<int, 256>"
  SourcePos Where;
  bool IsKernel = false;
  /// A device function that a kernel of this translation unit calls
  /// (directly or not): its barriers are judged inside that kernel, where
  /// the call is inlined with the actual arguments, not on their own.
  bool CalledByKernel = false;
  /// The block shape the analysis uses: set by the driver's one resolver
  /// (Driver/ShapeResolver.h) from the options and the evidence below.
  BlockShape Shape;
  /// What the translation unit says (kernels): the first launch with a
  /// constant block shape, and __launch_bounds__. For a device function
  /// that only this unit's kernels call, BoundsShape is the largest
  /// __launch_bounds__ of those kernels, where each has one.
  std::optional<BlockShape> LaunchShape, BoundsShape;
  /// A __launch_bounds__ that bounds no launch (its maximum outside 1..1024
  /// or not a constant), as the notes say it: "__launch_bounds__(2048) at
  /// f.cu:3 (outside 1..1024)"; empty otherwise.
  std::string BoundsIgnored;
  /// The constant shapes of the other launches in the translation unit that
  /// differ from LaunchShape (the barrier check tries each).
  std::vector<BlockShape> OtherLaunchShapes;
  /// Parameters taken from the launches (kernels only), as stated in notes.
  std::vector<LaunchArgument> LaunchArguments;
  std::vector<SharedAccess> Accesses;
  std::vector<BarrierSite> Barriers;
  std::vector<LoopInfo> Loops; ///< indexed by LoopInfo::Id
  /// The body (or a helper walked in it) names a __shared__ variable.
  bool NamesShared = false;
  /// Conditions as the user wrote them: a comparison's text in the
  /// compiler's form (toString: 'bt < T * B') -> its source text ('bt < B *
  /// T'), where the front end found the comparison the branch's debug
  /// location points at and its operands on the same sides. For display
  /// only (Checks/FindingText.h: asWritten).
  std::map<std::string, std::string> ConditionSpellings;
};

/// Calls Fn on every source position F holds (its own, its shapes', launch
/// arguments', accesses', guards', merged accesses', call chains', barriers'
/// and loops'): the front end moves the byte offsets of a model it kept from
/// an earlier version of the text (DeviceModelMemo).
void forEachPosition(FunctionModel &F, const std::function<void(SourcePos &)> &Fn);

/// A function the front end did not analyse because Clang rejects code it
/// needs (its own body or a function it calls).
struct SkippedFunction {
  enum class Kind { Kernel, Device, Host };
  /// What stopped it: one of Clang's errors (Error is Clang's message), a
  /// __shared__ object with a constructor that its code uses (Where is the
  /// object's declaration), or the tool (Error says why, as a sentence).
  enum class Cause { ClangError, SharedConstructor, Tool };
  Kind What = Kind::Device;
  std::string Name;
  SourcePos Where;
  std::string Error;        ///< the first Clang error that stopped it (message only)
  SourcePos ErrorWhere;
  std::string Via;          ///< the callee holding the error, when it is not this function
  Cause Why = Cause::ClangError;
};
const char *skippedKindName(SkippedFunction::Kind K);

/// Why nothing that uses a __shared__ object with a constructor is analysed:
/// the one wording of the front end's notes, errors and the run's summary.
inline constexpr const char *SharedConstructorText =
    "a __shared__ object with a constructor (nvcc does not run it; Clang does not compile it)";

/// Something the front end saw and did not model, or a Clang error that nvcc
/// does not make (the construct is then left out): stated, never silent.
struct FrontEndNote {
  SourcePos Where;
  std::string Message;
  /// Set for the note about kernels in code the preprocessor skipped: their
  /// names (the run's summary counts them, once per file however many
  /// translation units include it).
  std::vector<std::string> SkippedKernels;
  /// Said on the terminal only with --verbose (the other formats have it).
  bool VerboseOnly = false;
};

/// A kernel launched with a constant block shape: its name (with template
/// arguments), where it is declared and defined (the name's position in each
/// declaration: the same kernel seen from another translation unit has the
/// same ones), and the first such launch.
struct LaunchedKernel {
  std::string Name;
  std::vector<SourcePos> Decls;
  BlockShape Shape;
};

/// Everything the front end found in one translation unit.
struct TranslationUnitModel {
  std::string MainFile;
  std::vector<SharedArray> Arrays;    ///< indexed by SharedArray::Id
  std::vector<FunctionModel> Functions;
  std::vector<SkippedFunction> Skipped;
  std::vector<FrontEndNote> Notes;
  /// Every kernel this translation unit launches with a constant block
  /// shape, whether or not it is analysed here.
  std::vector<LaunchedKernel> Launches;
};

} // namespace cbl

#endif
