//===- DeviceReuse.cpp - Kernels' models kept between versions of a file --===//
//
// See cuda-bank-lint/Frontend/DeviceModelMemo.h. A cluster's key is written
// as text and hashed (xxh3, 128 bits): the hashes of the IR items (functions,
// variables, declarations, named types) its roots reach in the unoptimised
// module, printed once (ModuleText: each item's metadata and attribute-group
// numbers written as hashes of what they stand for, so that an edit
// elsewhere, which numbers them anew, changes no other item), the source
// lines its functions span, the ids of the shared variables it names and
// each root's inputs from the AST.
//
//===----------------------------------------------------------------------===//
#include "DeviceReuse.h"
#include "DeviceLowering.h"
#include "IRLocations.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#include <atomic>
#include <mutex>

namespace cbl {

struct DeviceModelMemo::Impl {
  struct Entry {
    FunctionModel Model;
    bool Used = true;
  };
  mutable std::mutex Lock;
  std::map<std::string, Entry> Entries;
  Counters Count;
  bool EveryOther = false; ///< analyseTwiceForTesting's memo: every other root's model kept
  unsigned Stored = 0;
};

static std::atomic<bool> Twice{false};
void DeviceModelMemo::analyseTwiceForTesting() { Twice = true; }
bool DeviceModelMemo::analysingTwice() { return Twice; }

DeviceModelMemo::DeviceModelMemo() : I(std::make_unique<Impl>()) {}
DeviceModelMemo::~DeviceModelMemo() = default;

DeviceModelMemo::Impl &implOf(DeviceModelMemo &M) { return *M.I; }

DeviceModelMemo::Counters DeviceModelMemo::counters() const {
  std::lock_guard<std::mutex> G(I->Lock);
  Counters C = I->Count;
  C.Entries = I->Entries.size();
  return C;
}

void DeviceModelMemo::sweep() {
  std::lock_guard<std::mutex> G(I->Lock);
  for (auto It = I->Entries.begin(); It != I->Entries.end();)
    if (!It->second.Used)
      It = I->Entries.erase(It);
    else
      (It++)->second.Used = false;
}

std::unique_ptr<DeviceModelMemo> everyOtherMemo() {
  auto M = std::make_unique<DeviceModelMemo>();
  implOf(*M).EveryOther = true;
  return M;
}

void storeModel(DeviceModelMemo &Memo, const std::string &Key, const FunctionModel &M) {
  DeviceModelMemo::Impl &I = implOf(Memo);
  std::lock_guard<std::mutex> G(I.Lock);
  if (!I.EveryOther || I.Stored++ % 2 == 0)
    I.Entries[Key] = {M, true};
}

namespace {

/// A function this large may stay a call (the inliner's threshold is a cost
/// of 100,000, about 5 per instruction).
constexpr unsigned MayStayCalledInstructions = 10000;

/// Writes the text of the source lines each function of Reach spans (from
/// its first to its last line, in each file its line table names): false
/// where a file's text is not known.
bool writeSourceLines(const std::vector<const llvm::Function *> &Reach, const ReuseContext &C,
                      llvm::raw_ostream &OS) {
  for (const llvm::Function *F : Reach) {
    std::map<std::string, std::pair<unsigned, unsigned>> Spans; // file -> first, last line
    auto Add = [&](const llvm::DIScope *S, unsigned Line) {
      if (!S || !S->getFile() || !Line)
        return;
      auto [It, New] = Spans.try_emplace(pathOf(*S->getFile()), Line, Line);
      It->second = {std::min(It->second.first, Line), std::max(It->second.second, Line)};
    };
    if (const llvm::DISubprogram *SP = F->getSubprogram())
      Add(SP, SP->getLine());
    for (const llvm::Instruction &I : llvm::instructions(*F))
      for (const llvm::DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt())
        Add(L->getScope(), L->getLine());
    for (const auto &[Path, Span] : Spans) {
      std::optional<llvm::StringRef> Text = C.SourceLines(Path, Span.first, Span.second);
      if (!Text)
        return false;
      OS << "lines " << Path << ':' << Span.first << '-' << Span.second << '\n' << *Text << '\n';
    }
  }
  return true;
}

/// The module printed once and cut into items (each function, variable,
/// declaration and named type), each with a hash of its text written
/// independently of the rest's numbering (a metadata or attribute-group
/// number replaced by a hash of its contents), and the items it names: a
/// root's IR key is then the hashes of the items it reaches, whatever
/// changed elsewhere in the module.
class ModuleText {
public:
  explicit ModuleText(const llvm::Module &M) {
    llvm::raw_string_ostream OS(All);
    M.print(OS, nullptr);
    OS.flush();
    index();
  }

