//===- Preambles.cpp - Parse a file's headers once, reuse them -------------===//
#include "Preambles.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Frontend/Utils.h"
#include "clang/Serialization/ASTWriter.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/STLExtras.h"

#include <mutex>

using namespace clang;

namespace cbl {

struct PreambleCache::Impl {
  struct Entry {
    std::string Key; ///< the command, which names the main file
    /// Null when the preamble below did not compile.
    std::shared_ptr<const PrecompiledPreamble> Preamble;
    std::shared_ptr<const PreambleUserDecls> UserDecls;
    std::string FailedText; ///< the preamble lines that did not compile
    uint64_t LastUse = 0;
  };
  explicit Impl(unsigned Capacity) : Capacity(Capacity ? Capacity : 1) {}

  Entry *find(const std::string &Key) {
    auto It = llvm::find_if(Entries, [&](const Entry &E) { return E.Key == Key; });
    return It == Entries.end() ? nullptr : &*It;
  }
  /// Stores E in place of the entry of its key, dropping the least recently
  /// used entry when full.
  void store(Entry E) {
    E.LastUse = ++Clock;
    if (Entry *Old = find(E.Key)) {
      *Old = std::move(E);
      return;
    }
    if (Entries.size() >= Capacity)
      Entries.erase(std::min_element(Entries.begin(), Entries.end(),
                                     [](const Entry &A, const Entry &B) {
                                       return A.LastUse < B.LastUse;
                                     }));
    Entries.push_back(std::move(E));
  }

  std::mutex Lock;
  std::vector<Entry> Entries;
  unsigned Capacity;
  uint64_t Clock = 0;
  Counters Count;
};

PreambleCache::Impl &implOf(PreambleCache &C) { return *C.I; }

PreambleCache::PreambleCache(unsigned Capacity) : I(std::make_unique<Impl>(Capacity)) {}
PreambleCache::~PreambleCache() = default;

PreambleCache::Counters PreambleCache::counters() const {
  std::lock_guard<std::mutex> G(I->Lock);
  return I->Count;
}

void PreambleCache::forgetFailures() {
  std::lock_guard<std::mutex> G(I->Lock);
  llvm::erase_if(I->Entries, [](const Impl::Entry &E) { return !E.Preamble; });
}

namespace {

/// Counts errors and prints nothing.
struct ErrorCounter : DiagnosticConsumer {
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
  }
};

std::unique_ptr<CompilerInvocation>
invocationFor(const std::vector<std::string> &Args,
              llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  ErrorCounter Ignored;
  CreateInvocationOptions Opts;
  Opts.Diags = CompilerInstance::createDiagnostics(new DiagnosticOptions(), &Ignored, false);
  Opts.VFS = VFS;
  std::unique_ptr<CompilerInvocation> CI = createInvocation(Argv, std::move(Opts));
  if (CI && CI->getFrontendOpts().Inputs.size() != 1)
    return nullptr;
  if (CI)
    CI->getFrontendOpts().DisableFree = false; // a server lives long
  return CI;
}

/// Collects the top-level declarations of user headers while a preamble is
/// compiled, and their IDs in the PCH once it is written (as ASTUnit does).
class UserDeclCollector : public PreambleCallbacks {
public:
  void BeforeExecute(CompilerInstance &CI) override { SM = &CI.getSourceManager(); }
  void HandleTopLevelDecl(DeclGroupRef G) override {
    for (Decl *D : G)
      if (SM && D->getLocation().isValid() && !SM->isInSystemHeader(D->getLocation()))
        Decls.push_back(D);
  }
  void AfterPCHEmitted(ASTWriter &Writer) override {
    for (const Decl *D : Decls)
      if (!D->isInvalidDecl()) // not serialised
        IDs.push_back(Writer.getDeclID(D));
  }
  PreambleUserDecls IDs;

private:
  SourceManager *SM = nullptr;
  std::vector<const Decl *> Decls;
};

/// The preamble of Main for CI: the cached one when still valid, else one
/// compiled now (null when it does not compile).
PreambleCache::Impl::Entry
preambleFor(PreambleCache::Impl &Cache, const std::string &Key, const CompilerInvocation &CI,
            const llvm::MemoryBuffer &Main, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS) {
  PreambleBounds Bounds = ComputePreambleBounds(CI.getLangOpts(), Main.getMemBufferRef(), 0);
  llvm::StringRef Text = Main.getBuffer().take_front(Bounds.Size);
  {
    std::lock_guard<std::mutex> G(Cache.Lock);
    if (PreambleCache::Impl::Entry *E = Cache.find(Key)) {
      E->LastUse = ++Cache.Clock;
      if (!E->Preamble && E->FailedText == Text) {
        ++Cache.Count.Unusable;
        return {};
      }
      // CanReuse only reads the entry and stats files: safe outside the lock
      // too, but the entry may be replaced meanwhile; keep a reference.
      if (E->Preamble && E->Preamble->CanReuse(CI, Main.getMemBufferRef(), Bounds, *VFS)) {
        ++Cache.Count.Reused;
        return *E;
      }
    }
  }
  ErrorCounter Errors;
  llvm::IntrusiveRefCntPtr<DiagnosticsEngine> Engine =
      CompilerInstance::createDiagnostics(new DiagnosticOptions(), &Errors, false);
  UserDeclCollector Callbacks;
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      CI, &Main, Bounds, *Engine, VFS, std::make_shared<PCHContainerOperations>(),
      /*StoreInMemory=*/true, /*StoragePath=*/"", Callbacks);
  PreambleCache::Impl::Entry E;
  E.Key = Key;
  // A missing header in the preamble is an error of the engine that does
  // not reach the consumer (and would be lost in the parses that reuse it).
  bool Ok = Built && !Engine->hasErrorOccurred() && Errors.getNumErrors() == 0;
  if (Ok) {
    E.Preamble = std::make_shared<const PrecompiledPreamble>(std::move(*Built));
    E.UserDecls = std::make_shared<const PreambleUserDecls>(std::move(Callbacks.IDs));
  } else
    E.FailedText = Text.str();
  std::lock_guard<std::mutex> G(Cache.Lock);
  ++(Ok ? Cache.Count.Built : Cache.Count.Unusable);
  Cache.store(E);
  return E;
}

} // namespace

