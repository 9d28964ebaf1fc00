//===- Finding.h - Diagnostics and per-access records, format-neutral -----===//
//
// Checks produce Findings (clang-style diagnostics with notes and fix-its) and
// the bank-conflict analysis produces one AccessRecord per analysed access.
// Reporters (text, JSON, SARIF, GitHub annotations) only read these structs;
// they never see Clang or isl.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_REPORT_FINDING_H
#define CUDA_BANK_LINT_REPORT_FINDING_H

#include "cuda-bank-lint/AccessModel/AccessModel.h"
#include "cuda-bank-lint/BankModel/BankGrid.h"

#include <array>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace cbl {

enum class Severity { Note, Remark, Warning, Error };
const char *severityName(Severity S);

/// Replace Length bytes at Begin with Text (clang-apply-replacements style).
struct FixIt {
  SourceSpan Range;
  std::string Text;
};

/// What a note does for its finding, which decides where it is shown: text
/// and GitHub annotations show the Key note (the one line that explains the
/// finding) and the Fix note (a verified fix-it) by default, every note with
/// --explain; JSON, SARIF and the language server keep every note.
enum class NoteRole { Detail, Key, Fix };
/// "detail", "key", "fix" (JSON).
const char *noteRoleName(NoteRole R);

struct FindingNote {
  SourcePos Where;          ///< may be invalid: then printed without location
  std::string Message;
  std::vector<FixIt> Fixes;
  NoteRole Role = NoteRole::Detail;
  /// About the array, the same for each of its findings (a swizzle that
  /// works, why no fix-it is offered): text and GitHub output say it once
  /// per run (FixesOnce::statedBefore).
  bool OfArray = false;
};

struct Finding {
  std::string Check;        ///< e.g. "cuda-shared-bank-conflict"
  Severity Level = Severity::Warning;
  SourcePos Where;
  std::string Message;      ///< lowercase, no trailing period
  std::vector<FindingNote> Notes;
  std::vector<FixIt> Fixes;
  std::vector<SourceSpan> Ranges; ///< source underlined with the caret (^~~~)
  /// Findings at one location with the same check and kind are one finding
  /// (mergeFindings); empty: the message is the kind.
  std::string Kind;
  /// What this finding is one instance of, for the merged finding's notes:
  /// "'reduce<256>' at block 256x1x1", "'kernel' via the call here".
  std::string Context;
  SourcePos ContextWhere;   ///< where the note about this instance points
  std::string Summary;      ///< the instance's result in a few words: "2-way"
  unsigned Score = 0;       ///< larger is worse: the merged finding keeps the worst
  /// Other lines whose NOLINT silences this instance (the calls leading to an
  /// access in a helper).
  std::vector<SourcePos> AlsoSuppressedAt;
};

/// One finding per (file, line, column, check, kind): the worst instance
/// keeps its message and notes; the others become notes (the first few, then
/// a count); identical instances (a header seen from two files) count once.
/// Fix-its are kept only when every instance carries the same ones.
void mergeFindings(std::vector<Finding> &Findings);

/// A fix-it several findings offer (one padding of an array for each of its
/// conflicted accesses) is stated once per run: the first finding in the
/// report's order carries it; text and GitHub annotations refer the others
/// to it ("fix-it: see line 3"), JSON and SARIF leave the replacement out of
/// them (--export-fixes writes it once too, and --fix applies it once). The
/// language server and the HTML report keep it with every finding. A note of
/// the array (FindingNote::OfArray) is said once in text and GitHub output
/// alike: the findings after the first leave it out.
class FixesOnce {
public:
  /// The earlier finding that offered every one of Fixes (not empty), or
  /// null; the ones F offers first are now F's.
  const Finding *offeredBefore(const std::vector<FixIt> &Fixes, const Finding &F);
  /// Of Fixes, the ones no finding before F offered.
  std::vector<FixIt> fresh(const std::vector<FixIt> &Fixes, const Finding &F);
  /// The note that stands for the fix-it of Earlier: "fix-it: the same as
  /// at line 3" ("... at k.cuh:3", as spelled, in another file than At's).
  static std::string sameAs(const Finding &Earlier, const SourcePos &At);
  /// Whether N is a note of the array (OfArray) that an earlier finding
  /// stated word for word at the same place: said once, it is left out.
  bool statedBefore(const FindingNote &N);

private:
  const Finding *firstOffering(const FixIt &X, const Finding &F);
  std::map<std::tuple<std::string, unsigned, unsigned, std::string>, const Finding *> First;
  std::set<std::tuple<std::string, unsigned, std::string>> Stated;
};

/// One lane of the worst warp, for --explain.
struct LaneRow {
  unsigned Lane = 0;
  std::array<unsigned, 3> Tid{{0, 0, 0}};
  bool Active = false;
  uint64_t Address = 0; ///< byte offset from the start of the array's storage
  unsigned Bank = 0;
  uint64_t Word = 0;
};

/// One enumerated loop iteration of an access.
/// A data-dependent access's expected cost on random data (RandomDataCost).
struct RandomDataRecord {
  double Wavefronts = 0, Ideal = 0;     ///< expected per warp request
  unsigned WorstWavefronts = 0, WorstIdeal = 0;
  bool WorstReachable = false;          ///< false: the costliest warp drawn
  unsigned Samples = 0, Lanes = 0;
  std::vector<std::string> Values;      ///< the loaded values the address uses
  std::vector<std::string> Regardless;  ///< other unknowns, at each value tried
  RandomDraw Draw = RandomDraw::LoadedValues;
  uint64_t Elements = 0;                ///< ArrayElement: the array's elements drawn from
};

