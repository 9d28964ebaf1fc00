//===- Config.cpp - Reading, merging and dumping the YAML configuration ----===//
#include "cuda-bank-lint/Driver/Config.h"
#include "cuda-bank-lint/BankModel/BankModel.h"
#include "cuda-bank-lint/Driver/Analyzer.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

namespace cbl {

namespace {

constexpr const char *ConfigFileName = ".cuda-bank-lint.yaml";

/// Walks the node tree; the first error is printed through the SourceMgr
/// (file:line:col: error: ...) and stops the walk.
class ConfigReader {
public:
  ConfigReader(const std::string &Text, const std::string &Name)
      : Buffer(llvm::MemoryBuffer::getMemBufferCopy(Text, Name)), OS(Errors) {
    SM.setDiagHandler(
        [](const llvm::SMDiagnostic &D, void *Ctx) {
          auto *Self = static_cast<ConfigReader *>(Ctx);
          if (Self->Failed)
            return; // the first error is the useful one
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
      if (!Root || llvm::isa<llvm::yaml::NullNode>(Root))
        continue;
      auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Root);
      if (!Map) {
        fail(Root, "the configuration must be a mapping of keys to values");
        break;
      }
      for (llvm::yaml::KeyValueNode &KV : *Map) {
        if (Failed)
          break;
        readKey(KV, C);
      }
      if (Failed)
        break;
    }
    OS.flush();
    if (Failed || S.failed()) {
      Error = Errors.empty() ? "error: cannot parse '" + C.Sources.front() + "'\n" : Errors;
      return std::nullopt;
    }
    return C;
  }

private:
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  llvm::SourceMgr SM;
  llvm::yaml::Stream *Stream = nullptr;
  std::string Errors;
  llvm::raw_string_ostream OS;
  bool Failed = false;

  void fail(llvm::yaml::Node *N, const llvm::Twine &Message) {
    if (!Failed)
      Stream->printError(N, Message);
  }

  std::optional<std::string> scalar(llvm::yaml::Node *N, llvm::StringRef Key) {
    auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N);
    if (!S) {
      fail(N, "'" + Key + "' expects a single value");
      return std::nullopt;
    }
    llvm::SmallString<64> Storage;
    return S->getValue(Storage).str();
  }

