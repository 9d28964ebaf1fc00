//===- ShapeResolver.cpp - The one home of a kernel's block shape ---------===//
#include "cuda-bank-lint/Driver/ShapeResolver.h"
#include "cuda-bank-lint/Driver/Includers.h"
#include "cuda-bank-lint/Driver/Annotations.h"
#include "cuda-bank-lint/Driver/CompileCommands.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"

namespace cbl {

namespace {

/// The file's path with links and '..' resolved, to compare two spellings.
std::string canonical(const std::string &File) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(File, Real))
    return std::string(Real);
  return absolutePath(File);
}

llvm::StringRef bareName(llvm::StringRef Name) {
  Name = Name.take_until([](char C) { return C == '<'; });
  size_t Colons = Name.rfind("::");
  return Colons == llvm::StringRef::npos ? Name : Name.drop_front(Colons + 2);
}

/// Every identifier in Text.
void identifiers(llvm::StringRef Text, std::set<std::string> &Names) {
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t I = 0; I < Text.size();) {
    if (!IsIdent(Text[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Text.size() && IsIdent(Text[J]))
      ++J;
    Names.insert(Text.slice(I, J).str());
    I = J;
  }
}

/// The names a launch in Text may be of: every identifier on a statement
/// before its `<<<` (`Bare<<<`, `ns::Bare<T><<<`), and in the first two
/// arguments of a runtime launch (`cudaLaunchKernel((void *)Bare, ...`,
/// `cudaLaunchKernelEx(&cfg, Bare, ...`), within 400 bytes.
std::set<std::string> launchableNames(llvm::StringRef Text) {
  std::set<std::string> Names;
  for (size_t At = Text.find("<<<"); At != llvm::StringRef::npos; At = Text.find("<<<", At + 3)) {
    size_t From = At > 400 ? At - 400 : 0;
    llvm::StringRef Before = Text.slice(From, At);
    size_t Stop = Before.find_last_of(";{");
    identifiers(Stop == llvm::StringRef::npos ? Before : Before.drop_front(Stop + 1), Names);
  }
  // cudaLaunchKernel(Ex, ExC), cudaLaunchCooperativeKernel.
  for (llvm::StringRef Launch : {"cudaLaunchKernel", "cudaLaunchCooperativeKernel"})
    for (size_t At = Text.find(Launch); At != llvm::StringRef::npos; At = Text.find(Launch, At + Launch.size())) {
      llvm::StringRef Call = Text.substr(At, 400);
      size_t Open = Call.find('(');
      if (Open == llvm::StringRef::npos)
        continue;
      llvm::StringRef Args = Call.drop_front(Open + 1);
      size_t First = Args.find(',');
      identifiers(Args.take_front(First == llvm::StringRef::npos ? First : Args.find(',', First + 1)), Names);
    }
  return Names;
}

/// The config's BlockDim rule for a kernel: its glob matches the name with
/// or without template arguments.
const BlockDimRule *configShape(const FunctionModel &F, const std::vector<BlockDimRule> *Rules) {
  if (!Rules)
    return nullptr;
  llvm::StringRef Bare = llvm::StringRef(F.Name).take_until([](char C) { return C == '<'; });
  for (const BlockDimRule &R : *Rules) {
    auto Glob = llvm::GlobPattern::create(R.Glob);
    if (Glob && (Glob->match(F.Name) || Glob->match(Bare)))
      return &R;
  }
  return nullptr;
}

std::string shapeAssumption(const FunctionModel &F) {
  const unsigned Max = F.BoundsShape ? F.BoundsShape->MaxThreads : 1024;
  const std::string Bound = F.BoundsShape ? "__launch_bounds__'s maximum at " + F.BoundsShape->Where.File + ":" +
                                                std::to_string(F.BoundsShape->Where.Line)
                                          : "";
  std::string Shape = Max < 32 ? "a 1-D block of up to " + std::to_string(Max) + " threads (" + Bound + ")"
                               : "a 1-D block whose size is a multiple of 32 threads (up to " + std::to_string(Max) +
                                     (Bound.empty() ? "" : ", " + Bound) + ", worst warp reported)";
  if (!F.IsKernel)
    return Shape + ": '" + F.Name + "' is a device function, whose block shape is that of its callers" +
           (F.BoundsShape ? " (the largest __launch_bounds__ of the kernels that call it)" : "");
  // A kernel with __launch_bounds__ gets here when a launch fixes some extents.
  return Shape + ": no launch of '" + F.Name + "' with a constant block size in this file or the others searched, " +
         (F.BoundsShape                ? ""
          : F.BoundsIgnored.empty() ? "no __launch_bounds__ and "
                                    : F.BoundsIgnored + ", which bounds no launch, and ") +
         "no --block-dim (pass --block-dim=X,Y,Z to pin it)";
}

} // namespace

