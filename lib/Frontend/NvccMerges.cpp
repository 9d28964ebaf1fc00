//===- NvccMerges.cpp - the wide shared accesses nvcc makes of adjacent ones -===//
//
// nvcc's PTX keeps `s[2*t]` and `s[2*t+1]` as two ld.shared.u32; ptxas,
// which places the shared variables and so knows their alignment, merges
// them into one LDS.64 when the pair is 8-byte aligned (four words 16-byte
// aligned: LDS.128). Measured on nvcc 13.0's SASS for sm_90
// (utils/oracles/merges.cu, test/data/h100-merges.csv, docs/bank-model.md):
//  - static shared variables are placed in declaration order (namespace-
//    scope ones first), each at its natural alignment, from offset 0;
//    dynamic (`extern`) shared memory follows them, 16-byte aligned
//    (SharedPlacement.h); accesses to neighbouring variables merge too;
//  - 4- and 8-byte accesses merge into 8- and 16-byte ones when the first
//    address is aligned to the merged width; bytes and 2-byte loads only as
//    far as the variable's declared alignment allows, 2-byte stores as far
//    as the declared alignment or 4 bytes;
//  - any shared store (another array's too), a barrier or a volatile access
//    between two loads prevents the merge, a global access does not; a
//    shared load or store between two stores prevents it;
//  - a merged load keeps the first load's line, a merged store the last
//    store's.
// LLVM's LoadStoreVectorizer makes these merges (after InferAddressSpaces,
// as in the NVPTX back end) in three rounds, each with its accesses'
// alignments and an alias analysis that separates only state spaces, inline
// PTX and NVVM intrinsics taken to complete. A shared load at the head of a
// block under a branch, within 16 bytes of a shared load before the branch,
// is hoisted above the branch as ptxas does to merge the two (measured:
// guard_between; CUB's warp aggregates), and put back where it was when no
// merge takes it.
//
//===----------------------------------------------------------------------===//
#include "DeviceLowering.h"
#include "SharedPlacement.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

#include <map>
#include <optional>

namespace cbl {
namespace {

constexpr unsigned SharedSpace = 3;
/// The merges are made in three rounds, each on its own accesses with the
/// alignment ptxas assumes for them (measured): bytes, and 2-byte loads, by
/// the declared alignment (an `unsigned char q[]` keeps four LDS.U8; with
/// __align__(16), one LDS); 2-byte stores by the declared alignment or the
/// placement's, whichever is larger up to 4 bytes (two shorts are one STS);
/// 4- and 8-byte accesses by the placement.
enum class Round { Narrow, ShortStores, Wide };

uint64_t alignmentIn(Round R, const Alignments &A) {
  uint64_t Declared = A.Declared;
  switch (R) {
  case Round::Narrow:
    return Declared;
  case Round::ShortStores:
    return std::max(Declared, std::min<uint64_t>(4, A.Placed));
  case Round::Wide:
    return std::max(Declared, A.Placed);
  }
  return Declared;
}

bool isSharedAccess(const llvm::Instruction &I) {
  const llvm::Value *P = llvm::getLoadStorePointerOperand(&I);
  return P && P->getType()->getPointerAddressSpace() == SharedSpace;
}

bool takesPart(const llvm::Instruction &I, Round R) {
  if (!isSharedAccess(I))
    return false;
  const llvm::DataLayout &DL = I.getDataLayout();
  uint64_t Element = DL.getTypeStoreSize(llvm::getLoadStoreType(const_cast<llvm::Instruction *>(&I))->getScalarType());
  bool Load = llvm::isa<llvm::LoadInst>(I);
  switch (R) {
  case Round::Narrow:
    return Element == 1 || (Element == 2 && Load);
  case Round::ShortStores:
    return Element == 2 && !Load;
  case Round::Wide:
    return Element >= 4;
  }
  return false;
}

/// The trailing zero bits every value of an integer or pointer has, as
/// ptxas proves them for an address: through phis of phis too (LLVM's
/// known-bits analysis stops two phis deep: the shifted index of a guarded
/// step in an unrolled loop). Phis start optimistic and are lowered until
/// nothing changes; other values not listed are LLVM's known bits.
class TrailingZeros {
public:
  explicit TrailingZeros(llvm::Function &F) : DL(F.getDataLayout()) {
    llvm::SmallVector<llvm::PHINode *, 16> Phis;
    for (llvm::BasicBlock &B : F)
      for (llvm::PHINode &P : B.phis())
        Phis.push_back(&P);
    for (llvm::PHINode *P : Phis)
      Memo[P] = 64;
    for (unsigned Round = 0, Changed = 1; Changed && Round < 16; ++Round) {
      Changed = 0;
      Values.clear();
      for (llvm::PHINode *P : Phis) {
        unsigned Z = 64;
        for (llvm::Value *In : P->incoming_values())
          Z = std::min(Z, of(In));
        if (Z < Memo[P]) {
          Memo[P] = Z;
          Changed = 1;
        }
      }
      if (Changed && Round == 15)
        for (llvm::PHINode *P : Phis)
          Memo[P] = 0; // no fixed point: nothing known
    }
    Values.clear();
  }

