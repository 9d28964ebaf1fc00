//===- SharedPlacement.cpp - where ptxas places shared variables ----------===//
//
// The placement, measured on nvcc 13.0's SASS (SharedPlacement.h), and the
// view of a kernel's static shared variables as the one block ptxas makes of
// them, which lets the vectoriser merge accesses to neighbouring variables.
//
//===----------------------------------------------------------------------===//
#include "SharedPlacement.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace cbl {
namespace {

constexpr unsigned SharedSpace = 3;

bool isDynamic(const llvm::GlobalVariable &G) {
  auto *AT = llvm::dyn_cast<llvm::ArrayType>(G.getValueType());
  return AT && AT->getNumElements() == 0;
}

/// The shared variables each function uses directly (through constant
/// expressions too), in the module's order.
std::map<llvm::Function *, llvm::SmallVector<llvm::GlobalVariable *, 4>>
sharedUsers(llvm::Module &M) {
  std::map<llvm::Function *, llvm::SmallVector<llvm::GlobalVariable *, 4>> Uses;
  for (llvm::GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != SharedSpace)
      continue;
    llvm::SmallVector<llvm::User *, 8> Work(G.users().begin(), G.users().end());
    llvm::SmallPtrSet<llvm::User *, 16> Seen;
    while (!Work.empty()) {
      llvm::User *U = Work.pop_back_val();
      if (!Seen.insert(U).second)
        continue;
      if (auto *I = llvm::dyn_cast<llvm::Instruction>(U)) {
        auto &List = Uses[I->getFunction()];
        if (List.empty() || List.back() != &G)
          List.push_back(&G);
      } else if (llvm::isa<llvm::ConstantExpr>(U)) {
        Work.append(U->user_begin(), U->user_end());
      }
    }
  }
  return Uses;
}

/// The largest power of two, up to MaxMergedBytes, dividing Offset.
uint64_t alignmentAt(uint64_t Offset) {
  return llvm::commonAlignment(llvm::Align(MaxMergedBytes), Offset).value();
}

/// The offset of P (a shared pointer constant) from the global it is based
/// on, and that global; null when it is not a constant offset from one.
llvm::GlobalVariable *baseOf(const llvm::DataLayout &DL, llvm::Constant *P, int64_t &Offset) {
  if (!P->getType()->isPointerTy() || P->getType()->getPointerAddressSpace() != SharedSpace)
    return nullptr;
  llvm::APInt At(DL.getIndexTypeSizeInBits(P->getType()), 0);
  auto *G = llvm::dyn_cast<llvm::GlobalVariable>(P->stripAndAccumulateConstantOffsets(DL, At, true));
  if (!G || At.getSignificantBits() > 63)
    return nullptr;
  Offset = At.getSExtValue();
  return G;
}

} // namespace

SharedPlacement placeShared(llvm::Module &M) {
  const llvm::DataLayout &DL = M.getDataLayout();
  SharedPlacement P;
  auto Place = [&](llvm::GlobalVariable *G, uint64_t At) {
    uint64_t Declared = G->getAlign().valueOrOne().value();
    if (isDynamic(*G))
      Declared = std::max<uint64_t>(Declared, MaxMergedBytes);
    auto [It, New] = P.Alignment.try_emplace(G, Alignments{G->getAlign(), Declared, At});
    It->second.Placed = std::min(It->second.Placed, At);
  };
  for (auto &[F, Used] : sharedUsers(M)) {
    // Namespace-scope variables are declared first in nvcc's PTX.
    SharedLayout &Layout = P.Layouts[F];
    for (bool Local : {false, true})
      for (llvm::GlobalVariable *G : Used)
        if (!isDynamic(*G) && G->hasLocalLinkage() == Local)
          Layout.push_back({G, 0});
    uint64_t Offset = 0;
    for (auto &[G, At] : Layout) {
      Offset = llvm::alignTo(Offset, G->getAlign().valueOrOne());
      At = Offset;
      Place(G, alignmentAt(Offset));
      Offset += DL.getTypeAllocSize(G->getValueType());
    }
    for (llvm::GlobalVariable *G : Used)
      if (isDynamic(*G))
        Place(G, MaxMergedBytes);
  }
  return P;
}