/// A boundary block's costliest warp (EdgeWarp): the hardware's wavefronts
/// for the lanes a partial tile leaves, and Nsight Compute's source-page ideal.
struct EdgeRecord {
  unsigned Wavefronts = 0, PageIdeal = 0, Warp = 0;
  uint32_t Lanes = 0; ///< the lanes left
};

struct AccessCase {
  std::string Label;
  unsigned Degree = 0, Wavefronts = 0, Ideal = 0, ActiveLanes = 0;
};

/// Outcome of the bank analysis for one access, the stable JSON record.
struct AccessRecord {
  unsigned ArrayId = 0;     ///< in its translation unit's model (not printed)
  SourcePos Where;
  std::string Function;
  bool InKernel = true; ///< false: a device function analysed on its own (no kernel here calls it)
  std::string Array;
  std::string Spelling;
  AccessOp Op = AccessOp::Load;
  unsigned Width = 0;
  /// Atomics: the call or PTX opcode as written, the rule the bank model
  /// applied, and for a compare-and-swap loop its iterations and the
  /// wavefronts and ideal of its own loads (worst warp; summed over one
  /// block below).
  std::string Instruction;
  AtomicRule Atomic = AtomicRule::Native;
  unsigned Iterations = 0;
  unsigned LoopLoadWavefronts = 0;
  unsigned LoopLoadIdeal = 0;
  /// How far the analysis got (JSON: "exact", "bound", "data-dependent", "unknown", "unsupported").
  VerdictStatus Status = VerdictStatus::Unknown;
  std::string Reason;       ///< why not exact (empty when exact)
  unsigned Wavefronts = 0;  ///< worst warp
  unsigned Ideal = 0;
  unsigned Degree = 0;
  unsigned WorstWarp = 0;
  uint32_t ActiveMask = 0;
  uint64_t BlockWavefronts = 0; ///< summed over the warps of one block
  uint64_t BlockIdeal = 0;
  uint64_t BlockLoopLoadWavefronts = 0; ///< a compare-and-swap loop's loads, likewise
  uint64_t BlockLoopLoadIdeal = 0;
  uint64_t BlockIterations = 1; ///< executions the block sums cover; 0 = trip count unknown
  uint64_t RepeatedIterations = 0; ///< warp iterations summed but not listed as cases
  std::vector<AccessCase> Cases; ///< per enumerated iteration
  BlockShape Shape;
  std::vector<std::string> LaunchArguments; ///< parameters taken from the launches
  std::vector<CallFrame> CallChain; ///< in a helper: the calls from the kernel, outermost first
  /// Accesses the compiler merges with this one into one wider instruction.
  std::vector<std::pair<SourcePos, std::string>> MergedWith;
  std::string Index;        ///< the byte offset, rendered
  std::vector<std::string> Parameters; ///< uniform unknowns the result is exact for
  /// Loops of several exits whose internal flag (whether a lane runs another
  /// iteration: no variable of the program) the result holds for every value
  /// of, as Parameters does for the program's values: each loop's position.
  std::vector<SourcePos> LoopFlags;
  std::vector<std::string> AssumedUniform; ///< warp-uniform guards assumed taken
  std::vector<std::string> BoundBy; ///< unknowns deciding which lanes run it (status bound)
  /// Exact for the warps inside a threshold (gid < n): its unknowns, and the
  /// statement about a boundary warp.
  std::vector<std::string> BoundaryBy;
  std::string Boundary;
  bool NeverExecuted = false;
  std::optional<RandomDataRecord> Random; ///< status data-dependent only
  bool PerExecution = false; ///< status bound: exact per execution, their number unknown
  std::optional<EdgeRecord> Edge; ///< a partial tile's warp costlier than the full ones
  std::vector<LaneRow> Lanes; ///< worst warp, only with --explain
  /// The worst warp's words by bank and wavefront (bankGrid), with Lanes
  /// (--explain, --html, the language server); empty when no lane runs it.
  BankGrid Grid;
};

/// What happened to one input file: analysed, partly (a kernel was not
/// analysed because Clang rejects code it needs), not at all, or skipped (a
/// header found in a directory that compiles neither alone nor through a
/// file that includes it: not an error).
struct UnitStatus {
  enum class State { Analysed, Partial, Failed, Skipped };
  std::string File;
  State Status = State::Analysed;
  std::string Error;          ///< Failed: the first error, message only
  SourcePos ErrorWhere;
  std::string MissingHeader;  ///< Failed because this header was not found
  std::vector<SkippedFunction> Skipped;
  std::vector<FrontEndNote> Notes;
};
const char *unitStateName(UnitStatus::State S);

/// A __shared__ variable and what became of its accesses.
struct SharedVariableRecord {
  std::string Name;
  SourcePos Decl;
  std::string ElementType;
  std::vector<uint64_t> Dims;
  uint64_t Bytes = 0;       ///< 0 for an unsized extern buffer
  bool IsExtern = false;
  std::map<VerdictStatus, unsigned> Accesses; ///< records by status
};

/// Everything one run produced, for one or many translation units.
struct RunReport {
  std::string ToolVersion;
  std::string Mode;         ///< "cuda-headers" or "prelude"
  std::vector<Finding> Findings;
  std::vector<AccessRecord> Accesses;
  unsigned Files = 0;
  unsigned Errors = 0;          ///< files not analysed at all
  unsigned PartlyAnalysed = 0;  ///< files with a kernel not analysed
  unsigned SkippedHeaders = 0;  ///< headers from directories skipped with a note
  /// Kernels in code the preprocessor skipped (not compiled, so not
  /// analysed), each file's once however many translation units include it.
  unsigned PreprocessorSkipped = 0;
  std::vector<UnitStatus> Units; ///< one per input file, in input order
  std::vector<SharedVariableRecord> Variables;
};

} // namespace cbl

#endif