  unsigned of(const llvm::Value *V) {
    if (auto It = Memo.find(V); It != Memo.end())
      return It->second;
    if (auto It = Values.find(V); It != Values.end())
      return It->second;
    // Bounded: a chain deeper than this is LLVM's known bits.
    if (Depth > 256)
      return llvm::computeKnownBits(V, DL).countMinTrailingZeros();
    ++Depth;
    unsigned Z = compute(V);
    --Depth;
    Values[V] = Z;
    return Z;
  }

private:
  unsigned shiftOf(const llvm::Value *V) {
    auto *C = llvm::dyn_cast<llvm::ConstantInt>(V);
    return C ? unsigned(std::min<uint64_t>(C->getZExtValue(), 64)) : 0;
  }

  unsigned compute(const llvm::Value *V) {
    if (auto *C = llvm::dyn_cast<llvm::ConstantInt>(V))
      return C->isZero() ? 64 : C->getValue().countr_zero();
    if (auto *G = llvm::dyn_cast<llvm::GlobalVariable>(V))
      return llvm::Log2(G->getAlign().valueOrOne());
    auto *I = llvm::dyn_cast<llvm::Instruction>(V);
    if (!I)
      return llvm::computeKnownBits(V, DL).countMinTrailingZeros();
    auto Op = [&](unsigned K) { return of(I->getOperand(K)); };
    switch (I->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Or:
    case llvm::Instruction::Xor:
      return std::min(Op(0), Op(1));
    case llvm::Instruction::Mul:
      return std::min(64u, Op(0) + Op(1));
    case llvm::Instruction::Shl:
      return std::min(64u, Op(0) + shiftOf(I->getOperand(1)));
    case llvm::Instruction::LShr:
    case llvm::Instruction::AShr: {
      unsigned Z = Op(0), S = shiftOf(I->getOperand(1));
      return Z == 64 ? 64 : Z > S ? Z - S : 0;
    }
    case llvm::Instruction::And:
      return std::max(Op(0), Op(1));
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt:
    case llvm::Instruction::AddrSpaceCast:
    case llvm::Instruction::Freeze:
      return Op(0);
    case llvm::Instruction::Trunc:
      return std::min(Op(0), I->getType()->getScalarSizeInBits());
    case llvm::Instruction::Select:
      return std::min(Op(1), Op(2));
    case llvm::Instruction::GetElementPtr: {
      auto *GEP = llvm::cast<llvm::GetElementPtrInst>(I);
      unsigned Z = Op(0);
      for (auto T = llvm::gep_type_begin(GEP); T != llvm::gep_type_end(GEP); ++T) {
        if (T.isStruct()) {
          auto *Field = llvm::cast<llvm::ConstantInt>(T.getOperand());
          uint64_t At = DL.getStructLayout(T.getStructType())->getElementOffset(Field->getZExtValue());
          Z = std::min(Z, At ? unsigned(llvm::countr_zero(At)) : 64u);
        } else if (uint64_t Stride = T.getSequentialElementStride(DL).getFixedValue()) {
          Z = std::min(Z, std::min(64u, of(T.getOperand()) + unsigned(llvm::countr_zero(Stride))));
        }
      }
      return Z;
    }
    default:
      return llvm::computeKnownBits(V, DL).countMinTrailingZeros();
    }
  }