SideBySide::SideBySide(llvm::Function &F, const SharedLayout &L) : F(F), Layout(L) {
  if (Layout.size() < 2)
    return;
  llvm::Module &M = *F.getParent();
  const llvm::DataLayout &DL = M.getDataLayout();
  uint64_t Size = Layout.back().second + DL.getTypeAllocSize(Layout.back().first->getValueType());
  llvm::Type *Bytes = llvm::ArrayType::get(llvm::Type::getInt8Ty(M.getContext()), Size);
  Block = new llvm::GlobalVariable(M, Bytes, false, llvm::GlobalValue::InternalLinkage,
                                   llvm::UndefValue::get(Bytes), "cbl.side_by_side", nullptr,
                                   llvm::GlobalValue::NotThreadLocal, SharedSpace);
  Block->setAlignment(llvm::Align(MaxMergedBytes));
  std::map<const llvm::GlobalVariable *, uint64_t> Start(Layout.begin(), Layout.end());
  llvm::Type *Index = DL.getIndexType(Block->getType());
  for (llvm::Instruction &I : llvm::instructions(F))
    if (const llvm::Value *P = llvm::getLoadStorePointerOperand(&I)) {
      unsigned K = llvm::isa<llvm::LoadInst>(I) ? llvm::LoadInst::getPointerOperandIndex()
                                                 : llvm::StoreInst::getPointerOperandIndex();
      auto *C = llvm::dyn_cast<llvm::Constant>(const_cast<llvm::Value *>(P));
      int64_t Offset = 0;
      llvm::GlobalVariable *G = C ? baseOf(DL, C, Offset) : nullptr;
      auto It = G ? Start.find(G) : Start.end();
      if (It == Start.end() || int64_t(It->second) + Offset < 0)
        continue;
      llvm::Constant *Now = llvm::ConstantExpr::getGetElementPtr(
          llvm::Type::getInt8Ty(M.getContext()), Block, llvm::ConstantInt::get(Index, It->second + Offset));
      I.setOperand(K, Now);
      Uses.push_back({llvm::WeakVH(&I), K, C, Now});
    }
}

SharedLayout::const_iterator SideBySide::firstAfter(uint64_t At) const {
  return std::upper_bound(Layout.begin(), Layout.end(), At,
                          [](uint64_t A, const auto &E) { return A < E.second; });
}

bool SideBySide::spansVariables(const llvm::Instruction &I) const {
  auto *P = llvm::dyn_cast_or_null<llvm::Constant>(const_cast<llvm::Value *>(llvm::getLoadStorePointerOperand(&I)));
  int64_t Offset = 0;
  if (!Block || !P || (P != Block && baseOf(F.getDataLayout(), P, Offset) != Block) || Offset < 0)
    return false;
  auto It = firstAfter(uint64_t(Offset));
  uint64_t Size = F.getDataLayout().getTypeStoreSize(llvm::getLoadStoreType(const_cast<llvm::Instruction *>(&I)));
  return It != Layout.end() && It->second < uint64_t(Offset) + Size;
}

llvm::Constant *SideBySide::variableAt(uint64_t At) const {
  auto It = std::prev(firstAfter(At));
  if (At == It->second)
    return It->first;
  const llvm::DataLayout &DL = F.getDataLayout();
  return llvm::ConstantExpr::getGetElementPtr(llvm::Type::getInt8Ty(F.getContext()), It->first,
                                              llvm::ConstantInt::get(DL.getIndexType(It->first->getType()),
                                                                     At - It->second));
}

void SideBySide::undo() {
  if (!Block)
    return;
  std::map<llvm::Constant *, llvm::Constant *> Was;
  for (const Rewritten &R : Uses) {
    Was.try_emplace(R.Now, R.Was);
    if (auto *I = llvm::cast_or_null<llvm::Instruction>(R.User); I && I->getOperand(R.Operand) == R.Now)
      I->setOperand(R.Operand, R.Was);
  }
  Uses.clear();
  // What the vectoriser made (a merged access's pointer is its first part's).
  Block->removeDeadConstantUsers();
  llvm::SmallVector<llvm::Constant *, 8> Left;
  for (llvm::User *U : Block->users())
    if (auto *C = llvm::dyn_cast<llvm::Constant>(U))
      Left.push_back(C);
  for (llvm::Constant *C : Left) {
    int64_t Offset = 0;
    if (auto It = Was.find(C); It != Was.end())
      C->replaceAllUsesWith(It->second);
    else if (baseOf(F.getDataLayout(), C, Offset) == Block && Offset >= 0)
      C->replaceAllUsesWith(variableAt(uint64_t(Offset)));
  }
  Block->removeDeadConstantUsers();
  // Offset 0 folds to the block itself.
  if (!Block->use_empty()) {
    auto It = Was.find(Block);
    Block->replaceAllUsesWith(It != Was.end() ? It->second : variableAt(0));
  }
  if (Block->use_empty())
    Block->eraseFromParent();
  Block = nullptr;
}

} // namespace cbl
