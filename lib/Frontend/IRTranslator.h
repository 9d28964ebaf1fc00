//===- IRTranslator.h - Optimised device IR -> access model (private) -----===//
//
// Reads one function of the optimised device IR (DeviceLowering.h) and
// produces its FunctionModel: every load, store and atomic of shared memory
// with its byte offset as a SymExpr of threadIdx, blockDim, kernel
// parameters, loop counters and unknowns; the guards under which each runs;
// the loops around it; block barriers. This is what the compiler made of
// the source: templates, constexpr functions, helpers taking the tile as a
// parameter, class objects and library layouts are integer arithmetic here.
//
//  - Values (IRValues.cpp): integers become SymExprs; pointers into shared
//    memory become (array, byte offset), with each dimension's step a
//    RowStride of the declared layout where the GEP keeps it (so padding can
//    be evaluated without compiling again); everything else is an unknown,
//    warp-uniform or not as LLVM's UniformityAnalysis says (NVPTX's sources
//    of divergence: threadIdx, the lane id, atomics, calls).
//  - Control (IRControl.cpp): each natural loop (LoopInfo) becomes a
//    LoopInfo whose counters are its header's phis, and whose condition is
//    the latch's test with the next values written as the counters (the
//    while form of a rotated loop) when the loop has one exit and its entry
//    tests the same; otherwise a counter that says whether the lane goes
//    round again. Guards are the branch conditions on the way from the
//    function's entry (or the loop's header) to a block; a phi that is not
//    a loop counter is a select on them.
//  - Sites (IRSites.cpp): the accesses and barriers, with their source
//    positions from the debug info (innermost line, the inlined-at chain as
//    the call chain).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_IRTRANSLATOR_H
#define CUDA_BANK_LINT_LIB_FRONTEND_IRTRANSLATOR_H

#include "BlockShapes.h"
#include "IRLocations.h"

#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

#include <deque>
#include <functional>
#include <map>
#include <unordered_map>
#include <optional>