  const llvm::DataLayout &DL;
  llvm::DenseMap<const llvm::Value *, unsigned> Memo;   ///< phis
  llvm::DenseMap<const llvm::Value *, unsigned> Values; ///< the rest, per round
  unsigned Depth = 0;
};

/// Raises the alignment of this round's accesses to what their addresses
/// prove (TrailingZeros), at most MaxMergedBytes.
void alignAccesses(llvm::Function &F, Round R) {
  TrailingZeros Z(F);
  for (llvm::Instruction &I : llvm::instructions(F)) {
    if (!takesPart(I, R))
      continue;
    unsigned Bits = std::min(Z.of(llvm::getLoadStorePointerOperand(&I)), 4u);
    llvm::Align Known(uint64_t(1) << Bits);
    if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I); L && L->getAlign() < Known)
      L->setAlignment(Known);
    else if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I); S && S->getAlign() < Known)
      S->setAlignment(Known);
  }
}

/// The accesses outside this round are hidden from the vectoriser and
/// returned, to be restored: made unordered atomics, which it leaves alone
/// and which (unlike volatile accesses) stand between others only where
/// they may alias them.
std::vector<llvm::Instruction *> hideOthers(llvm::Function &F, Round R) {
  std::vector<llvm::Instruction *> Hidden;
  for (llvm::Instruction &I : llvm::instructions(F)) {
    if (takesPart(I, R))
      continue;
    if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I); L && L->isSimple()) {
      L->setAtomic(llvm::AtomicOrdering::Unordered);
      Hidden.push_back(L);
    } else if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I); S && S->isSimple()) {
      S->setAtomic(llvm::AtomicOrdering::Unordered);
      Hidden.push_back(S);
    }
  }
  return Hidden;
}

void restore(const std::vector<llvm::Instruction *> &Hidden) {
  for (llvm::Instruction *I : Hidden) {
    if (auto *L = llvm::dyn_cast<llvm::LoadInst>(I))
      L->setAtomic(llvm::AtomicOrdering::NotAtomic);
    else
      llvm::cast<llvm::StoreInst>(I)->setAtomic(llvm::AtomicOrdering::NotAtomic);
  }
}

/// A shared access of this round before the vectoriser ran.
struct Site {
  llvm::WeakVH Access;
  const llvm::SCEV *Pointer; ///< owned by the function's ScalarEvolution
  bool Load;
  llvm::BasicBlock *Block;
  unsigned Index;
  llvm::DebugLoc Loc;
};

std::vector<Site> sitesOf(llvm::Function &F, Round R, llvm::ScalarEvolution &SE) {
  std::vector<Site> Sites;
  for (llvm::BasicBlock &B : F) {
    unsigned Index = 0;
    for (llvm::Instruction &I : B) {
      ++Index;
      if (takesPart(I, R))
        Sites.push_back({llvm::WeakVH(&I), SE.getSCEV(llvm::getLoadStorePointerOperand(&I)),
                         llvm::isa<llvm::LoadInst>(I), &B, Index, I.getDebugLoc()});
    }
  }
  return Sites;
}

/// The accesses the vectoriser merged into V (gone since), in program
/// order, with their byte offsets in V: those of V's block whose address
/// lies inside V's. SE is the one the sites were taken with (the
/// vectoriser's own: its pointers' SCEVs outlive the pointers it deletes).
std::vector<std::pair<const Site *, int64_t>> mergedInto(llvm::Instruction &V, const std::vector<Site> &Before,
                                                         llvm::ScalarEvolution &SE) {
  int64_t Size = int64_t(V.getDataLayout().getTypeStoreSize(llvm::getLoadStoreType(&V)));
  const llvm::SCEV *At = SE.getSCEV(llvm::getLoadStorePointerOperand(&V));
  std::vector<std::pair<const Site *, int64_t>> Parts;
  for (const Site &S : Before) {
    if (S.Access || S.Block != V.getParent() || S.Load != llvm::isa<llvm::LoadInst>(V))
      continue;
    auto *D = llvm::dyn_cast<llvm::SCEVConstant>(SE.getMinusSCEV(S.Pointer, At));
    if (D && D->getAPInt().getSExtValue() >= 0 && D->getAPInt().getSExtValue() < Size)
      Parts.push_back({&S, D->getAPInt().getSExtValue()});
  }
  std::sort(Parts.begin(), Parts.end(), [](const auto &A, const auto &B) { return A.first->Index < B.first->Index; });
  return Parts;
}

