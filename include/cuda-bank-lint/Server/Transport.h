//===- Transport.h - JSON-RPC 2.0 messages framed as LSP frames them ------===//
//
// The language server's wire: each message is "Content-Length: N\r\n", any
// other header lines, "\r\n", then N bytes of JSON (UTF-8). JSON is parsed
// and printed with llvm::json. Reading never gives up on bad input: a header
// block without a valid Content-Length, or a body that is not JSON, is
// reported (the server answers it with a JSON-RPC error) and reading goes on
// with the next "Content-Length:" header. Writing is thread-safe: the
// analysis thread publishes while the message loop answers requests.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SERVER_TRANSPORT_H
#define CUDA_BANK_LINT_SERVER_TRANSPORT_H

#include "llvm/Support/JSON.h"

#include <mutex>
#include <string>

namespace cbl {

/// One thing read from the input.
struct Incoming {
  enum class Kind {
    Message,   ///< Body holds the parsed JSON
    Malformed, ///< a frame or body that is not a message; Error says why
    End,       ///< the input is closed
  };
  Kind What = Kind::End;
  llvm::json::Value Body = nullptr;
  std::string Error;
};

class Transport {
public:
  /// Reads frames from InFd and writes them to OutFd (file descriptors the
  /// transport does not close).
  Transport(int InFd, int OutFd) : In(InFd), Out(OutFd) {}

  /// Blocks until a message, a malformed frame or the end of the input.
  Incoming read();
  /// Frames and writes one message; false when the output is gone.
  bool send(const llvm::json::Value &Message);

  /// Bodies larger than this are malformed (their bytes are skipped).
  static constexpr size_t MaxBody = 256u << 20;

private:
  /// Fills Buffer with more input; false at the end of the input.
  bool fill();
  /// Drops input up to the next "Content-Length:" at the start of a line.
  bool resync();
  /// One header line without its line ending; false at the end of input.
  bool readLine(std::string &Line);

  int In, Out;
  std::string Buffer; ///< read but not consumed
  size_t Pos = 0;
  bool Resync = false; ///< skip to the next Content-Length header first
  std::mutex WriteLock;
};

} // namespace cbl

#endif