namespace cbl {

/// The shared arrays of a module: the AST's table, plus arrays the IR alone
/// shows (a __shared__ variable of a system header).
class IRArrays {
public:
  /// Unlisted: the arrays registered from the IR, by global name, shared by
  /// the IRArrays of every part of one unit's device code (one array each).
  IRArrays(std::vector<SharedArray> &Arrays, IRLocations &Locs, llvm::StringMap<unsigned> &Unlisted)
      : Arrays(Arrays), Locs(Locs), Unlisted(Unlisted) {}
  void add(const llvm::GlobalVariable *G, unsigned Id) {
    Ids[G] = Id;
    Types[Id] = G->getValueType();
  }
  /// The array of shared global G (registering it from the IR if needed).
  std::optional<unsigned> idOf(const llvm::GlobalVariable *G);
  const SharedArray &operator[](unsigned Id) const { return Arrays[Id]; }
  /// The IR type of each array's declaration, for layout-preserving GEPs.
  llvm::Type *typeOf(unsigned Id) const;

private:
  std::vector<SharedArray> &Arrays;
  IRLocations &Locs;
  llvm::StringMap<unsigned> &Unlisted;
  llvm::DenseMap<const llvm::GlobalVariable *, unsigned> Ids;
  llvm::DenseMap<unsigned, llvm::Type *> Types;
};

/// A pointer value: into shared memory (an array and a byte offset from its
/// start), or elsewhere (a base value and a byte offset from it).
struct IRPointer {
  bool Shared = false;
  unsigned ArrayId = 0;
  const llvm::Value *Base = nullptr; ///< !Shared: the base pointer
  SymRef Offset;                      ///< bytes from the array or the base
  /// The offset's steps follow the declared layout (RowStride), so a padded
  /// declaration is evaluated exactly.
  bool LayoutExact = true;
  /// Extents of the declared dimensions whose index uses threadIdx.x.
  std::vector<unsigned> XExtents;
};

/// Analyses of the function translated (computed once per function).
struct IRAnalyses {
  llvm::DominatorTree &DT;
  llvm::PostDominatorTree &PDT;
  llvm::LoopInfo &LI;
  llvm::UniformityInfo &UI;
  llvm::ScalarEvolution &SE;
};

/// Whether the threads of a block that evaluate a value agree on it: not
/// known to, only where the lanes of each warp are threadIdx.x % 32
/// (blockDim.x a multiple of 32, or a 1-D block), or always.
enum class Agreement { No, IfLaneRows, Yes };
inline Agreement both(Agreement A, Agreement B) { return A < B ? A : B; }
/// Sets G's BlockUniform and IfLaneRows.
void setAgreement(Guard &G, Agreement A);

/// What a value is a function of, beyond UniformityAnalysis's answer: the
/// same in every thread of the block (Uniform), a function of the thread's
/// lane and of uniform values (Lane: lane l of every warp has the same
/// value), or neither. Rows: it holds only where the lanes of each warp are
/// threadIdx.x % 32 (the value reads threadIdx.x % 32 as the lane).
struct LaneFact {
  enum Kind { Uniform, Lane, Other } K = Other;
  bool Rows = false;
  /// Lane: the lane-offset bits across which it is the same within a warp
  /// (a butterfly step with offset 16 makes lanes l and l ^ 16 agree).
  unsigned Span = 0;
};

/// A block barrier (__syncthreads and its variants, bar.sync 0): how the
/// user spells it.
bool isBlockBarrier(const llvm::CallBase &C, std::string &Spelling);
/// Whether a function of this (mangled) name is cooperative groups'
/// grid_group::sync(), a grid barrier when only declared.
bool isGridSync(llvm::StringRef Mangled);
/// The called function's name without namespaces, template arguments or
/// parameters ("atomicAdd", "__all_sync"); empty for an indirect call.
std::string calleeBaseName(const llvm::CallBase &C);
/// The source variable an IR value was named after by Clang (x for x.031),
/// or "" for one of Clang's temporaries.
std::string variableOf(const llvm::Value *V);

class IRTranslator {
public:
  using FixedArguments = std::map<unsigned, BlockShapeFinder::FixedArgument>;
  IRTranslator(const llvm::Function &F, IRAnalyses A, IRArrays &Arrays, IRLocations &Locs,
               const FixedArguments &Fixed, FunctionModel &Out);

  /// Walks the function and fills Out's accesses, barriers and loops.
  void translate();

  // --- values (IRValues.cpp) ---
  /// V (an integer or i1) as an expression; an unknown when not modelled.
  SymRef intOf(const llvm::Value *V);
  /// V (a pointer, or an integer holding a shared-window address) as a
  /// place; nullopt when its base cannot be followed.
  std::optional<IRPointer> ptrOf(const llvm::Value *V);
  /// An integer holding a shared-window address (__cvta_generic_to_shared,
  /// what inline PTX takes) as a place in shared memory.
  std::optional<IRPointer> sharedAddressOf(const llvm::Value *V);
  std::optional<IRPointer> sharedAddressFrom(const llvm::Value *V); ///< uncached
  /// An unknown standing for V: warp-uniform or not as UniformityAnalysis says.
  /// At: the place to name V by, as a load there (default: V's own).
  SymRef unknownOf(const llvm::Value *V, const std::string &Why, const std::string &NameSuffix = "",
                   const llvm::DILocation *At = nullptr);
  SymRef resultOf(const llvm::Instruction &I, const std::string &Otherwise);
  /// How users name V ("n", "the value loaded at k.cu:12").
  std::string nameOf(const llvm::Value *V, const std::string &Suffix = "", const llvm::DILocation *At = nullptr);
  /// Records E, the comparison C, with the source text of the comparison
  /// C's debug location points at, when that text is E as written
  /// (IRSpellings.cpp).
  void spellComparison(const llvm::ICmpInst &C, const SymRef &E);

  // --- control (IRControl.cpp) ---
  /// The guards under which block BB runs, outermost first.
  const std::vector<Guard> &guardsOf(const llvm::BasicBlock *BB);
  /// The loops around BB, outermost first (model ids).
  std::vector<unsigned> loopsOf(const llvm::BasicBlock *BB);

private:
  friend struct IRSiteWalker;
  const llvm::Function &F;
  const llvm::DataLayout &DL;
  IRAnalyses A;
  IRArrays &Arrays;
  IRLocations &Locs;
  const FixedArguments &Fixed;
  FunctionModel &Out;