std::optional<bool> runWithPreamble(PreambleCache &Cache, const std::vector<std::string> &Args,
                                    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                                    FrontendAction &Action, DiagnosticConsumer &Diags,
                                    PreambleUserDecls &UserDecls) {
  std::unique_ptr<CompilerInvocation> CI = invocationFor(Args, VFS);
  if (!CI)
    return std::nullopt;
  std::string MainPath = CI->getFrontendOpts().Inputs[0].getFile().str();
  auto Main = VFS->getBufferForFile(MainPath);
  if (!Main)
    return std::nullopt;
  std::string Key = llvm::join(Args, std::string(1, '\0'));
  PreambleCache::Impl::Entry Found = preambleFor(implOf(Cache), Key, *CI, **Main, VFS);
  const std::shared_ptr<const PrecompiledPreamble> &Preamble = Found.Preamble;
  if (!Preamble)
    return std::nullopt;
  UserDecls = Found.UserDecls ? *Found.UserDecls : PreambleUserDecls();

  // As clangd's prepareCompilerInstance: the main file remapped to its text,
  // the preamble's PCH implicitly included.
  std::unique_ptr<llvm::MemoryBuffer> Text =
      llvm::MemoryBuffer::getMemBufferCopy((*Main)->getBuffer(), MainPath);
  Preamble->AddImplicitPreamble(*CI, VFS, Text.get());
  CompilerInstance Clang(std::make_shared<PCHContainerOperations>());
  Clang.setInvocation(std::move(CI));
  Clang.createDiagnostics(&Diags, /*ShouldOwnClient=*/false);
  VFS = createVFSFromCompilerInvocation(Clang.getInvocation(), Clang.getDiagnostics(), VFS);
  Clang.createFileManager(VFS);
  Clang.createSourceManager(Clang.getFileManager());
  Text.release(); // the source manager owns the remapped buffer from here
  return Clang.ExecuteAction(Action);
}

} // namespace cbl