/// The accesses merged into V, in program order, with their places and
/// byte offsets in V. (V keeps the place the vectoriser gives it, which is
/// where ptxas's line table puts the merged instruction, measured: a load
/// at the first load's line, a store at the last store's.)
void recordMerge(llvm::Instruction &V, const std::vector<std::pair<const Site *, int64_t>> &Parts,
                 MergedAccesses &Merged) {
  if (Parts.size() < 2)
    return;
  std::vector<MergedPart> &List = Merged[&V];
  for (const auto &[S, Offset] : Parts)
    if (S->Loc)
      List.push_back({S->Loc.get(), uint64_t(Offset)});
}

void recordMerges(llvm::Function &F, const std::vector<Site> &Before, llvm::ScalarEvolution &SE,
                  MergedAccesses &Merged) {
  llvm::SmallPtrSet<llvm::Value *, 16> Kept;
  for (const Site &S : Before)
    if (S.Access)
      Kept.insert(S.Access);
  for (llvm::Instruction &I : llvm::instructions(F))
    if (isSharedAccess(I) && !Kept.contains(&I) && llvm::getLoadStoreType(&I)->isVectorTy() &&
        !Merged.count(&I))
      recordMerge(I, mergedInto(I, Before, SE), Merged);
}

/// ptxas knows which state space each access is in: a store to global
/// memory does not stand between two shared loads, a store to another
/// shared array does. Shared accesses are put in one alias scope, accesses
/// known to be elsewhere (a kernel's pointer parameters, local variables,
/// global variables of other spaces) declared not to alias it.
class SharedScope {
public:
  SharedScope(llvm::Module &M, const std::set<const llvm::Function *> &Kernels)
      : Ctx(M.getContext()), Kernels(Kernels) {
    llvm::MDBuilder B(Ctx);
    llvm::MDNode *Domain = B.createAnonymousAliasScopeDomain("cbl.spaces");
    Scope = B.createAnonymousAliasScope(Domain, "shared");
    List = llvm::MDNode::get(Ctx, {Scope});
  }

  void mark(llvm::Function &F) {
    for (llvm::Instruction &I : llvm::instructions(F)) {
      const llvm::Value *P = llvm::getLoadStorePointerOperand(&I);
      if (!P)
        continue;
      unsigned Kind = isSharedAccess(I) ? llvm::LLVMContext::MD_alias_scope
                      : elsewhere(P, F) ? llvm::LLVMContext::MD_noalias
                                        : 0;
      if (Kind)
        I.setMetadata(Kind, llvm::MDNode::concatenate(I.getMetadata(Kind), List));
    }
  }

  /// Takes the scope out again, from merged instructions too.
  void unmark(llvm::Function &F) {
    for (llvm::Instruction &I : llvm::instructions(F))
      for (unsigned Kind : {llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias})
        if (llvm::MDNode *N = I.getMetadata(Kind)) {
          llvm::SmallVector<llvm::Metadata *, 4> Rest;
          for (const llvm::MDOperand &Op : N->operands())
            if (Op.get() != Scope)
              Rest.push_back(Op.get());
          I.setMetadata(Kind, Rest.empty() ? nullptr : llvm::MDNode::get(Ctx, Rest));
        }
  }

private:
  bool elsewhere(const llvm::Value *P, const llvm::Function &F) const {
    unsigned Space = P->getType()->getPointerAddressSpace();
    if (Space != 0)
      return Space != SharedSpace;
    const llvm::Value *Base = llvm::getUnderlyingObject(P);
    if (llvm::isa<llvm::AllocaInst>(Base))
      return true;
    if (auto *G = llvm::dyn_cast<llvm::GlobalVariable>(Base))
      return G->getAddressSpace() != SharedSpace;
    return llvm::isa<llvm::Argument>(Base) && Kernels.count(&F);
  }

  llvm::LLVMContext &Ctx;
  llvm::MDNode *Scope;
  llvm::MDNode *List;
  const std::set<const llvm::Function *> &Kernels;
};

