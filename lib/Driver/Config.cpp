//===- Config.cpp - Reading, validating, merging and dumping the configuration ===//
#include "cuda-bank-lint/Driver/Config.h"
#include "cuda-bank-lint/BankModel/BankModel.h"
#include "cuda-bank-lint/Checks/Check.h"
#include "cuda-bank-lint/Driver/Analyzer.h"
#include "cuda-bank-lint/Support/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace cbl {

namespace {

constexpr const char *ConfigFileName = ".cuda-bank-lint.yaml";

/// The keys of a configuration file.
enum class Key {
  Checks, WarningsAsErrors, HeaderFilterRegex, ExcludeHeaderFilterRegex, Arch,
  MinConflictDegree, BlockDim, LaunchArguments, SystemHeaders, Strict, Remarks, ExtraArgs,
  ExtraArgsBefore,
  CheckOptions, InheritParentConfig
};
constexpr std::pair<const char *, Key> Keys[] = {
    {"Checks", Key::Checks},
    {"WarningsAsErrors", Key::WarningsAsErrors},
    {"HeaderFilterRegex", Key::HeaderFilterRegex},
    {"ExcludeHeaderFilterRegex", Key::ExcludeHeaderFilterRegex},
    {"Arch", Key::Arch},
    {"MinConflictDegree", Key::MinConflictDegree},
    {"BlockDim", Key::BlockDim},
    {"LaunchArguments", Key::LaunchArguments},
    {"SystemHeaders", Key::SystemHeaders},
    {"Strict", Key::Strict},
    {"Remarks", Key::Remarks},
    {"ExtraArgs", Key::ExtraArgs},
    {"ExtraArgsBefore", Key::ExtraArgsBefore},
    {"CheckOptions", Key::CheckOptions},
    {"InheritParentConfig", Key::InheritParentConfig},
};

/// The closest of Candidates to Value, as clang-tidy suggests ("did you mean").
std::string closest(llvm::StringRef Value, const std::vector<std::string> &Candidates) {
  unsigned Best = 5;
  std::string Found;
  for (const std::string &C : Candidates) {
    unsigned D = Value.edit_distance_insensitive(C, true, Best);
    if (D < Best) {
      Best = D;
      Found = C;
    }
  }
  return Found;
}

std::string didYouMean(llvm::StringRef Value, const std::vector<std::string> &Candidates) {
  std::string C = closest(Value, Candidates);
  return C.empty() ? "" : "; did you mean '" + C + "'";
}

/// The items of a glob list, without their '-'.
std::vector<std::string> globItems(const std::string &Globs) {
  std::vector<std::string> Items;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Globs).split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    P.consume_front("-");
    if (!P.empty())
      Items.push_back(P.str());
  }
  return Items;
}

std::vector<std::string> checkOptionKeys() {
  std::vector<std::string> Out;
  for (const CheckInfo &C : registeredChecks())
    for (const CheckOptionInfo &O : C.Options)
      Out.push_back(O.Key);
  return Out;
}

/// "a, b or c".
std::string alternatives(const std::vector<std::string> &Values) {
  std::string Out;
  for (size_t I = 0; I < Values.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Values.size() ? " or " : ", ") + Values[I];
  return Out;
}

/// Walks the node tree. YAML syntax errors stop the walk (what follows one
/// is noise); every invalid key or value is reported, through the SourceMgr
/// (file:line:col: error: ...).
///
/// llvm::yaml parses lazily, and a collection can be skipped only before it
/// is read or once it is read to its end (yaml::skip: "Cannot skip mid
/// parse!"; without assertions it leaves the parser inside the collection,
/// and the document loop then never ends on the block end it left behind).
/// So every loop over a collection here runs to the end, even after an
/// error: the elements after it are skipped, not read.
class ConfigReader {
public:
  ConfigReader(const std::string &Text, const std::string &Name)
      : Buffer(llvm::MemoryBuffer::getMemBufferCopy(Text, Name)), OS(Errors) {
    SM.setDiagHandler(
        [](const llvm::SMDiagnostic &D, void *Ctx) {
          auto *Self = static_cast<ConfigReader *>(Ctx);
          if (Self->SyntaxFailed)
            return;
          Self->SyntaxFailed = !Self->InValueCheck;
          Self->Failed = true;
          D.print(nullptr, Self->OS, /*ShowColors=*/false);
        },
        this);
  }

