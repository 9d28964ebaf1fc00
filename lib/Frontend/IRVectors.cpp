//===- IRVectors.cpp - The elements of vector values -----------------------===//
//
// A uint4 key and its key.x: the element a chain of insertelement put there,
// else, for a vector loaded or built from loaded values (also carried by a
// loop's phi), a data value of its own.
//
//===----------------------------------------------------------------------===//
#include "IRTranslator.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cbl {

/// Whether a scalar is computed from a value loaded from memory (within a
/// few operations): key.w = key.z ^ key.x of loaded keys.
static bool fromLoads(const Value *V, unsigned Depth = 0) {
  if (isa<LoadInst>(V) || isa<ExtractElementInst>(V))
    return true; // an element of a vector: vectorOfLoads decides for its own
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<PHINode>(I) || isa<CallBase>(I) || Depth > 8)
    return false;
  return llvm::any_of(I->operands(), [&](const Value *Op) { return fromLoads(Op, Depth + 1); });
}

/// Whether the elements of vector V are data: a vector load, or elements
/// inserted from values computed from loads, through phis (loop-carried).
static bool vectorOfLoads(const Value *V, SmallPtrSetImpl<const Value *> &Seen, unsigned Depth = 0) {
  if (Depth > 16 || !Seen.insert(V).second)
    return Depth > 0; // a phi met again: its other values decide
  if (isa<LoadInst>(V) || isa<PoisonValue>(V) || isa<UndefValue>(V))
    return true;
  if (const auto *Ins = dyn_cast<InsertElementInst>(V))
    return fromLoads(Ins->getOperand(1)) && vectorOfLoads(Ins->getOperand(0), Seen, Depth + 1);
  if (const auto *P = dyn_cast<PHINode>(V))
    return llvm::all_of(P->incoming_values(),
                        [&](const Value *In) { return vectorOfLoads(In, Seen, Depth + 1); });
  return false;
}

SymRef IRTranslator::extractOf(const ExtractElementInst &E) {
  const auto *Idx = dyn_cast<ConstantInt>(E.getIndexOperand());
  if (!Idx || !E.getType()->isIntegerTy())
    return unknownOf(&E, "element of a vector at an index not known");
  const Value *Vec = E.getVectorOperand();
  for (unsigned Steps = 0; Steps < 64; ++Steps) {
    const auto *Ins = dyn_cast<InsertElementInst>(Vec);
    const auto *At = Ins ? dyn_cast<ConstantInt>(Ins->getOperand(2)) : nullptr;
    if (!At)
      break;
    if (At->getZExtValue() == Idx->getZExtValue())
      return intOf(Ins->getOperand(1));
    Vec = Ins->getOperand(0);
  }
  SmallPtrSet<const Value *, 8> Seen;
  if (!vectorOfLoads(Vec, Seen))
    return resultOf(E, "element of a vector not modelled");
  // An element of adjacent loads the compiler merged (NvccMerges.cpp) is
  // named as the load it replaces.
  uint64_t K = Idx->getZExtValue();
  if (const auto *L = dyn_cast<LoadInst>(Vec))
    for (const MergedPart &Part : Locs.mergedParts(*L))
      if (Part.Offset == K * L->getDataLayout().getTypeStoreSize(E.getType()))
        return unknownOf(&E,
                         A.UI.isDivergent(&E) ? "value loaded from memory"
                                              : "value loaded from memory at an address that is the same "
                                                "for every thread",
                         "", Part.At);
  // Each element its own value: key.x, key.y of a uint4 key.
  return unknownOf(&E,
                   A.UI.isDivergent(&E) ? "value loaded from memory (an element of a vector)"
                                        : "value loaded from memory at an address that is the same "
                                          "for every thread (an element of a vector)",
                   K < 4 ? std::string(".") + "xyzw"[K] : "[" + std::to_string(K) + "]");
}

} // namespace cbl