/// ptxas moves loads across instructions that always complete and touch
/// no memory of the program's; LLVM's vectoriser only across calls known
/// to return and to leave that memory alone. Inline PTX (a conversion,
/// `cvt.rn.bf16.f32`) and NVVM intrinsics (a shuffle, whose only effect is
/// on memory the program cannot reach) are such calls, but Clang does not
/// say so: while the vectoriser runs they are marked `willreturn`, the
/// intrinsics also as touching no memory (unless they may trap or exit);
/// so are the prelude's shuffles and votes, which have no body.
class CompletingCalls {
  /// The warp shuffles and votes without a body (the prelude declares them
  /// where the toolkit's headers are not used).
  static bool isWarpIntrinsic(llvm::StringRef Mangled) {
    for (llvm::StringRef Name : {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                 "__ballot_sync", "__any_sync", "__all_sync", "__activemask"})
      if (Mangled == Name || Mangled.contains((llvm::Twine(Name.size()) + Name).str()))
        return true;
    return false;
  }

public:
  void mark(llvm::Function &F) {
    for (llvm::Instruction &I : llvm::instructions(F)) {
      auto *C = llvm::dyn_cast<llvm::CallBase>(&I);
      if (!C || C->hasFnAttr(llvm::Attribute::WillReturn) || !C->doesNotThrow())
        continue;
      const llvm::Function *Callee = C->getCalledFunction();
      const auto *Asm = llvm::dyn_cast<llvm::InlineAsm>(C->getCalledOperand());
      bool Nvvm = Callee && Callee->getName().starts_with("llvm.nvvm.") && !Callee->getName().contains("trap");
      bool Warp = Callee && Callee->isDeclaration() && isWarpIntrinsic(Callee->getName());
      llvm::StringRef Text = Asm ? llvm::StringRef(Asm->getAsmString()) : "";
      bool Completes = Asm ? !Text.contains("exit") && !Text.contains("trap") && !Text.contains("brkpt") : Nvvm || Warp;
      if (!Completes)
        continue;
      Marked.push_back({C, C->getAttributes().getFnAttr(llvm::Attribute::Memory)});
      C->addFnAttr(llvm::Attribute::WillReturn);
      if (Warp || (Nvvm && C->getMemoryEffects().onlyAccessesInaccessibleMem()))
        C->setMemoryEffects(llvm::MemoryEffects::none());
    }
  }

  void unmark() {
    for (auto &[C, Memory] : Marked) {
      C->removeFnAttr(llvm::Attribute::WillReturn);
      C->removeFnAttr(llvm::Attribute::Memory);
      if (Memory.isValid())
        C->addFnAttr(Memory);
    }
  }

private:
  std::vector<std::pair<llvm::CallBase *, llvm::Attribute>> Marked;
};

/// `(x ^ 1) * 8 + k` reaches the IR as `xor %x8, 8 + k`, whose differences
/// for k = 0..7 ScalarEvolution cannot see (ptxas can: the low bits of %x8
/// are zero, so the xor adds k). Each xor with a constant that sets bits
/// below its other operand's known trailing zeros becomes the xor of the
/// constant's other bits (one per operand and such bits, where the operand
/// is defined), to which those low bits are added (`or disjoint`), so
/// adjacent swizzled accesses have constant differences.
void splitLowXorBits(llvm::Function &F) {
  const llvm::DataLayout &DL = F.getDataLayout();
  std::vector<llvm::BinaryOperator *> Xors;
  for (llvm::Instruction &I : llvm::instructions(F))
    if (auto *B = llvm::dyn_cast<llvm::BinaryOperator>(&I); B && B->getOpcode() == llvm::Instruction::Xor)
      if (llvm::isa<llvm::ConstantInt>(B->getOperand(1)) && B->getType()->isIntegerTy())
        Xors.push_back(B);
  std::map<std::pair<llvm::Value *, uint64_t>, llvm::Value *> Shared;
  for (llvm::BinaryOperator *B : Xors) {
    if (B->getType()->getIntegerBitWidth() > 64)
      continue;
    const llvm::APInt &C = llvm::cast<llvm::ConstantInt>(B->getOperand(1))->getValue();
    unsigned Zeros = llvm::computeKnownBits(B->getOperand(0), DL).countMinTrailingZeros();
    if (Zeros == 0 || Zeros >= C.getBitWidth())
      continue;
    llvm::APInt Low = C & llvm::APInt::getLowBitsSet(C.getBitWidth(), Zeros), High = C & ~Low;
    if (High.isZero())
      continue; // an `or` already
    // One xor per operand and constant, where the operand is defined, so
    // that the swizzled accesses share it.
    llvm::Value *&X = Shared[{B->getOperand(0), High.getZExtValue()}];
    if (!X) {
      auto *Def = llvm::dyn_cast<llvm::Instruction>(B->getOperand(0));
      llvm::IRBuilder<> At(Def && !llvm::isa<llvm::PHINode>(Def) ? Def->getNextNode()
                           : Def ? &*Def->getParent()->getFirstInsertionPt()
                                 : &*F.getEntryBlock().getFirstInsertionPt());
      X = At.CreateXor(B->getOperand(0), llvm::ConstantInt::get(B->getType(), High));
    }
    llvm::Value *Sum = X;
    if (!Low.isZero()) {
      llvm::IRBuilder<> Build(B);
      auto *Or = llvm::cast<llvm::Instruction>(Build.CreateOr(X, llvm::ConstantInt::get(B->getType(), Low)));
      llvm::cast<llvm::PossiblyDisjointInst>(Or)->setIsDisjoint(true);
      Or->setDebugLoc(B->getDebugLoc());
      Sum = Or;
    }
    Sum->takeName(B);
    B->replaceAllUsesWith(Sum);
    B->eraseFromParent();
  }
}