  llvm::DenseMap<const llvm::Value *, SymRef> Ints;
  llvm::DenseMap<const llvm::Value *, std::optional<IRPointer>> Ptrs;
  /// Integers found not to be a shared address plus offsets (sharedAddressOf):
  /// a sum's operands are each searched once, not once per path to them.
  llvm::DenseSet<const llvm::Value *> NotSharedAddress;
  std::unordered_map<const llvm::BasicBlock *, std::vector<Guard>> Guards;
  /// Guards computed while a loop's condition was being built: they read its
  /// stand-in, so they are kept (by block) only until a loop's condition is
  /// set; the deque keeps every one alive for the references handed out.
  std::deque<std::vector<Guard>> ProvisionalGuards;
  llvm::DenseMap<const llvm::BasicBlock *, const std::vector<Guard> *> ProvisionalByBlock;
  bool Provisional = false;
  llvm::DenseMap<const llvm::Loop *, unsigned> LoopIds;
  std::map<unsigned, const llvm::PHINode *> CounterPhis; ///< counter id -> its phi
  unsigned NextCounterId = 0;
  /// Unknowns by name: two values never share one.
  std::map<std::string, const llvm::Value *> UnknownNames;
  /// While a loop's condition is built in the while form: the latch's
  /// values that stand for the counters of the next iteration, and a cache
  /// of its own (values there mean the next iteration's).
  llvm::DenseMap<const llvm::Value *, SymRef> NextAsCounter;
  llvm::DenseMap<const llvm::Value *, IRPointer> NextPtrAsCounter;
  llvm::DenseMap<const llvm::Value *, SymRef> SubstInts;
  const llvm::Loop *SubstLoop = nullptr;
  bool SubstFailed = false;
  unsigned Depth = 0;
  static constexpr unsigned MaxDepth = 1500; ///< values and pointers nested deeper are unknown

  // IRValues.cpp
  SymRef translateInt(const llvm::Value *V);
  SymRef binaryOf(const llvm::BinaryOperator &B);
  SymRef boundaryOf(const llvm::ICmpInst &C, const SymRef &L, const SymRef &R);
  SymRef compareOf(const llvm::ICmpInst &C);
  SymRef signExtensionOf(const llvm::BinaryOperator &B, IntType S);
  SymRef unshrunkMask(const llvm::BinaryOperator &B, IntType S);
  SymRef castOf(const llvm::CastInst &C);
  SymRef callOf(const llvm::CallBase &C);
  /// A special register, an integer min/max, funnel shift, saturating
  /// subtraction or abs; else the intrinsic's unknown result.
  SymRef intrinsicOf(const llvm::IntrinsicInst &II);
  /// An integer helper without a body (the prelude's and libdevice's min,
  /// max, mul24) as its operation; null for any other call.
  SymRef integerHelperOf(const llvm::CallBase &C, const llvm::Function &Callee);
  /// O on C's two operands, each converted to OT; of C's type.
  SymRef operandsOp(const llvm::CallBase &C, Opcode O, IntType OT);
  SymRef argumentOf(const llvm::Argument &Arg);
  SymRef loadedValueOf(const llvm::LoadInst &L);
  /// An element of a vector (uint4 key; key.x): the value inserted there,
  /// else data when the vector is loaded or built from loaded values (also
  /// through a loop's phi).
  SymRef extractOf(const llvm::ExtractElementInst &E);
  std::optional<IRPointer> translatePtr(const llvm::Value *V);
  std::optional<IRPointer> gepOf(const llvm::GEPOperator &G);
  std::optional<IRPointer> pointerPhiOf(const llvm::PHINode &P);
  /// A load from a constant integer table (a const or __constant__ array
  /// with an initialiser, at most 64 entries): selects on the index.
  SymRef localTableValue(const llvm::AllocaInst &AI, const SymRef &Offset, const llvm::LoadInst &L);
  SymRef constantTableValue(const llvm::GlobalVariable &G, const SymRef &Offset, llvm::Type *Ty);