  std::optional<Config> read(std::string &Error) {
    Config C;
    C.Sources.push_back(Buffer->getBufferIdentifier().str());
    llvm::yaml::Stream S(Buffer->getMemBufferRef(), SM, /*ShowColors=*/false);
    Stream = &S;
    for (llvm::yaml::Document &Doc : S) {
      llvm::yaml::Node *Root = Doc.getRoot();
      if (SyntaxFailed)
        break;
      if (!Root || llvm::isa<llvm::yaml::NullNode>(Root))
        continue;
      auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Root);
      if (!Map) {
        fail(Root, "the configuration must be a mapping of keys to values");
        break;
      }
      for (llvm::yaml::KeyValueNode &KV : *Map)
        if (!SyntaxFailed)
          readKey(KV, C);
      if (SyntaxFailed)
        break;
    }
    OS.flush();
    if (Failed || S.failed()) {
      Error = Errors.empty() ? "error: cannot parse '" + C.Sources.front() + "'\n" : Errors;
      return std::nullopt;
    }
    C.Unverified = std::move(Warnings);
    return C;
  }

private:
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  llvm::SourceMgr SM;
  llvm::yaml::Stream *Stream = nullptr;
  std::string Errors;
  llvm::raw_string_ostream OS;
  std::vector<std::string> Warnings;
  bool Failed = false, SyntaxFailed = false, InValueCheck = false;

  void fail(llvm::yaml::Node *N, const llvm::Twine &Message) {
    if (SyntaxFailed || !N)
      return;
    InValueCheck = true;
    Stream->printError(N, Message);
    InValueCheck = false;
  }

  void warn(llvm::yaml::Node *N, const llvm::Twine &Message) {
    std::string Text;
    llvm::raw_string_ostream W(Text);
    SM.GetMessage(N->getSourceRange().Start, llvm::SourceMgr::DK_Warning, Message,
                  N->getSourceRange())
        .print(nullptr, W, /*ShowColors=*/false);
    Warnings.push_back(W.str());
  }

  void invalid(llvm::yaml::Node *N, llvm::StringRef Key, const std::string &Why) {
    fail(N, "invalid value for '" + Key + "': " + Why);
  }

  std::optional<std::string> scalar(llvm::yaml::Node *N, llvm::StringRef Key) {
    auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N);
    if (!S) {
      fail(N, "'" + Key + "' expects a single value");
      return std::nullopt;
    }
    llvm::SmallString<64> Storage;
    llvm::StringRef Value = S->getValue(Storage);
    // Escapes ("\0", "\ud800") can make what the scanner would not accept
    // raw; neither survives the dump, a file name or a compiler flag.
    if (Value.contains('\0')) {
      fail(N, "'" + Key + "' contains a NUL character");
      return std::nullopt;
    }
    if (!llvm::json::isUTF8(Value)) {
      fail(N, "'" + Key + "' is not valid UTF-8");
      return std::nullopt;
    }
    return Value.str();
  }

  std::optional<std::vector<std::string>> list(llvm::yaml::Node *N, llvm::StringRef Key) {
    std::vector<std::string> Out;
    if (auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N)) {
      bool Bad = false;
      for (llvm::yaml::Node &E : *Seq) {
        if (Bad)
          continue; // skipped: see the class comment
        auto V = scalar(&E, Key);
        Bad = !V;
        if (V)
          Out.push_back(*V);
      }
      if (Bad)
        return std::nullopt;
      return Out;
    }
    auto V = scalar(N, Key);
    if (!V)
      return std::nullopt;
    Out.push_back(*V);
    return Out;
  }

  void readBlockDims(llvm::yaml::Node *N, Config &C) {
    auto *Map = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(N);
    if (!Map) {
      fail(N, "'BlockDim' expects a mapping of kernel-name globs to [x, y, z], e.g. "
              "{ 'transpose*': [32, 8] }");
      return;
    }
    bool Bad = false;
    for (llvm::yaml::KeyValueNode &KV : *Map) {
      if (Bad)
        continue; // skipped: see the class comment
      auto Glob = scalar(KV.getKey(), "BlockDim");
      auto Values = Glob ? list(KV.getValue(), "BlockDim") : std::nullopt;
      if (!Values) {
        Bad = true;
        continue;
      }
      std::string Text = llvm::join(*Values, ",");
      auto Dim = parseBlockDim(Text);
      if (!Dim) {
        fail(KV.getValue(), "invalid value for 'BlockDim' of '" + *Glob +
                                "': expected [x, y, z] with at most 1024 threads, got '" + Text +
                                "'");
        continue;
      }
      unsigned Line = SM.getLineAndColumn(KV.getKey()->getSourceRange().Start).first;
      C.BlockDim.push_back({*Glob, *Dim, C.Sources.front() + ":" + std::to_string(Line)});
    }
  }

  void readCheckOptions(llvm::yaml::Node *N, Config &C) {
    auto *Map = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(N);
    if (!Map) {
      fail(N, "'CheckOptions' expects a mapping of 'check-name.Option' to values");
      return;
    }
    bool Bad = false;
    for (llvm::yaml::KeyValueNode &KV : *Map) {
      if (Bad)
        continue; // skipped: see the class comment
      auto Key = scalar(KV.getKey(), "CheckOptions");
      if (!Key) {
        Bad = true;
        continue;
      }
      auto V = scalar(KV.getValue(), *Key);
      if (!V)
        continue;
      const CheckOptionInfo *O = findCheckOption(*Key);
      if (!O) {
        fail(KV.getKey(), "unknown check option '" + *Key + "'" +
                              didYouMean(*Key, checkOptionKeys()) + " (known: " +
                              llvm::join(checkOptionKeys(), ", ") + ")");
        continue;
      }
      if (!llvm::is_contained(O->Values, *V)) {
        invalid(KV.getValue(), *Key,
                "expected " + alternatives(O->Values) + ", got '" + *V + "'");
        continue;
      }
      C.CheckOptions[*Key] = *V;
    }
  }

  /// A glob list: the globs must parse; names matching no check are
  /// --verify-config warnings.
  void readGlobs(llvm::yaml::Node *V, llvm::StringRef Key, std::optional<std::string> &Slot) {
    auto S = scalar(V, Key);
    if (!S)
      return;
    if (std::string Why = checkGlobsError(*S); !Why.empty())
      return invalid(V, Key, Why);
    Slot = *S;
    if (Key == "Checks")
      for (const std::string &W : unknownCheckGlobs(*S))
        warn(V, W + " [-verify-config]");
  }

  void readRegex(llvm::yaml::Node *V, llvm::StringRef Key, std::optional<std::string> &Slot) {
    auto S = scalar(V, Key);
    if (!S)
      return;
    if (std::string Why = regexError(*S); !Why.empty())
      return invalid(V, Key, Why);
    Slot = *S;
  }

  void readBool(llvm::yaml::Node *V, llvm::StringRef Key, std::optional<bool> &Slot) {
    auto S = scalar(V, Key);
    if (!S)
      return;
    if (*S == "true" || *S == "false")
      Slot = *S == "true";
    else
      invalid(V, Key, "expected true or false, got '" + *S + "'");
  }

  void readKey(llvm::yaml::KeyValueNode &KV, Config &C) {
    auto KeyText = scalar(KV.getKey(), "key");
    if (!KeyText)
      return;
    llvm::StringRef Name = *KeyText;
    llvm::yaml::Node *V = KV.getValue();
    const auto *Found = llvm::find_if(Keys, [&](const auto &K) { return Name == K.first; });
    if (Found == std::end(Keys)) {
      std::vector<std::string> Known;
      for (const auto &K : Keys)
        Known.push_back(K.first);
      return fail(KV.getKey(), "unknown key '" + Name + "'" + didYouMean(Name, Known) +
                                   " (known: " + llvm::join(Known, ", ") + ")");
    }
    switch (Found->second) {
    case Key::Checks:
      return readGlobs(V, Name, C.Checks);
    case Key::WarningsAsErrors:
      return readGlobs(V, Name, C.WarningsAsErrors);
    case Key::HeaderFilterRegex:
      return readRegex(V, Name, C.HeaderFilterRegex);
    case Key::ExcludeHeaderFilterRegex:
      return readRegex(V, Name, C.ExcludeHeaderFilterRegex);
    case Key::Arch:
      if (auto S = scalar(V, Name)) {
        if (std::string Why = archError(*S); !Why.empty())
          return invalid(V, Name, Why);
        C.Arch = *S;
      }
      return;
    case Key::MinConflictDegree:
      if (auto S = scalar(V, Name)) {
        unsigned N = 0;
        if (std::string Why = minConflictDegreeError(*S, N); !Why.empty())
          return invalid(V, Name, Why);
        C.MinConflictDegree = N;
      }
      return;
    case Key::BlockDim:
      return readBlockDims(V, C);
    case Key::ExtraArgs:
    case Key::ExtraArgsBefore:
      if (auto L = list(V, Name))
        (Found->second == Key::ExtraArgs ? C.ExtraArgs : C.ExtraArgsBefore) = *L;
      return;
    case Key::CheckOptions:
      return readCheckOptions(V, C);
    case Key::LaunchArguments:
      return readBool(V, Name, C.LaunchArguments);
    case Key::SystemHeaders:
      return readBool(V, Name, C.SystemHeaders);
    case Key::Strict:
      return readBool(V, Name, C.Strict);
    case Key::Remarks:
      return readBool(V, Name, C.Remarks);
    case Key::InheritParentConfig: {
      std::optional<bool> B;
      readBool(V, Name, B);
      C.InheritParentConfig = B.value_or(false);
      return;
    }
    }
  }
};

