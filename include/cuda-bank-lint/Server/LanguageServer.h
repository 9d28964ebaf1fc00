//===- LanguageServer.h - `cuda-bank-lint --lsp` --------------------------===//
//
// The Language Server Protocol 3.17 over stdin and stdout (docs/editors.md):
// initialize, initialized, shutdown, exit; textDocument/didOpen, didChange
// (full or incremental), didSave, didClose; textDocument/publishDiagnostics
// of each open buffer's text; textDocument/codeAction (the verified
// fix-its) and textDocument/hover (an access's verdict and lane table);
// $/cancelRequest. Bad input is answered with JSON-RPC errors and the server
// goes on; nothing but protocol messages is written to stdout (what else
// the process would print there goes to stderr, the log).
//
// The protocol code is this library's own, on llvm::json: clangd's protocol
// layer is not an installed library (docs/editors.md says more).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SERVER_LANGUAGESERVER_H
#define CUDA_BANK_LINT_SERVER_LANGUAGESERVER_H

#include "cuda-bank-lint/Driver/ServerSetup.h"
#include "cuda-bank-lint/Server/Protocol.h"
#include "cuda-bank-lint/Server/Scheduler.h"
#include "cuda-bank-lint/Server/Transport.h"
#include "cuda-bank-lint/Server/Workspace.h"

#include "llvm/Support/JSON.h"

#include <atomic>
#include <functional>
#include <map>
#include <string>

namespace cbl {

class LanguageServer {
public:
  LanguageServer(Transport &T, ServerSetup Setup);
  ~LanguageServer();
  /// Reads and answers messages until "exit" or the end of the input; the
  /// exit code (0 after shutdown, else 1, as LSP says).
  int run();

private:
  using Params = const llvm::json::Object &;
  using RequestHandler = std::function<void(const llvm::json::Value &Id, Params)>;
  using NotificationHandler = std::function<void(Params)>;

  void handle(const llvm::json::Value &Message);
  void request(llvm::StringRef Method, const llvm::json::Value &Id, Params P);
  void notify(llvm::StringRef Method, Params P);
  void reply(const llvm::json::Value &Id, llvm::json::Value Result);
  void fail(const llvm::json::Value &Id, ErrorCode Code, const std::string &Message);
  void publish(const std::string &Uri, const Scheduler::Result &R);

  void initialize(const llvm::json::Value &Id, Params P);
  void didOpen(Params P);
  void didChange(Params P);
  void didClose(Params P);
  /// Hover and code actions: answered from the analysis of the current text.
  void withAnalysis(const llvm::json::Value &Id, Params P,
                    std::function<llvm::json::Value(const BufferResult &)> Answer);

  Transport &Wire;
  Workspace Files;
  Scheduler Analyses;
  std::map<std::string, RequestHandler> Requests;
  std::map<std::string, NotificationHandler> Notifications;
  bool Initialized = false, ShutDown = false;
  std::atomic<PositionEncoding> Encoding{PositionEncoding::Utf16};
};

/// `cuda-bank-lint --lsp`: stdout becomes the protocol's alone (stdout's
/// descriptor is duplicated for it, and descriptor 1 then writes to stderr),
/// and the server runs until exit.
int runLanguageServer(const ServerSetup &Setup);

} // namespace cbl

#endif
