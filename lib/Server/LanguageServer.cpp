//===- LanguageServer.cpp - `cuda-bank-lint --lsp` -------------------------===//
#include "cuda-bank-lint/Server/LanguageServer.h"
#include "cuda-bank-lint/Support/Paths.h"
#include "cuda-bank-lint/Server/Presentation.h"
#include "cuda-bank-lint/Support/BuildConfig.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <mutex>
#include <unistd.h>

namespace cbl {

namespace {

llvm::cl::opt<bool> StrayOutput("lsp-debug-stray-output", llvm::cl::Hidden,
                                llvm::cl::desc("Testing: write to stdout (printf, std::cout, "
                                               "llvm::outs) before each analysis"));

std::mutex LogLock;
void log(const llvm::Twine &Message) {
  std::lock_guard<std::mutex> G(LogLock);
  llvm::errs() << "cuda-bank-lint[lsp]: " << Message << "\n";
  llvm::errs().flush();
}

std::string printed(const llvm::json::Value &V) {
  std::string S;
  llvm::raw_string_ostream(S) << V;
  return S;
}

std::optional<Position> positionOf(const llvm::json::Object *P) {
  std::optional<int64_t> L = P ? P->getInteger("line") : std::nullopt;
  std::optional<int64_t> C = P ? P->getInteger("character") : std::nullopt;
  if (!L || !C || *L < 0 || *C < 0)
    return std::nullopt;
  return Position{unsigned(*L), unsigned(*C)};
}

std::optional<std::string> uriOf(const llvm::json::Object &P) {
  const llvm::json::Object *Doc = P.getObject("textDocument");
  std::optional<llvm::StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  return Uri ? std::optional<std::string>(Uri->str()) : std::nullopt;
}

/// Applies one entry of didChange's contentChanges to Text; false when it is
/// malformed.
bool applyChange(std::string &Text, const llvm::json::Object &Change, PositionEncoding E) {
  std::optional<llvm::StringRef> New = Change.getString("text");
  if (!New)
    return false;
  const llvm::json::Object *Range = Change.getObject("range");
  if (!Range) {
    Text = New->str();
    return true;
  }
  std::optional<Position> Begin = positionOf(Range->getObject("start"));
  std::optional<Position> End = positionOf(Range->getObject("end"));
  if (!Begin || !End)
    return false;
  LineIndex Index(Text, E);
  size_t From = Index.offset(*Begin), To = Index.offset(*End);
  if (To < From)
    return false;
  Text = Text.substr(0, From) + New->str() + Text.substr(To);
  return true;
}

} // namespace

LanguageServer::LanguageServer(Transport &T, ServerSetup Setup)
    : Wire(T), Files(std::move(Setup)),
      Analyses(
          [this](const Snapshot &S) {
            if (StrayOutput) {
              std::printf("stray printf\n");
              std::fflush(stdout);
              std::cout << "stray std::cout" << std::endl;
              llvm::outs() << "stray llvm::outs\n";
              llvm::outs().flush();
            }
            BufferResult R = Files.analyse(S);
            std::string Problem =
                R.Problem.empty() ? "" : "; " + llvm::StringRef(R.Problem).trim().str();
            log(llvm::formatv("analysed {0} (version {1}) in {2:f3} s, preamble {3}, verdicts "
                              "{4} reused, {5} computed: {6} findings, kernels {8} kept, {9} "
                              "optimised{7}",
                              S.Path, S.Version, R.Seconds, R.Preamble, R.VerdictsReused,
                              R.VerdictsComputed, R.Outcome.Report.Findings.size(), Problem,
                              R.KernelsKept, R.KernelsOptimised)
                    .str());
            return R;
          },
          [this](const std::string &Uri, const Scheduler::Result &R) { publish(Uri, R); }) {
  Requests["initialize"] = [this](const llvm::json::Value &Id, Params P) { initialize(Id, P); };
  Requests["shutdown"] = [this](const llvm::json::Value &Id, Params) {
    ShutDown = true;
    reply(Id, nullptr);
  };
  Requests["textDocument/hover"] = [this](const llvm::json::Value &Id, Params P) {
    std::optional<Position> At = positionOf(P.getObject("position"));
    if (!At)
      return fail(Id, ErrorCode::InvalidParams, "textDocument/hover needs a position");
    withAnalysis(Id, P, [this, At](const BufferResult &R) { return hover(R, *At, Encoding); });
  };
  Requests["textDocument/codeAction"] = [this](const llvm::json::Value &Id, Params P) {
    const llvm::json::Object *Range = P.getObject("range");
    std::optional<Position> Begin = positionOf(Range ? Range->getObject("start") : nullptr);
    std::optional<Position> End = positionOf(Range ? Range->getObject("end") : nullptr);
    if (!Begin || !End)
      return fail(Id, ErrorCode::InvalidParams, "textDocument/codeAction needs a range");
    withAnalysis(Id, P, [this, Begin, End](const BufferResult &R) {
      return llvm::json::Value(codeActions(R, *Begin, *End, Encoding));
    });
  };
  Notifications["initialized"] = [](Params) {};
  Notifications["textDocument/didOpen"] = [this](Params P) { didOpen(P); };
  Notifications["textDocument/didChange"] = [this](Params P) { didChange(P); };
  Notifications["textDocument/didClose"] = [this](Params P) { didClose(P); };
  Notifications["textDocument/didSave"] = [this](Params) {
    Files.filesChanged();
    Analyses.reanalyseAll();
  };
  Notifications["workspace/didChangeWatchedFiles"] = Notifications["textDocument/didSave"];
  Notifications["$/cancelRequest"] = [this](Params P) {
    const llvm::json::Value *Id = P.get("id");
    if (Id && Analyses.cancel(printed(*Id)))
      fail(*Id, ErrorCode::RequestCancelled, "cancelled");
  };
}

LanguageServer::~LanguageServer() { Analyses.stop(); }

void LanguageServer::reply(const llvm::json::Value &Id, llvm::json::Value Result) {
  Wire.send(response(Id, std::move(Result)));
}

void LanguageServer::fail(const llvm::json::Value &Id, ErrorCode Code, const std::string &Message) {
  log("error " + std::to_string(int(Code)) + ": " + Message);
  Wire.send(errorResponse(Id, Code, Message));
}

void LanguageServer::publish(const std::string &Uri, const Scheduler::Result &R) {
  llvm::json::Object Params{{"uri", Uri},
                            {"diagnostics", R ? diagnostics(*R, Encoding) : llvm::json::Array()}};
  if (R)
    Params["version"] = R->Of.Version;
  Wire.send(notification("textDocument/publishDiagnostics", std::move(Params)));
}

int LanguageServer::run() {
  for (;;) {
    Incoming In = Wire.read();
    if (In.What == Incoming::Kind::End) {
      log(ShutDown ? "input closed" : "input closed without shutdown and exit");
      return ShutDown ? 0 : 1;
    }
    if (In.What == Incoming::Kind::Malformed) {
      fail(nullptr, ErrorCode::ParseError, In.Error);
      continue;
    }
    const llvm::json::Object *O = In.Body.getAsObject();
    if (O && O->getString("method") == llvm::StringRef("exit") && !O->get("id"))
      return ShutDown ? 0 : 1;
    handle(In.Body);
  }
}

void LanguageServer::handle(const llvm::json::Value &Message) {
  static const llvm::json::Object NoParams;
  const llvm::json::Object *O = Message.getAsObject();
  if (!O)
    return fail(nullptr, ErrorCode::InvalidRequest, "a JSON-RPC message is an object");
  const llvm::json::Value *Id = O->get("id");
  llvm::json::Value Reply = Id ? *Id : llvm::json::Value(nullptr);
  if (Id && Id->kind() != llvm::json::Value::Number && Id->kind() != llvm::json::Value::String)
    return fail(nullptr, ErrorCode::InvalidRequest, "a request's id is a number or a string");
  if (O->getString("jsonrpc") != llvm::StringRef("2.0"))
    return fail(Reply, ErrorCode::InvalidRequest, "\"jsonrpc\" must be \"2.0\"");
  const llvm::json::Value *Method = O->get("method");
  if (!Method && Id && (O->get("result") || O->get("error")))
    return; // a response: this server sends no requests
  if (!Method || !Method->getAsString())
    return fail(Reply, ErrorCode::InvalidRequest, "a message without a method name");
  const llvm::json::Value *P = O->get("params");
  if (P && P->kind() == llvm::json::Value::Null)
    P = nullptr; // some clients send "params": null for shutdown and exit
  if (P && !P->getAsObject()) {
    if (Id)
      fail(Reply, ErrorCode::InvalidParams, "params must be an object");
    return;
  }
  const llvm::json::Object &Params = P ? *P->getAsObject() : NoParams;
  if (Id)
    request(*Method->getAsString(), *Id, Params);
  else
    notify(*Method->getAsString(), Params);
}

void LanguageServer::request(llvm::StringRef Method, const llvm::json::Value &Id, Params P) {
  if (ShutDown)
    return fail(Id, ErrorCode::InvalidRequest, "the server is shut down");
  if (!Initialized && Method != "initialize")
    return fail(Id, ErrorCode::ServerNotInitialized, "initialize first");
  auto It = Requests.find(Method.str());
  if (It == Requests.end())
    return fail(Id, ErrorCode::MethodNotFound, "method not found: " + Method.str());
  It->second(Id, P);
}

void LanguageServer::notify(llvm::StringRef Method, Params P) {
  if (!Initialized || ShutDown)
    return;
  auto It = Notifications.find(Method.str());
  if (It != Notifications.end())
    It->second(P);
  else if (!Method.starts_with("$/"))
    log("ignoring notification " + Method);
}

void LanguageServer::initialize(const llvm::json::Value &Id, Params P) {
  if (Initialized)
    return fail(Id, ErrorCode::InvalidRequest, "initialize was already called");
  const llvm::json::Object *Caps = P.getObject("capabilities");
  const llvm::json::Object *General = Caps ? Caps->getObject("general") : nullptr;
  if (const llvm::json::Array *E = General ? General->getArray("positionEncodings") : nullptr)
    for (const llvm::json::Value &V : *E)
      if (V.getAsString() == llvm::StringRef("utf-8"))
        Encoding = PositionEncoding::Utf8;
  if (const llvm::json::Object *Opts = P.getObject("initializationOptions")) {
    if (std::optional<llvm::StringRef> Db = Opts->getString("compilationDatabasePath")) {
      llvm::SmallString<256> Path(*Db);
      std::optional<llvm::StringRef> Root = P.getString("rootUri");
      std::optional<std::string> RootPath = Root ? pathFromUri(*Root) : std::nullopt;
      if (!llvm::sys::path::is_absolute(Path) && RootPath)
        llvm::sys::fs::make_absolute(*RootPath, Path);
      Files.setDatabasePath(absolutePath(std::string(Path)));
    }
    if (std::optional<int64_t> Ms = Opts->getInteger("debounceMs"); Ms && *Ms >= 0)
      Analyses.setDebounce(std::chrono::milliseconds(*Ms));
  }
  Initialized = true;
  llvm::json::Object Capabilities{
      {"positionEncoding", Encoding == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync", llvm::json::Object{{"openClose", true},
                                              {"change", 1}, // full text
                                              {"save", llvm::json::Object{{"includeText", false}}}}},
      {"hoverProvider", true},
      {"codeActionProvider",
       llvm::json::Object{{"codeActionKinds", llvm::json::Array{"quickfix"}}}}};
  reply(Id, llvm::json::Object{
                {"capabilities", std::move(Capabilities)},
                {"serverInfo", llvm::json::Object{{"name", "cuda-bank-lint"}, {"version", CBL_VERSION}}}});
}