  std::optional<std::vector<std::string>> list(llvm::yaml::Node *N, llvm::StringRef Key) {
    std::vector<std::string> Out;
    if (auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N)) {
      for (llvm::yaml::Node &E : *Seq) {
        auto V = scalar(&E, Key);
        if (!V)
          return std::nullopt;
        Out.push_back(*V);
      }
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
    for (llvm::yaml::KeyValueNode &KV : *Map) {
      auto Glob = scalar(KV.getKey(), "BlockDim");
      if (!Glob)
        return;
      std::string Text;
      if (auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(KV.getValue())) {
        for (llvm::yaml::Node &E : *Seq) {
          auto V = scalar(&E, "BlockDim");
          if (!V)
            return;
          Text += (Text.empty() ? "" : ",") + *V;
        }
      } else if (auto V = scalar(KV.getValue(), "BlockDim")) {
        Text = *V;
      } else {
        return;
      }
      auto Dim = parseBlockDim(Text);
      if (!Dim) {
        fail(KV.getValue(), "invalid value for 'BlockDim' of '" + *Glob +
                                "': expected [x, y, z] with at most 1024 threads, got '" + Text +
                                "'");
        return;
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
    for (llvm::yaml::KeyValueNode &KV : *Map) {
      auto Key = scalar(KV.getKey(), "CheckOptions");
      if (!Key)
        return;
      // Check names are not validated: a check may report under several
      // names (cuda-barrier-early-exit comes from cuda-barrier-divergence).
      auto [Check, Option] = llvm::StringRef(*Key).rsplit('.');
      if (Check.empty() || Option.empty()) {
        fail(KV.getKey(), "invalid key '" + *Key + "' in 'CheckOptions' (expected "
                              "'check-name.Option')");
        return;
      }
      auto V = scalar(KV.getValue(), *Key);
      if (!V)
        return;
      C.CheckOptions[*Key] = *V;
    }
  }

  void readKey(llvm::yaml::KeyValueNode &KV, Config &C) {
    auto KeyText = scalar(KV.getKey(), "key");
    if (!KeyText)
      return;
    llvm::StringRef Key = *KeyText;
    llvm::yaml::Node *V = KV.getValue();
    auto string = [&](std::optional<std::string> &Slot) {
      if (auto S = scalar(V, Key))
        Slot = *S;
    };
    auto boolean = [&](auto &Slot) {
      if (auto S = scalar(V, Key)) {
        if (*S == "true" || *S == "false")
          Slot = *S == "true";
        else
          fail(V, "invalid value for '" + Key.str() + "': expected true or false, got '" + *S + "'");
      }
    };
    if (Key == "Checks") {
      string(C.Checks);
    } else if (Key == "WarningsAsErrors") {
      string(C.WarningsAsErrors);
    } else if (Key == "HeaderFilterRegex") {
      string(C.HeaderFilterRegex);
      std::string Why;
      if (C.HeaderFilterRegex && !C.HeaderFilterRegex->empty() &&
          !llvm::Regex(*C.HeaderFilterRegex).isValid(Why))
        fail(V, "invalid value for 'HeaderFilterRegex': " + Why);
    } else if (Key == "Arch") {
      string(C.Arch);
      if (C.Arch && !bankArchFromName(*C.Arch))
        fail(V, "invalid value for 'Arch': '" + *C.Arch + "' (expected sm_XX or sm_3x-8byte)");
    } else if (Key == "MinConflictDegree") {
      if (auto S = scalar(V, Key)) {
        unsigned N = 0;
        if (llvm::StringRef(*S).getAsInteger(10, N) || N < 1 || N > 64)
          fail(V, "invalid value for 'MinConflictDegree': expected an integer from 1 to 64, got '" +
                      *S + "'");
        else
          C.MinConflictDegree = N;
      }
    } else if (Key == "BlockDim") {
      readBlockDims(V, C);
    } else if (Key == "ExtraArgs" || Key == "ExtraArgsBefore") {
      if (auto L = list(V, Key))
        (Key == "ExtraArgs" ? C.ExtraArgs : C.ExtraArgsBefore) = *L;
    } else if (Key == "CheckOptions") {
      readCheckOptions(V, C);
    } else if (Key == "LaunchArguments") {
      boolean(C.LaunchArguments);
    } else if (Key == "SystemHeaders") {
      boolean(C.SystemHeaders);
    } else if (Key == "InheritParentConfig") {
      boolean(C.InheritParentConfig);
    } else {
      fail(KV.getKey(), "unknown key '" + Key +
                            "' (known: Checks, WarningsAsErrors, HeaderFilterRegex, Arch, "
                            "MinConflictDegree, BlockDim, LaunchArguments, SystemHeaders, ExtraArgs, "
                            "ExtraArgsBefore, CheckOptions, InheritParentConfig)");
    }
  }
};

std::string quoted(const std::string &S) {
  std::string Out = "'";
  for (char Ch : S)
    Out += Ch == '\'' ? std::string("''") : std::string(1, Ch);
  return Out + "'";
}

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
  inherit(M.Checks, Parent.Checks);
  inherit(M.WarningsAsErrors, Parent.WarningsAsErrors);
  inherit(M.HeaderFilterRegex, Parent.HeaderFilterRegex);
  inherit(M.Arch, Parent.Arch);
  inherit(M.MinConflictDegree, Parent.MinConflictDegree);
  inherit(M.LaunchArguments, Parent.LaunchArguments);
  inherit(M.SystemHeaders, Parent.SystemHeaders);
  M.BlockDim.insert(M.BlockDim.end(), Parent.BlockDim.begin(), Parent.BlockDim.end());
  M.ExtraArgs.insert(M.ExtraArgs.begin(), Parent.ExtraArgs.begin(), Parent.ExtraArgs.end());
  M.ExtraArgsBefore.insert(M.ExtraArgsBefore.begin(), Parent.ExtraArgsBefore.begin(),
                           Parent.ExtraArgsBefore.end());
  for (const auto &[K, V] : Parent.CheckOptions)
    M.CheckOptions.emplace(K, V); // keeps the child's value
  M.Sources.insert(M.Sources.end(), Parent.Sources.begin(), Parent.Sources.end());
  return M;
}

std::optional<Config> discoverConfig(const std::string &Path, std::string &Error) {
  llvm::SmallString<256> Dir(Path);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, true);
  if (!llvm::sys::fs::is_directory(Dir))
    llvm::sys::path::remove_filename(Dir);
  return discoverFrom(Dir, Error);
}

std::optional<Config> discoverParentConfig(const std::string &Dir, std::string &Error) {
  llvm::SmallString<256> D(Dir);
  llvm::sys::fs::make_absolute(D);
  return discoverFrom(llvm::sys::path::parent_path(D), Error);
}

std::string dumpConfig(const Config &C) {
  std::string S = "---\n";
  llvm::raw_string_ostream OS(S);
  for (const std::string &Src : C.Sources)
    OS << "# from " << Src << "\n";
  OS << "Checks: " << quoted(C.Checks.value_or("cuda-*")) << "\n";
  OS << "WarningsAsErrors: " << quoted(C.WarningsAsErrors.value_or("")) << "\n";
  OS << "HeaderFilterRegex: " << quoted(C.HeaderFilterRegex.value_or(".*")) << "\n";
  OS << "Arch: " << quoted(C.Arch.value_or("sm_90")) << "\n";
  OS << "MinConflictDegree: " << C.MinConflictDegree.value_or(2) << "\n";
  OS << "LaunchArguments: " << (C.LaunchArguments.value_or(true) ? "true" : "false") << "\n";
  OS << "SystemHeaders: " << (C.SystemHeaders.value_or(false) ? "true" : "false") << "\n";
  OS << "BlockDim:";
  if (C.BlockDim.empty())
    OS << " {}";
  for (const BlockDimRule &R : C.BlockDim)
    OS << "\n  " << quoted(R.Glob) << ": [" << R.Dim[0] << ", " << R.Dim[1] << ", " << R.Dim[2]
       << "]";
  OS << "\n";
  auto list = [&](const char *Key, const std::vector<std::string> &L) {
    OS << Key << ": [";
    for (size_t I = 0; I < L.size(); ++I)
      OS << (I ? ", " : "") << quoted(L[I]);
    OS << "]\n";
  };
  list("ExtraArgs", C.ExtraArgs);
  list("ExtraArgsBefore", C.ExtraArgsBefore);
  OS << "CheckOptions:";
  if (C.CheckOptions.empty())
    OS << " {}";
  for (const auto &[K, V] : C.CheckOptions)
    OS << "\n  " << quoted(K) << ": " << quoted(V);
  OS << "\n...\n";
  return OS.str();
}

} // namespace cbl
