//===- DeviceParts.cpp - A large unit's device code, optimised in parts ----===//
//
// LLVM's pipeline runs on one module in one thread, and on a unit of many
// large kernels (ggml's flash-attention instances: 36 kernels, 14 of them
// of inlined templates) it is most of the tool's time. Where the roots
// reach 10,000 instructions or more for each of two parts (a helper counted
// once for each root that calls it), the module is split in two: the roots
// go to groups balanced by the instructions each reaches (largest first,
// each to the lightest group). Each group is the whole module, read
// again from its bitcode into a context of its own (the first group keeps
// the original), with the other groups' roots left as declarations and what
// only they used dropped (GlobalDCE); an internal variable that some code
// writes is marked initialised elsewhere, so that no part takes it for its
// initialiser. The groups are optimised on a pool.
// Every root is optimised with every function it calls, as in the whole
// module; the helpers two groups share are optimised in both (on ggml's
// fattn-mma instance, two parts cost about 4 % more time at one thread
// than the whole module, and three or four parts were slower than two on
// two cores; its two-kernel instances of 20,000 to 30,000 instructions
// took 0.6 to 1.5 s less of 5 to 6 s in two parts on two cores). The
// groups depend on the module alone, never on the threads, so every
// thread count gives the same IR.
//
//===----------------------------------------------------------------------===//
#include "DeviceLowering.h"
#include "DeviceReuse.h"
#include "cuda-bank-lint/Support/ParallelFor.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Utils/GlobalStatus.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace cbl {

NamedFunctions namedFunctions(const llvm::Module &M) {
  NamedFunctions Out;
  for (const llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    std::vector<const llvm::Function *> Named;
    for (const llvm::Instruction &I : llvm::instructions(F))
      for (const llvm::Value *Op : I.operands())
        if (const auto *G = llvm::dyn_cast<llvm::Function>(Op->stripPointerCasts()); G && !G->isDeclaration())
          Named.push_back(G);
    llvm::sort(Named);
    Named.erase(std::unique(Named.begin(), Named.end()), Named.end());
    Out[&F] = std::move(Named);
  }
  return Out;
}

std::vector<const llvm::Function *> reachOf(const llvm::Function &F, const NamedFunctions &Named) {
  llvm::DenseSet<const llvm::Function *> Seen;
  std::vector<const llvm::Function *> Work{&F}, Reach;
  while (!Work.empty()) {
    const llvm::Function *G = Work.back();
    Work.pop_back();
    if (G->isDeclaration() || !Seen.insert(G).second)
      continue;
    Reach.push_back(G);
    if (auto It = Named.find(G); It != Named.end())
      Work.insert(Work.end(), It->second.begin(), It->second.end());
  }
  return Reach;
}

void dropUnused(llvm::Module &M) {
  AnalysisManagers AM;
  llvm::PassBuilder PB;
  AM.registerWith(PB);
  llvm::GlobalDCEPass().run(M, AM.MAM);
}

namespace {

/// The instructions of the defined functions F reaches, F included.
size_t reachedInstructions(const llvm::Function &F, const NamedFunctions &Named) {
  size_t Count = 0;
  for (const llvm::Function *G : reachOf(F, Named))
    Count += G->getInstructionCount();
  return Count;
}

/// A root of the module, by name (its IR function differs in each part).
struct PartRoot {
  const clang::FunctionDecl *Decl;
  std::string Name;
  bool Kernel;
  unsigned Group = 0;
};

/// The roots, each with its group, and how many groups (at most MaxParts):
/// at least PartInstructions instructions (before optimisation, a helper
/// counted once for each root that reaches it) in each.
std::pair<std::vector<PartRoot>, unsigned> groupRoots(const LoweredPart &Whole, const NamedFunctions &Named,
                                                      size_t PartInstructions,
                                                      size_t MaxParts) {
  std::vector<std::pair<size_t, PartRoot>> Sized;
  size_t Total = 0;
  for (const auto &[FD, F] : Whole.Functions) {
    Sized.push_back({reachedInstructions(*F, Named), {FD, F->getName().str(), Whole.Kernels.count(F) > 0}});
    Total += Sized.back().first;
  }
  // Largest first (then by name: the hash map's order is not the module's).
  std::sort(Sized.begin(), Sized.end(), [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first > B.first : A.second.Name < B.second.Name;
  });
  const size_t Most = std::max<size_t>(1, std::min(MaxParts, Sized.size()));
  const unsigned N = unsigned(std::clamp<size_t>(Total / PartInstructions, 1, Most));
  std::vector<size_t> Load(N, 0);
  std::vector<PartRoot> Roots;
  for (auto &[Size, Root] : Sized) {
    Root.Group = unsigned(std::min_element(Load.begin(), Load.end()) - Load.begin());
    Load[Root.Group] += Size;
    Roots.push_back(std::move(Root));
  }
  return {std::move(Roots), N};
}

/// P's module made part G: the other groups' roots declarations, what only
/// they used dropped, G's roots and the shared variables found by name.
std::string keepGroup(LoweredPart &P, const std::vector<PartRoot> &Roots,
                      const std::vector<std::pair<std::string, const clang::VarDecl *>> &Shared, unsigned G) {
  for (const PartRoot &R : Roots) {
    llvm::Function *F = P.Module->getFunction(R.Name);
    if (!F)
      return "the device module could not be split: '" + R.Name + "' is missing";
    if (R.Group != G)
      F->deleteBody();
  }
  dropUnused(*P.Module);
  for (const PartRoot &R : Roots)
    if (R.Group == G) {
      llvm::Function *F = P.Module->getFunction(R.Name);
      P.Functions[R.Decl] = F;
      if (R.Kernel)
        P.Kernels.insert(F);
    }
  for (const auto &[Name, VD] : Shared)
    if (llvm::GlobalVariable *GV = P.Module->getNamedGlobal(Name))
      P.SharedVars[GV] = VD;
  return "";
}

} // namespace