void LanguageServer::didOpen(Params P) {
  const llvm::json::Object *Doc = P.getObject("textDocument");
  std::optional<llvm::StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  std::optional<llvm::StringRef> Text = Doc ? Doc->getString("text") : std::nullopt;
  if (!Uri || !Text)
    return log("didOpen without textDocument.uri and text: ignored");
  std::optional<std::string> Path = pathFromUri(*Uri);
  if (!Path)
    return log("didOpen of '" + *Uri + "': not a file URI; ignored");
  Analyses.open(Uri->str(), absolutePath(*Path), Doc->getInteger("version").value_or(0),
                Text->str());
}

void LanguageServer::didChange(Params P) {
  std::optional<std::string> Uri = uriOf(P);
  const llvm::json::Array *Changes = P.getArray("contentChanges");
  std::optional<std::string> Text = Uri ? Analyses.text(*Uri) : std::nullopt;
  if (!Text || !Changes)
    return log("didChange of a document that is not open, or without contentChanges: ignored");
  for (const llvm::json::Value &C : *Changes)
    if (!C.getAsObject() || !applyChange(*Text, *C.getAsObject(), Encoding))
      return log("didChange of '" + *Uri + "' with a malformed change: ignored");
  const llvm::json::Object *Doc = P.getObject("textDocument");
  Analyses.change(*Uri, Doc->getInteger("version").value_or(0), std::move(*Text));
}