std::optional<Config> discoverFrom(llvm::StringRef Dir, std::string &Error) {
  for (llvm::StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> P(D);
    llvm::sys::path::append(P, ConfigFileName);
    if (!llvm::sys::fs::exists(P))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(P, /*IsText=*/true);
    if (!Buf) {
      Error = "error: cannot read '" + std::string(P) + "': " + Buf.getError().message() + "\n";
      return std::nullopt;
    }
    auto C = parseConfig((*Buf)->getBuffer().str(), std::string(P), Error);
    if (!C || !C->InheritParentConfig)
      return C;
    auto Parent = discoverFrom(llvm::sys::path::parent_path(D), Error);
    if (!Parent)
      return std::nullopt;
    return mergeConfig(*Parent, *C);
  }
  return Config();
}

} // namespace

std::string checkGlobsError(const std::string &Globs) {
  for (const std::string &G : globItems(Globs))
    if (auto P = llvm::GlobPattern::create(G); !P)
      return "'" + G + "' is not a valid glob (" + llvm::toString(P.takeError()) + ")";
  return "";
}

std::string regexError(const std::string &Regex) {
  std::string Why;
  if (!Regex.empty() && !llvm::Regex(Regex).isValid(Why))
    return "'" + Regex + "' is not a valid regular expression (" + Why + ")";
  return "";
}