std::optional<BlockShape> LaunchIndex::find(const FunctionModel &Kernel, const std::string &Analysed) {
  const llvm::StringRef Bare = bareName(Kernel.Name);
  const std::string KernelFile = canonical(Kernel.Where.File);
  const std::string Self = canonical(Analysed);
  std::lock_guard<std::mutex> Guard(Lock);
  auto Listed = CandidateFiles.find(Analysed);
  if (Listed == CandidateFiles.end())
    Listed = CandidateFiles.emplace(Analysed, Candidates(Analysed)).first;
  for (const std::string &File : Listed->second) {
    const std::string Real = canonical(File);
    if (Real == Self)
      continue;
    auto It = Parsed.find(File);
    if (It == Parsed.end()) {
      auto Names = Launchable.find(File);
      if (Names == Launchable.end()) {
        auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
        Names = Launchable.emplace(File, Buf ? launchableNames((*Buf)->getBuffer())
                                             : std::set<std::string>()).first;
      }
      if (!Names->second.count(Bare.str()))
        continue; // not parsed: another kernel's name may still match it
      // Only a unit that sees this kernel's declaration can launch it: one
      // that includes the file defining it (a kernel of the same name in
      // another sample is not parsed for nothing).
      if (Real != KernelFile && !includesFile(File, KernelFile))
        continue;
      It = Parsed.emplace(File, Parse(File)).first;
    }
    for (const LaunchedKernel &L : It->second) {
      bool Same = L.Name == Kernel.Name &&
                  llvm::any_of(L.Decls, [&](const SourcePos &D) {
                    return D.Line == Kernel.Where.Line && D.Column == Kernel.Where.Column &&
                           canonical(D.File) == KernelFile;
                  });
      if (Same) {
        BlockShape S = L.Shape;
        S.Description = "from the launch at " + S.Where.File + ":" + std::to_string(S.Where.Line) +
                        ":" + std::to_string(S.Where.Column) + ", in another translation unit";
        return S;
      }
    }
  }
  return std::nullopt;
}

namespace {

/// F's block shape, from the first source that gives one (ShapeResolver.h).
BlockShape shapeOf(const FunctionModel &F, const std::string &File, const ShapeOptions &Opts,
                   AnnotationReader &Annotations, std::string &Messages) {
  if (Opts.BlockDim)
    return BlockShape{*Opts.BlockDim, BlockShape::Source::CommandLine, SourcePos(), "from --block-dim"};
  if (!F.IsKernel) {
    BlockShape S{{{0, 0, 0}}, BlockShape::Source::Assumed, SourcePos(), shapeAssumption(F)};
    if (F.BoundsShape)
      S.MaxThreads = F.BoundsShape->MaxThreads;
    return S;
  }
  if (const BlockDimRule *R = configShape(F, Opts.Rules))
    return BlockShape{R->Dim, BlockShape::Source::Config, SourcePos(),
                      "from the config's BlockDim '" + R->Glob + "' (" + R->Origin + ")"};
  if (auto A = Annotations.blockDimFor(F.Where, Messages))
    return *A;
  if (F.LaunchShape && F.LaunchShape->known())
    return *F.LaunchShape;
  if (auto Other = Opts.OtherUnits ? Opts.OtherUnits->find(F, File) : std::nullopt)
    return *Other;
  if (F.LaunchShape) {
    // Some extents only (dim3(32, nwarps)): the checks that need the whole
    // shape take it as not known (the assumption stated); the barrier
    // check keeps the extents that are.
    BlockShape S = *F.LaunchShape;
    S.From = BlockShape::Source::Assumed;
    S.Description = shapeAssumption(F) + "; " + F.LaunchShape->Description;
    if (F.BoundsShape)
      S.MaxThreads = F.BoundsShape->MaxThreads;
    return S;
  }
  if (F.BoundsShape)
    return *F.BoundsShape;
  return BlockShape{{{0, 0, 0}}, BlockShape::Source::Assumed, SourcePos(), shapeAssumption(F)};
}

} // namespace

void resolveShapes(TranslationUnitModel &M, const std::string &File, const ShapeOptions &Opts,
                   std::string &Messages) {
  AnnotationReader Annotations(Opts.Unsaved);
  for (FunctionModel &F : M.Functions) {
    F.Shape = shapeOf(F, File, Opts, Annotations, Messages);
    if (Opts.GridDim)
      F.Shape.Grid = *Opts.GridDim;
  }
}

} // namespace cbl