  /// The hashes of the items Name (as the IR writes it: "@f") reaches, with
  /// their names, in name order; adds the names to Reached.
  void writeReach(llvm::StringRef Name, llvm::raw_ostream &OS, llvm::StringSet<> &Reached) {
    std::vector<llvm::StringRef> Work{Name};
    std::vector<std::pair<llvm::StringRef, std::string>> Seen;
    llvm::StringSet<> Done;
    while (!Work.empty()) {
      llvm::StringRef N = Work.back();
      Work.pop_back();
      auto It = Items.find(N);
      if (It == Items.end() || !Done.insert(N).second)
        continue;
      Item &I = canonical(It->second);
      Seen.push_back({N, I.Hash});
      Work.insert(Work.end(), I.Names.begin(), I.Names.end());
    }
    llvm::sort(Seen);
    for (const auto &[N, H] : Seen) {
      OS << N << ' ' << H << '\n';
      Reached.insert(N);
    }
  }

private:
  struct Item {
    llvm::StringRef Text;
    std::string Hash;                  ///< empty until made
    std::vector<llvm::StringRef> Names; ///< the items it names
  };

  static bool nameChar(char C) { return llvm::isAlnum(C) || C == '-' || C == '$' || C == '.' || C == '_'; }
  /// The name at S[P] ('@' or '%', then a quoted or plain name).
  static llvm::StringRef nameAt(llvm::StringRef S, size_t P) {
    size_t E = P + 1;
    if (E < S.size() && S[E] == '"')
      E = S.find('"', E + 1) == llvm::StringRef::npos ? S.size() : S.find('"', E + 1) + 1;
    else
      while (E < S.size() && nameChar(S[E]))
        ++E;
    return S.slice(P, E);
  }
  static std::string hashOf(llvm::StringRef S) {
    llvm::XXH128_hash_t H = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(S));
    return fmt::format("{:016x}{:016x}", H.high64, H.low64);
  }

  void index() {
    llvm::StringRef Rest(All);
    while (!Rest.empty()) {
      auto [Line, Next] = Rest.split('\n');
      const char *Start = Line.data();
      Rest = Next;
      if (Line.starts_with("define ")) { // through its closing brace, a line of its own
        llvm::StringRef Head = Line;
        while (!Rest.empty() && Line != "}")
          std::tie(Line, Rest) = Rest.split('\n');
        Items[nameAt(Head, Head.find('@'))].Text = llvm::StringRef(Start, Line.end() - Start);
      } else if (Line.starts_with("declare ")) {
        Items[nameAt(Line, Line.find('@'))].Text = Line;
      } else if (Line.starts_with("@") || Line.starts_with("%")) {
        Items[nameAt(Line, 0)].Text = Line;
      } else if (Line.starts_with("attributes #")) {
        unsigned N;
        llvm::StringRef Body = Line.drop_front(12);
        if (!Body.consumeInteger(10, N))
          Attributes[N] = Body;
      } else if (Line.starts_with("!") && Line.size() > 1 && llvm::isDigit(Line[1])) {
        unsigned N;
        llvm::StringRef Body = Line.drop_front(1);
        if (!Body.consumeInteger(10, N))
          Metadata[N] = {Body, ""};
      }
    }
  }