/// Compute capabilities NVIDIA has shipped (CUDA 1.0 to 13), the only
/// numbers sm_XX may carry: every one has a bank model (BankModel.h).
constexpr unsigned KnownArchs[] = {10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61,
                                   62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110,
                                   120, 121};

const char *archValues() {
  return "sm_XX or compute_XX for a CUDA compute capability (10-13, 20, 21, 30, 32, 35, 37, "
         "50, 52, 53, 60-62, 70, 72, 75, 80, 86-90, 100, 101, 103, 110, 120, 121; an 'a' or "
         "'f' suffix is accepted), sm_3x-8byte (Kepler's eight-byte bank mode), sm_70+ or "
         "sm_1x";
}

std::string archError(const std::string &Arch) {
  for (BankArch A : {BankArch::Sm70Plus, BankArch::Sm3xEightByte, BankArch::Sm1x})
    if (Arch == bankArchName(A))
      return "";
  llvm::StringRef S(Arch);
  S.consume_front("sm_") || S.consume_front("compute_");
  if (S.ends_with("a") || S.ends_with("f"))
    S = S.drop_back();
  unsigned N = 0;
  if (!S.getAsInteger(10, N) && llvm::is_contained(KnownArchs, N) && bankArchFromName(Arch))
    return "";
  return "unknown architecture '" + Arch + "' (expected " + archValues() + ")";
}

std::string minConflictDegreeError(const std::string &Text, unsigned &Degree) {
  if (llvm::StringRef(Text).trim().getAsInteger(10, Degree) ||
      Degree < DefaultMinConflictDegree || Degree > MaxConflictDegree)
    return "expected an integer from " + std::to_string(DefaultMinConflictDegree) + " to " +
           std::to_string(MaxConflictDegree) + ", got '" + Text + "'";
  return "";
}

std::vector<std::string> unknownCheckGlobs(const std::string &Globs) {
  std::vector<std::string> Out;
  std::vector<std::string> Names = allCheckNames();
  for (const std::string &G : globItems(Globs)) {
    auto P = llvm::GlobPattern::create(G);
    if (!P) {
      llvm::consumeError(P.takeError());
      continue;
    }
    if (llvm::any_of(Names, [&](const std::string &N) { return P->match(N); }))
      continue;
    if (llvm::StringRef(G).contains('*'))
      Out.push_back("check glob '" + G + "' doesn't match any known check");
    else
      Out.push_back("unknown check '" + G + "'" + didYouMean(G, Names));
  }
  return Out;
}