/// A load hoisted above the branch that guarded it; Home: its block.
struct Hoisted {
  llvm::WeakVH Load;
  llvm::BasicBlock *Home;
};

/// The computation of V inside block B, operands first, when it is pure
/// (no memory, no side effects), at most 8 instructions and everything else
/// it uses is available at the branch Br; false otherwise.
bool addressIn(llvm::Value *V, llvm::BasicBlock &B, const llvm::Instruction *Br, const llvm::DominatorTree &DT,
               std::vector<llvm::Instruction *> &Out) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I || I->getParent() != &B)
    return !I || DT.dominates(I, Br);
  if (llvm::is_contained(Out, I))
    return true;
  if (I->mayReadOrWriteMemory() || I->mayHaveSideEffects() || llvm::isa<llvm::PHINode>(I) || Out.size() >= 8)
    return false;
  for (llvm::Value *Op : I->operands())
    if (!addressIn(Op, B, Br, DT, Out))
      return false;
  Out.push_back(I);
  return true;
}

/// Hoists the shared loads at the head of each block entered from a
/// conditional branch (nothing that writes memory or calls before them)
/// whose address lies within 16 bytes of a shared load of the branching
/// block, with the pure computation of their address.
std::vector<Hoisted> hoistGuardedLoads(llvm::Function &F, llvm::ScalarEvolution &SE,
                                       const llvm::DominatorTree &DT) {
  std::vector<Hoisted> Out;
  for (llvm::BasicBlock &B : F) {
    llvm::BasicBlock *P = B.getSinglePredecessor();
    auto *Br = P ? llvm::dyn_cast<llvm::BranchInst>(P->getTerminator()) : nullptr;
    if (!Br || !Br->isConditional() || P == &B)
      continue;
    std::vector<const llvm::SCEV *> Before;
    for (llvm::Instruction &I : *P)
      if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I); L && L->isSimple() && isSharedAccess(*L))
        Before.push_back(SE.getSCEV(L->getPointerOperand()));
    for (llvm::Instruction &I : llvm::make_early_inc_range(B)) {
      if (I.mayWriteToMemory() || I.mayHaveSideEffects() || llvm::isa<llvm::CallBase>(I))
        break;
      auto *L = llvm::dyn_cast<llvm::LoadInst>(&I);
      if (!L || !L->isSimple() || !isSharedAccess(*L))
        continue;
      std::vector<llvm::Instruction *> Address;
      if (!addressIn(L->getPointerOperand(), B, Br, DT, Address))
        continue;
      const llvm::SCEV *At = SE.getSCEV(L->getPointerOperand());
      if (llvm::none_of(Before, [&](const llvm::SCEV *S) {
            const auto *D = llvm::dyn_cast<llvm::SCEVConstant>(SE.getMinusSCEV(At, S));
            return D && D->getAPInt().abs().ult(MaxMergedBytes);
          }))
        continue;
      for (llvm::Instruction *A : Address)
        A->moveBefore(Br);
      L->moveBefore(Br);
      Out.push_back({llvm::WeakVH(L), &B});
    }
  }
  return Out;
}