void LanguageServer::didClose(Params P) {
  std::optional<std::string> Uri = uriOf(P);
  if (!Uri)
    return;
  Analyses.close(*Uri);
  if (std::optional<std::string> Path = pathFromUri(*Uri))
    Files.close(absolutePath(*Path));
}

void LanguageServer::withAnalysis(const llvm::json::Value &Id, Params P,
                                  std::function<llvm::json::Value(const BufferResult &)> Answer) {
  std::optional<std::string> Uri = uriOf(P);
  if (!Uri)
    return fail(Id, ErrorCode::InvalidParams, "textDocument.uri is missing");
  Analyses.whenAnalysed(*Uri, printed(Id),
                        [this, Id = llvm::json::Value(Id), Answer](const Scheduler::Result &R) {
                          reply(Id, R ? Answer(*R) : llvm::json::Value(nullptr));
                        });
}

int runLanguageServer(const ServerSetup &Setup) {
  // The protocol owns stdout: anything else that would be printed there
  // (a library's llvm::outs(), printf) goes to stderr, the log.
  int Protocol = ::dup(STDOUT_FILENO);
  if (Protocol < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    llvm::errs() << "cuda-bank-lint: error: --lsp cannot take over stdout\n";
    return 2;
  }
  ::fcntl(Protocol, F_SETFD, FD_CLOEXEC);
  log("cuda-bank-lint " CBL_VERSION " language server, LSP 3.17 on stdin/stdout");
  Transport Wire(STDIN_FILENO, Protocol);
  int Code;
  {
    LanguageServer Server(Wire, Setup);
    Code = Server.run();
  }
  ::close(Protocol);
  return Code;
}

} // namespace cbl
