//===- Protocol.h - The parts of LSP 3.17 the server speaks ---------------===//
//
// JSON-RPC error codes, file URIs, and positions. LSP positions are 0-based
// lines and columns counted in the negotiated encoding (UTF-16 code units by
// default, UTF-8 bytes when the client offers "utf-8"); the analysis locates
// things by 1-based line and byte column, so LineIndex converts between them
// over the text the position refers to.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_SERVER_PROTOCOL_H
#define CUDA_BANK_LINT_SERVER_PROTOCOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace cbl {

/// JSON-RPC 2.0 and LSP error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
  ContentModified = -32801,
};

llvm::json::Value errorResponse(const llvm::json::Value &Id, ErrorCode Code,
                                const std::string &Message);
llvm::json::Value response(const llvm::json::Value &Id, llvm::json::Value Result);
llvm::json::Value notification(llvm::StringRef Method, llvm::json::Value Params);

/// The path of a "file://" URI (percent-escapes decoded), or nullopt for
/// another scheme or a malformed URI.
std::optional<std::string> pathFromUri(llvm::StringRef Uri);
/// "file://" + Path, with the characters that need it percent-escaped.
std::string uriFromPath(llvm::StringRef Path);

enum class PositionEncoding { Utf16, Utf8 };

/// An LSP position.
struct Position {
  unsigned Line = 0;      ///< 0-based
  unsigned Character = 0; ///< 0-based, in the encoding's units
};
llvm::json::Value toJson(const Position &P);
llvm::json::Value range(const Position &Begin, const Position &End);

/// Line starts of one text, for conversions between byte offsets, 1-based
/// (line, byte column) pairs and LSP positions.
class LineIndex {
public:
  LineIndex(llvm::StringRef Text, PositionEncoding Encoding);

  /// The LSP position of a byte offset (clamped to the text).
  Position position(size_t Offset) const;
  /// The byte offset of a 1-based line and byte column (clamped).
  size_t offset(unsigned Line, unsigned Column) const;
  /// The byte offset of an LSP position (clamped to its line).
  size_t offset(const Position &P) const;
  /// The text of a 0-based line, without its line ending.
  llvm::StringRef line(unsigned Line) const;
  unsigned lines() const { return unsigned(Starts.size()); }

private:
  llvm::StringRef Text;
  PositionEncoding Encoding;
  std::vector<size_t> Starts;
};

} // namespace cbl

#endif