std::string appendGlobs(const std::optional<std::string> &Globs, const std::string &More) {
  if (!Globs || Globs->empty())
    return More;
  if (More.empty())
    return *Globs;
  return *Globs + "," + More;
}

std::string effectiveChecks(const Config &C) {
  return appendGlobs(std::string(DefaultChecks), C.Checks.value_or(""));
}

std::optional<Config> parseConfig(const std::string &Text, const std::string &Name,
                                  std::string &Error) {
  ConfigReader R(Text, Name);
  return R.read(Error);
}

Config mergeConfig(const Config &Parent, const Config &Child) {
  Config M = Child;
  auto inherit = [](auto &Slot, const auto &From) {
    if (!Slot)
      Slot = From;
  };
  if (Parent.Checks)
    M.Checks = appendGlobs(Parent.Checks, Child.Checks.value_or(""));
  inherit(M.WarningsAsErrors, Parent.WarningsAsErrors);
  inherit(M.HeaderFilterRegex, Parent.HeaderFilterRegex);
  inherit(M.ExcludeHeaderFilterRegex, Parent.ExcludeHeaderFilterRegex);
  inherit(M.Arch, Parent.Arch);
  inherit(M.MinConflictDegree, Parent.MinConflictDegree);
  inherit(M.LaunchArguments, Parent.LaunchArguments);
  inherit(M.SystemHeaders, Parent.SystemHeaders);
  inherit(M.Strict, Parent.Strict);
  inherit(M.Remarks, Parent.Remarks);
  M.BlockDim.insert(M.BlockDim.end(), Parent.BlockDim.begin(), Parent.BlockDim.end());
  M.ExtraArgs.insert(M.ExtraArgs.begin(), Parent.ExtraArgs.begin(), Parent.ExtraArgs.end());
  M.ExtraArgsBefore.insert(M.ExtraArgsBefore.begin(), Parent.ExtraArgsBefore.begin(),
                           Parent.ExtraArgsBefore.end());
  for (const auto &[K, V] : Parent.CheckOptions)
    M.CheckOptions.emplace(K, V); // keeps the child's value
  M.Sources.insert(M.Sources.end(), Parent.Sources.begin(), Parent.Sources.end());
  M.Unverified.insert(M.Unverified.end(), Parent.Unverified.begin(), Parent.Unverified.end());
  return M;
}

std::optional<Config> discoverConfig(const std::string &Path, std::string &Error) {
  llvm::SmallString<256> Dir(absolutePath(Path));
  if (!llvm::sys::fs::is_directory(Dir))
    llvm::sys::path::remove_filename(Dir);
  return discoverFrom(Dir, Error);
}

std::optional<Config> discoverParentConfig(const std::string &Dir, std::string &Error) {
  llvm::SmallString<256> D(Dir);
  llvm::sys::fs::make_absolute(D);
  return discoverFrom(llvm::sys::path::parent_path(D), Error);
}

namespace {

/// The effective configuration as --dump-config writes it: every setting,
/// defaults filled in, in the order of the Keys table.
struct Dim3 {
  std::array<unsigned, 3> D{{1, 1, 1}};
};
/// A string inside a flow sequence (ExtraArgs: [ ... ]), where , [ ] { }
/// end a plain scalar although llvm::yaml::needsQuotes lets them stand
/// unquoted: '-DPAIR=a,b' must come back as one argument.
struct FlowString {
  std::string Text;
};
struct ArgList {
  std::vector<FlowString> Items;
};
struct DimRules {
  std::vector<std::pair<std::string, Dim3>> Rules;
};
struct OptionMap {
  std::map<std::string, std::string> Values;
};
struct Dumped {
  std::string Checks, WarningsAsErrors, HeaderFilterRegex, ExcludeHeaderFilterRegex, Arch;
  unsigned MinConflictDegree = DefaultMinConflictDegree;
  DimRules BlockDim;
  bool LaunchArguments = true, SystemHeaders = false, Strict = false, Remarks = false;
  ArgList ExtraArgs, ExtraArgsBefore;
  OptionMap CheckOptions;
};

} // namespace
} // namespace cbl

