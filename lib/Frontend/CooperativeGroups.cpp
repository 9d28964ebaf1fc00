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

/// cooperative_groups queries of a thread_block or a thread_block_tile<N>
/// (of the block, or of a tile of the block of static size P): thread_rank(),
/// size()/num_threads(), and for tiles meta_group_rank()/meta_group_size().
/// Null when Name is none of these or the tile's size is not static.
SymRef cooperativeGroupQuery(const std::string &Name, const std::string &Cls,
                             const CXXRecordDecl *RD, IntType T) {
  if (Cls != "thread_block" && Cls != "thread_block_tile")
    return nullptr;
  SymRef Lin = linearThreadIndex(T);
  SymRef BlockSize = SymExpr::binary(
      Opcode::Mul,
      SymExpr::binary(Opcode::Mul, SymExpr::cast(SymExpr::blockDim(Axis::X), T),
                      SymExpr::cast(SymExpr::blockDim(Axis::Y), T), T),
      SymExpr::cast(SymExpr::blockDim(Axis::Z), T), T);
  if (Cls == "thread_block") {
    if (Name == "thread_rank")
      return Lin;
    if (Name == "size" || Name == "num_threads")
      return BlockSize;
    return nullptr;
  }
  // The static size of a tile type, and of its parent tile if it has one.
  auto TileSize = [](const CXXRecordDecl *R) -> int64_t {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(R);
    if (!Spec || Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
      return 0;
    return Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
  };
  int64_t N = TileSize(RD);
  if (N <= 0)
    return Name == "thread_rank" ? SymExpr::varying(Name, "rank in a tile of unknown size", T)
                                 : nullptr;
  // The parent: the block, a tile of static size, or (thread_block_tile<N>
  // with its parent type erased) the block for warp-sized and larger tiles,
  // unknown for smaller ones (they may be tiles of a warp).
  int64_t Parent = N >= 32 ? 0 : -1; // 0: the block
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (Spec->getTemplateArgs().size() > 1 &&
        Spec->getTemplateArgs()[1].getKind() == TemplateArgument::Type) {
      const CXXRecordDecl *P = Spec->getTemplateArgs()[1].getAsType()->getAsCXXRecordDecl();
      if (P && P->getName() == "thread_block")
        Parent = 0;
      else if (P && P->getName() == "thread_block_tile")
        Parent = TileSize(P) > 0 ? TileSize(P) : -1;
      else if (!P && N >= 32)
        Parent = 0;
    }
  if (Name == "thread_rank")
    return SymExpr::binary(Opcode::Rem, Lin, SymExpr::constant(N, T), T);
  if (Name == "size" || Name == "num_threads")
    return SymExpr::constant(N, T);
  if (Parent < 0)
    return nullptr;
  SymRef C = SymExpr::constant(N, T);
  SymRef InParent = Parent ? SymExpr::binary(Opcode::Rem, Lin, SymExpr::constant(Parent, T), T) : Lin;
  if (Name == "meta_group_rank")
    return SymExpr::binary(Opcode::Div, InParent, C, T);
  if (Name == "meta_group_size")
    return Parent ? SymExpr::constant(Parent / N, T)
                  : SymExpr::binary(Opcode::Div,
                                    SymExpr::binary(Opcode::Add, BlockSize, SymExpr::constant(N - 1, T), T),
                                    C, T);
  return nullptr;
}

} // namespace cbl