/// Puts back the hoisted loads no merge took (their pure address
/// computations may stay where they are).
void putBack(const std::vector<Hoisted> &Loads) {
  for (const Hoisted &H : Loads)
    if (auto *L = llvm::cast_or_null<llvm::LoadInst>(H.Load)) // else merged: erased
      L->moveBefore(&*H.Home->getFirstInsertionPt());
}

} // namespace

MergedAccesses mergeAsNvcc(llvm::Module &M, llvm::TargetMachine &TM,
                           const std::set<const llvm::Function *> &Kernels) {
  MergedAccesses Merged;
  SharedPlacement Placement = placeShared(M);
  AnalysisManagers AM;
  llvm::FunctionAnalysisManager &FAM = AM.FAM;
  llvm::PassBuilder PB(&TM);
  // Alias analysis by scopes only (SharedScope): shared accesses may alias
  // one another, as ptxas sees them, never memory known to be elsewhere.
  FAM.registerPass([] {
    llvm::AAManager AA;
    AA.registerFunctionAnalysis<llvm::ScopedNoAliasAA>();
    return AA;
  });
  AM.registerWith(PB);
  // The address spaces first: shared accesses are found by them.
  llvm::FunctionPassManager Prepare;
  Prepare.addPass(llvm::InferAddressSpacesPass());
  SharedScope Scope(M, Kernels);
  CompletingCalls Completing;
  std::vector<Hoisted> Hoists;
  for (llvm::Function &F : M)
    if (!F.isDeclaration()) {
      Prepare.run(F, FAM);
      splitLowXorBits(F);
      Scope.mark(F);
      Completing.mark(F);
      std::vector<Hoisted> H = hoistGuardedLoads(F, FAM.getResult<llvm::ScalarEvolutionAnalysis>(F),
                                                 FAM.getResult<llvm::DominatorTreeAnalysis>(F));
      if (!H.empty())
        FAM.invalidate(F, llvm::PreservedAnalyses::none());
      Hoists.insert(Hoists.end(), H.begin(), H.end());
    }
  for (Round R : {Round::Narrow, Round::ShortStores, Round::Wide}) {
    for (auto &[G, A] : Placement.Alignment)
      G->setAlignment(llvm::Align(alignmentIn(R, A)));
    for (llvm::Function &F : M) {
      if (F.isDeclaration())
        continue;
      // A kernel's 4- and 8-byte accesses to neighbouring variables merge
      // too (the narrow rounds go by the declared alignment).
      std::optional<SideBySide> OneBlock;
      if (R == Round::Wide && Kernels.count(&F)) {
        OneBlock.emplace(F, Placement.Layouts[&F]);
        FAM.invalidate(F, llvm::PreservedAnalyses::none()); // pointers changed
      }
      alignAccesses(F, R);
      std::vector<llvm::Instruction *> Hidden = hideOthers(F, R);
      llvm::ScalarEvolution &SE = FAM.getResult<llvm::ScalarEvolutionAnalysis>(F);
      std::vector<Site> Sites = sitesOf(F, R, SE);
      llvm::PreservedAnalyses PA = llvm::LoadStoreVectorizerPass().run(F, FAM);
      recordMerges(F, Sites, SE, Merged);
      if (OneBlock) {
        // A load merged across variables is at its second part's line in
        // ptxas's line table (measured: merges.cu, scalar_pair_store and
        // after), where an array's keeps its first part's.
        for (llvm::Instruction &I : llvm::instructions(F))
          if (auto It = Merged.find(&I); It != Merged.end() && llvm::isa<llvm::LoadInst>(I) &&
                                         It->second.size() > 1 && OneBlock->spansVariables(I))
            I.setDebugLoc(llvm::DebugLoc(It->second[1].At));
        OneBlock->undo();
        PA = llvm::PreservedAnalyses::none();
      }
      FAM.invalidate(F, PA);
      restore(Hidden);
    }
  }
  putBack(Hoists);
  for (auto &[G, A] : Placement.Alignment)
    G->setAlignment(A.Original);
  for (llvm::Function &F : M)
    Scope.unmark(F);
  Completing.unmark();
  return Merged;
}

} // namespace cbl