namespace llvm::yaml {

template <> struct SequenceTraits<cbl::Dim3> {
  static size_t size(IO &, cbl::Dim3 &) { return 3; }
  static unsigned &element(IO &, cbl::Dim3 &V, size_t I) { return V.D[I]; }
  static const bool flow = true;
};

template <> struct ScalarTraits<cbl::FlowString> {
  static void output(const cbl::FlowString &S, void *, raw_ostream &OS) { OS << S.Text; }
  static StringRef input(StringRef Scalar, void *, cbl::FlowString &S) {
    S.Text = Scalar.str();
    return "";
  }
  static QuotingType mustQuote(StringRef S) {
    QuotingType Q = needsQuotes(S);
    if (Q == QuotingType::None && S.find_first_of(",[]{}") != StringRef::npos)
      Q = QuotingType::Single;
    return Q;
  }
};

template <> struct SequenceTraits<cbl::ArgList> {
  static size_t size(IO &, cbl::ArgList &L) { return L.Items.size(); }
  static cbl::FlowString &element(IO &, cbl::ArgList &L, size_t I) {
    if (I >= L.Items.size())
      L.Items.resize(I + 1);
    return L.Items[I];
  }
  static const bool flow = true;
};

template <> struct CustomMappingTraits<cbl::DimRules> {
  static void inputOne(IO &Io, StringRef Key, cbl::DimRules &R) {
    R.Rules.emplace_back(Key.str(), cbl::Dim3());
    Io.mapRequired(Key.str().c_str(), R.Rules.back().second);
  }
  static void output(IO &Io, cbl::DimRules &R) {
    for (auto &[Glob, Dim] : R.Rules)
      Io.mapRequired(Glob.c_str(), Dim);
  }
};

template <> struct CustomMappingTraits<cbl::OptionMap> {
  static void inputOne(IO &Io, StringRef Key, cbl::OptionMap &M) {
    Io.mapRequired(Key.str().c_str(), M.Values[Key.str()]);
  }
  static void output(IO &Io, cbl::OptionMap &M) {
    for (auto &[K, V] : M.Values)
      Io.mapRequired(K.c_str(), V);
  }
};

template <> struct MappingTraits<cbl::Dumped> {
  static void mapping(IO &Io, cbl::Dumped &D) {
    Io.mapRequired("Checks", D.Checks);
    Io.mapRequired("WarningsAsErrors", D.WarningsAsErrors);
    Io.mapRequired("HeaderFilterRegex", D.HeaderFilterRegex);
    Io.mapRequired("ExcludeHeaderFilterRegex", D.ExcludeHeaderFilterRegex);
    Io.mapRequired("Arch", D.Arch);
    Io.mapRequired("MinConflictDegree", D.MinConflictDegree);
    Io.mapRequired("BlockDim", D.BlockDim);
    Io.mapRequired("LaunchArguments", D.LaunchArguments);
    Io.mapRequired("SystemHeaders", D.SystemHeaders);
    Io.mapRequired("Strict", D.Strict);
    Io.mapRequired("Remarks", D.Remarks);
    Io.mapRequired("ExtraArgs", D.ExtraArgs);
    Io.mapRequired("ExtraArgsBefore", D.ExtraArgsBefore);
    Io.mapRequired("CheckOptions", D.CheckOptions);
  }
};

} // namespace llvm::yaml

namespace cbl {

std::string dumpConfig(const Config &C) {
  Dumped D;
  D.Checks = C.Checks.value_or(DefaultChecks);
  D.WarningsAsErrors = C.WarningsAsErrors.value_or("");
  D.HeaderFilterRegex = C.HeaderFilterRegex.value_or(".*");
  D.ExcludeHeaderFilterRegex = C.ExcludeHeaderFilterRegex.value_or("");
  D.Arch = C.Arch.value_or(DefaultArch);
  D.MinConflictDegree = C.MinConflictDegree.value_or(DefaultMinConflictDegree);
  for (const BlockDimRule &R : C.BlockDim)
    D.BlockDim.Rules.push_back({R.Glob, Dim3{R.Dim}});
  D.LaunchArguments = C.LaunchArguments.value_or(true);
  D.SystemHeaders = C.SystemHeaders.value_or(false);
  D.Strict = C.Strict.value_or(false);
  D.Remarks = C.Remarks.value_or(false);
  for (const std::string &A : C.ExtraArgs)
    D.ExtraArgs.Items.push_back({A});
  for (const std::string &A : C.ExtraArgsBefore)
    D.ExtraArgsBefore.Items.push_back({A});
  D.CheckOptions.Values = C.CheckOptions;
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const std::string &Src : C.Sources)
    OS << "# from " << Src << "\n";
  llvm::yaml::Output Out(OS);
  Out << D;
  return OS.str();
}

} // namespace cbl
