//===- IRArrays.cpp - The shared arrays of a module ------------------------===//
//
// The AST's table of shared arrays, plus those the IR alone shows (a
// __shared__ variable of a system header), registered from the global's type.
//
//===----------------------------------------------------------------------===//
#include "IRTranslator.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace cbl {

namespace {

/// "tile" for _ZZ9transposePfE4tile; the name itself when not mangled.
std::string variableName(StringRef Mangled) {
  std::string D = llvm::demangle(Mangled.str());
  size_t Colon = D.rfind("::");
  return Colon == std::string::npos ? D : D.substr(Colon + 2);
}

std::string scalarSpelling(Type *T) {
  if (T->isFloatTy())
    return "float";
  if (T->isDoubleTy())
    return "double";
  if (T->isHalfTy())
    return "__half";
  if (T->isBFloatTy())
    return "__nv_bfloat16";
  if (T->isIntegerTy())
    return "i" + std::to_string(T->getIntegerBitWidth());
  if (T->isStructTy() && cast<StructType>(T)->hasName())
    return cast<StructType>(T)->getName().str();
  return "byte";
}

} // namespace

std::optional<unsigned> IRArrays::idOf(const GlobalVariable *G) {
  auto It = Ids.find(G);
  if (It != Ids.end())
    return It->second;
  if (G->getAddressSpace() != 3)
    return std::nullopt;
  if (auto Known = Unlisted.find(G->getName()); Known != Unlisted.end()) {
    Ids[G] = Known->second; // registered by another part of the unit
    Types[Known->second] = G->getValueType();
    return Known->second;
  }
  // A shared variable the AST table does not list (a system header's).
  SharedArray A;
  A.Id = unsigned(Arrays.size());
  A.Name = variableName(G->getName());
  const DataLayout &DL = G->getParent()->getDataLayout();
  Type *T = G->getValueType();
  while (auto *AT = dyn_cast<ArrayType>(T)) {
    A.Dims.push_back(AT->getNumElements());
    T = AT->getElementType();
  }
  A.ElementType = scalarSpelling(T);
  A.ElementSize = DL.getTypeAllocSize(T);
  A.Alignment = G->getAlign() ? G->getAlign()->value() : 1;
  A.IsExtern = G->isDeclaration() || (!A.Dims.empty() && A.Dims[0] == 0);
  if (A.IsExtern && A.Dims.empty())
    A.Dims = {0};
  Arrays.push_back(A);
  Unlisted[G->getName()] = A.Id;
  Ids[G] = A.Id;
  Types[A.Id] = G->getValueType();
  return A.Id;
}

Type *IRArrays::typeOf(unsigned Id) const {
  auto It = Types.find(Id);
  return It == Types.end() ? nullptr : It->second;
}

} // namespace cbl