  // IRControl.cpp
  unsigned loopIdOf(const llvm::Loop *L);
  void buildLoop(const llvm::Loop *L, unsigned Id);
  SymRef loopCondition(const llvm::Loop *L, unsigned Id);
  bool enteredOnlyWhen(const llvm::Loop *L, unsigned Id, const SymRef &C);
  /// The same question asked of ScalarEvolution for a latch test that
  /// compares a counter's next value with a loop-invariant bound.
  bool entryGuardedBySCEV(const llvm::Loop *L, const llvm::BranchInst &Latch);
  // IRUniformity.cpp
  bool blockUniform(const llvm::SCEV *S);
  Agreement agrees(const llvm::Value *C, unsigned Depth = 0);
  Agreement exitAgrees(const llvm::BasicBlock *Exiting);
  Agreement sameTripCount(const llvm::Loop *L);
  LaneFact laneFact(const llvm::Value *V, unsigned Depth = 0);
  LaneFact laneFactOfCall(const llvm::CallBase &C, unsigned Depth);
  LaneFact laneFactOfPhi(const llvm::PHINode &P, unsigned Depth);
  std::optional<LaneFact> butterflyStep(const llvm::Instruction &V, unsigned Depth);
  std::string symmetricForm(const llvm::Value *V, const llvm::Value *S, const llvm::Value *X, bool Swap,
                            unsigned Depth = 0);
  bool writeFreeBetweenBarriers(const llvm::Instruction &I);
  SymRef phiOf(const llvm::PHINode &P);
  SymRef gatedSelect(const llvm::PHINode &P, const std::function<SymRef(const llvm::Value *)> &ValueOf,
                     IntType T);
  /// The condition that BB runs given that Dom (which dominates it) ran:
  /// the guards of BB beyond those of Dom, joined.
  SymRef reachFrom(const llvm::BasicBlock *Dom, const llvm::BasicBlock *BB);
  /// The condition under which control goes from From to To.
  SymRef edgeCondition(const llvm::BasicBlock *From, const llvm::BasicBlock *To);
  bool onlyReturnsAway(const llvm::BasicBlock *Dom, const llvm::BasicBlock *BB);
  std::vector<Guard> computeGuards(const llvm::BasicBlock *BB);
  /// A way into a block: its predecessor Pred, lifted out of the loops the
  /// block is not in (Node: where those loops are entered). Every lane
  /// leaves such a loop, by its one exit or (ExitUnknown) one of several.
  struct WayIn {
    const llvm::BasicBlock *Node, *Pred;
    bool Lifted, ExitUnknown;
  };
  WayIn wayIn(const llvm::BasicBlock *P, const llvm::BasicBlock *BB);
  /// The condition under which a lane takes the way W into BB.
  SymRef wayCondition(const WayIn &W, const llvm::BasicBlock *BB);
  /// The guards of a loop's header: those of the way in, and the loop's test.
  std::vector<Guard> headerGuards(const llvm::BasicBlock *BB, const llvm::Loop *L);
  /// The guards of a block with one way in: its branch's condition (a
  /// conjunction as one guard per part) after the predecessor's guards.
  std::vector<Guard> oneWayGuards(const llvm::BasicBlock *BB, const WayIn &W);
  /// BB's predecessor P as seen from outside the loops that hold P but
  /// not BB: the block from which those loops are entered.
  const llvm::BasicBlock *liftOutOfLoops(const llvm::BasicBlock *P, const llvm::BasicBlock *BB,
                                         bool &ExitUnknown);
};

/// The thread's lane in its warp (%laneid), of type T.
SymRef laneId(IntType T);

/// true, false and the joins of conditions (bool expressions).
SymRef boolConstant(bool V);
SymRef andOf(const SymRef &A, const SymRef &B);
SymRef orOf(const SymRef &A, const SymRef &B);
SymRef notOf(const SymRef &A);
/// C ? A : B, as a logical operation when it chooses between truth values.
SymRef selectOf(const SymRef &C, const SymRef &A, const SymRef &B, IntType T);

} // namespace cbl

#endif