void keepWrittenVariables(llvm::Module &M) {
  for (llvm::GlobalVariable &G : M.globals()) {
    llvm::GlobalStatus GS;
    if (G.hasLocalLinkage() && !G.isConstant() &&
        (llvm::GlobalStatus::analyzeGlobal(&G, GS) || GS.StoredType > llvm::GlobalStatus::InitializerStored))
      G.setExternallyInitialized(true);
  }
}

std::vector<LoweredPart> optimiseInParts(LoweredPart Whole, const clang::TargetOptions &Target,
                                         const LoweringOptions &Opts, std::string &Error, ReuseOutcome *Reused) {
  const NamedFunctions Named = namedFunctions(*Whole.Module);
  auto [Roots, N] = groupRoots(Whole, Named, std::max(1u, Opts.PartInstructions), Opts.MaxParts);
  if (Opts.Reuse && Reused) { // the language server: clusters kept from an earlier version stay out
    std::vector<GroupedRoot> Grouped;
    for (const PartRoot &R : Roots)
      Grouped.push_back({R.Decl, R.Group});
    *Reused = keepModels(Whole, Named, Grouped, *Opts.Reuse);
    llvm::erase_if(Roots, [&](const PartRoot &R) { return Reused->Kept.count(R.Decl) > 0; });
    if (Roots.empty() && !Reused->Kept.empty())
      return {}; // nothing changed
  }
  std::vector<LoweredPart> Parts;
  if (N <= 1) {
    Error = optimise(*Whole.Module, Target, Whole.Kernels, Whole.Merged);
    if (Error.empty())
      Parts.push_back(std::move(Whole));
    return Parts;
  }
  std::vector<std::pair<std::string, const clang::VarDecl *>> Shared;
  for (const auto &[G, VD] : Whole.SharedVars)
    Shared.push_back({G->getName().str(), VD});
  keepWrittenVariables(*Whole.Module);
  llvm::SmallVector<char, 0> Bitcode;
  llvm::raw_svector_ostream OS(Bitcode);
  llvm::WriteBitcodeToFile(*Whole.Module, OS, /*ShouldPreserveUseListOrder=*/true);
  std::vector<unsigned> Groups; // those with roots left
  for (unsigned G = 0; G < N; ++G)
    if (llvm::any_of(Roots, [G](const PartRoot &R) { return R.Group == G; }))
      Groups.push_back(G);
  Parts.resize(Groups.size());
  std::vector<std::string> Errors(Groups.size());
  parallelFor(Opts.Threads, Groups.size(), [&, &Roots = Roots](size_t I) {
    LoweredPart P;
    if (I == 0 && Whole.Module) { // the first part keeps the module it was
      P.Context = std::move(Whole.Context);
      P.Module = std::move(Whole.Module);
    } else { // read again (also where part 0 failed in a worker)
      P.Context = deviceContext();
      llvm::Expected<std::unique_ptr<llvm::Module>> M = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(llvm::StringRef(Bitcode.data(), Bitcode.size()), "device"), *P.Context);
      if (!M) {
        Errors[I] = "the device module could not be split: " + llvm::toString(M.takeError());
        return;
      }
      P.Module = std::move(*M);
    }
    Errors[I] = keepGroup(P, Roots, Shared, Groups[I]);
    if (Errors[I].empty())
      Errors[I] = optimise(*P.Module, Target, P.Kernels, P.Merged);
    Parts[I] = std::move(P);
  });
  for (const std::string &E : Errors)
    if (!E.empty()) {
      Error = E;
      return {};
    }
  return Parts;
}

} // namespace cbl
