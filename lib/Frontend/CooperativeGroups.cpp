//===- CooperativeGroups.cpp - thread_block and tile queries as values ----===//
//
// cooperative_groups' thread_rank(), size(), meta_group_rank() and
// meta_group_size() of a thread_block or a thread_block_tile<N> in terms of
// threadIdx and blockDim (the CUDA headers compute them through dim3 copies
// and data members the walker does not follow).
//
//===----------------------------------------------------------------------===//
#include "WalkerSupport.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace cbl {

/// The static size of a thread_block_tile<N, ...> type; 0 when not static.
static int64_t tileSize(const CXXRecordDecl *R) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(R);
  if (!Spec || Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return 0;
  return Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
}

/// The threads of a tile of N's parent: 0 for the block, the size of a tile
/// of static size, -1 when unknown. A thread_block_tile<N> whose parent type
/// is erased is taken as a tile of the block when warp-sized or larger; a
/// smaller one may be a tile of a warp.
static int64_t parentSize(const CXXRecordDecl *RD, int64_t N) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() < 2 ||
      Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Type)
    return N >= 32 ? 0 : -1;
  const CXXRecordDecl *P = Spec->getTemplateArgs()[1].getAsType()->getAsCXXRecordDecl();
  if (P && P->getName() == "thread_block")
    return 0;
  if (P && P->getName() == "thread_block_tile")
    return tileSize(P) > 0 ? tileSize(P) : -1;
  return N >= 32 ? 0 : -1; // erased (void) or another group type
}

SymRef cooperativeGroupQuery(const std::string &Name, const CXXRecordDecl *RD, IntType T,
                             llvm::function_ref<std::string()> Spelling) {
  if (!RD || !RD->getIdentifier())
    return nullptr;
  const llvm::StringRef Cls = RD->getName();
  const bool Size = Name == "size" || Name == "num_threads";
  if (Cls == "thread_block") {
    if (Name == "thread_rank")
      return linearThreadIndex(T);
    return Size ? blockThreadCount(T) : nullptr;
  }
  if (Cls != "thread_block_tile")
    return nullptr;
  int64_t N = tileSize(RD);
  if (N <= 0)
    return Name == "thread_rank" ? SymExpr::varying(Spelling(), "rank in a tile of unknown size", T)
                                 : nullptr;
  SymRef C = SymExpr::constant(N, T);
  if (Name == "thread_rank")
    return SymExpr::binary(Opcode::Rem, linearThreadIndex(T), C, T);
  if (Size)
    return C;
  int64_t Parent = parentSize(RD, N);
  if (Parent < 0)
    return nullptr;
  if (Name == "meta_group_rank") {
    SymRef Lin = linearThreadIndex(T);
    SymRef InParent = Parent ? SymExpr::binary(Opcode::Rem, Lin, SymExpr::constant(Parent, T), T) : Lin;
    return SymExpr::binary(Opcode::Div, InParent, C, T);
  }
  if (Name == "meta_group_size")
    return Parent ? SymExpr::constant(Parent / N, T)
                  : SymExpr::binary(Opcode::Div,
                                    SymExpr::binary(Opcode::Add, blockThreadCount(T),
                                                    SymExpr::constant(N - 1, T), T),
                                    C, T);
  return nullptr;
}

} // namespace cbl