  /// Text with each metadata and attribute-group number replaced by a hash
  /// of what it stands for; the item names it holds go to Names.
  std::string rewrite(llvm::StringRef Text, std::vector<llvm::StringRef> *Names) {
    std::string Out;
    Out.reserve(Text.size());
    for (size_t P = 0; P < Text.size();) {
      char C = Text[P];
      if (C == '"') { // a string: as it is
        size_t E = Text.find('"', P + 1);
        E = E == llvm::StringRef::npos ? Text.size() : E + 1;
        Out += Text.slice(P, E);
        P = E;
      } else if ((C == '@' || C == '%') && P + 1 < Text.size()) {
        llvm::StringRef N = nameAt(Text, P);
        if (Names && N.size() > 1 && Items.count(N))
          Names->push_back(Items.find(N)->first());
        Out += N;
        P += N.size();
      } else if ((C == '!' || C == '#') && P + 1 < Text.size() && llvm::isDigit(Text[P + 1])) {
        size_t E = P + 1;
        unsigned N = 0;
        while (E < Text.size() && llvm::isDigit(Text[E]))
          N = N * 10 + unsigned(Text[E++] - '0');
        Out += C == '!' ? "!<" + metadataHash(N) + ">" : "#<" + Attributes.lookup(N).str() + ">";
        P = E;
      } else {
        Out += C;
        ++P;
      }
    }
    return Out;
  }

  std::string metadataHash(unsigned N) {
    auto It = Metadata.find(N);
    if (It == Metadata.end())
      return "?";
    if (!It->second.second.empty())
      return It->second.second;
    It->second.second = "self"; // a node that names itself (a loop's)
    std::string H = hashOf(rewrite(It->second.first, nullptr));
    Metadata[N].second = H;
    return H;
  }

  Item &canonical(Item &I) {
    if (I.Hash.empty())
      I.Hash = hashOf(rewrite(I.Text, &I.Names));
    return I;
  }

  std::string All;
  llvm::StringMap<Item> Items;
  std::map<unsigned, std::pair<llvm::StringRef, std::string>> Metadata; ///< text, hash once made
  llvm::DenseMap<unsigned, llvm::StringRef> Attributes;
};

/// The IR name of a global as the module's text writes it ("@f", "@\"a b\"").
std::string irName(const llvm::GlobalValue &G) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  G.printAsOperand(OS, /*PrintType=*/false);
  return OS.str();
}

/// The key of a cluster: its roots (sorted by name) and what they reach.
std::optional<std::string> clusterKey(const LoweredPart &Whole,
                                      const std::vector<std::pair<const clang::FunctionDecl *, const llvm::Function *>> &Roots,
                                      const std::vector<const llvm::Function *> &Reach, const ReuseContext &C,
                                      ModuleText &IR) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << C.Base << '\n';
  llvm::StringSet<> Reached;
  for (const auto &[FD, F] : Roots) {
    OS << "root " << F->getName() << (Whole.Kernels.count(F) ? " kernel\n" : "\n");
    C.RootInputs(FD, OS);
    IR.writeReach(irName(*F), OS, Reached);
  }
  std::vector<std::pair<std::string, int>> Arrays; // the shared variables it names, by id
  for (const auto &[G, VD] : Whole.SharedVars)
    if (std::string N = irName(*G); Reached.count(N))
      Arrays.push_back({N, C.ArrayId(VD)});
  llvm::sort(Arrays);
  for (const auto &[N, Id] : Arrays)
    OS << "array " << N << ' ' << Id << '\n';
  if (!writeSourceLines(Reach, C, OS))
    return std::nullopt;
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(OS.str()));
  return fmt::format("{:016x}{:016x}", H.high64, H.low64);
}

/// Roots optimised together, and every function they reach (by name).
struct Cluster {
  std::vector<std::pair<const clang::FunctionDecl *, const llvm::Function *>> Members;
  std::vector<const llvm::Function *> Reach;
};

/// The roots of a group that reach a common function the optimiser may leave
/// a call (one that calls itself, or one so large that its cost passes the
/// inliner's threshold); every other call is inlined into its root
/// (DeviceLowering.cpp), and a root's code is then its own.
std::vector<Cluster> clustersOf(const LoweredPart &Whole, const NamedFunctions &Named,
                                const std::vector<GroupedRoot> &Roots) {
  auto MayStayCalled = [&](const llvm::Function *G) {
    auto It = Named.find(G);
    return G->getInstructionCount() >= MayStayCalledInstructions ||
           (It != Named.end() && llvm::is_contained(It->second, G));
  };
  llvm::EquivalenceClasses<const clang::FunctionDecl *> Classes;
  std::map<std::pair<unsigned, const llvm::Function *>, const clang::FunctionDecl *> FirstToReach;
  std::map<const clang::FunctionDecl *, std::vector<const llvm::Function *>> Reaches;
  for (const GroupedRoot &R : Roots) {
    const llvm::Function *F = Whole.Functions.lookup(R.Decl);
    Classes.insert(R.Decl);
    Reaches[R.Decl] = reachOf(*F, Named);
    for (const llvm::Function *G : Reaches[R.Decl])
      if (G != F && MayStayCalled(G))
        if (auto [It, New] = FirstToReach.try_emplace({R.Group, G}, R.Decl); !New)
          Classes.unionSets(It->second, R.Decl);
  }
  std::vector<Cluster> Out;
  for (auto It = Classes.begin(); It != Classes.end(); ++It) {
    if (!It->isLeader())
      continue;
    Cluster &C = Out.emplace_back();
    llvm::DenseSet<const llvm::Function *> Seen;
    for (auto M = Classes.member_begin(It); M != Classes.member_end(); ++M) {
      C.Members.push_back({*M, Whole.Functions.lookup(*M)});
      for (const llvm::Function *G : Reaches[*M])
        if (Seen.insert(G).second)
          C.Reach.push_back(G);
    }
    llvm::sort(C.Members, [](const auto &A, const auto &B) { return A.second->getName() < B.second->getName(); });
    llvm::sort(C.Reach, [](const llvm::Function *A, const llvm::Function *B) { return A->getName() < B->getName(); });
  }
  return Out;
}

} // namespace

ReuseOutcome keepModels(LoweredPart &Whole, const NamedFunctions &Named, const std::vector<GroupedRoot> &Roots,
                        const ReuseContext &C) {
  ReuseOutcome Out;
  DeviceModelMemo::Impl &Memo = implOf(*C.Memo);
  ModuleText IR(*Whole.Module);
  std::vector<const clang::FunctionDecl *> Kept;
  for (const Cluster &Cl : clustersOf(Whole, Named, Roots)) {
    std::optional<std::string> Key = clusterKey(Whole, Cl.Members, Cl.Reach, C, IR);
    std::lock_guard<std::mutex> G(Memo.Lock);
    if (!Key) { // a file's text is not known: optimised, not kept
      Memo.Count.Optimised += Cl.Members.size();
      continue;
    }
    auto KeyOf = [&](const llvm::Function *F) { return *Key + "/" + F->getName().str(); };
    bool All = llvm::all_of(Cl.Members, [&](const auto &M) { return Memo.Entries.count(KeyOf(M.second)) > 0; });
    for (const auto &[FD, F] : Cl.Members) {
      if (!All) {
        Out.Keys[FD] = KeyOf(F);
        ++Memo.Count.Optimised;
        continue;
      }
      DeviceModelMemo::Impl::Entry &E = Memo.Entries[KeyOf(F)];
      E.Used = true;
      Out.Kept[FD] = E.Model;
      Kept.push_back(FD);
      ++Memo.Count.Kept;
    }
  }
  if (Kept.empty())
    return Out;
  keepWrittenVariables(*Whole.Module); // what the kept roots write is not known to the others
  for (const clang::FunctionDecl *FD : Kept) {
    llvm::Function *F = Whole.Functions.lookup(FD);
    Whole.Kernels.erase(F);
    Whole.Functions.erase(FD);
    F->deleteBody();
    F->setComdat(nullptr);
  }
  return Out;
}

} // namespace cbl
