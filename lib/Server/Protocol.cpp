//===- Protocol.cpp - The parts of LSP 3.17 the server speaks --------------===//
#include "cuda-bank-lint/Server/Protocol.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace cbl {

llvm::json::Value errorResponse(const llvm::json::Value &Id, ErrorCode Code,
                                const std::string &Message) {
  return llvm::json::Object{
      {"jsonrpc", "2.0"},
      {"id", Id},
      {"error", llvm::json::Object{{"code", int(Code)}, {"message", Message}}}};
}

llvm::json::Value response(const llvm::json::Value &Id, llvm::json::Value Result) {
  return llvm::json::Object{{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}};
}

llvm::json::Value notification(llvm::StringRef Method, llvm::json::Value Params) {
  return llvm::json::Object{{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}};
}

std::optional<std::string> pathFromUri(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  // "file:///p" (empty authority) or "file://localhost/p".
  Uri.consume_front("localhost");
  if (!Uri.starts_with("/"))
    return std::nullopt;
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    if (Uri[I] != '%') {
      Path += Uri[I];
      continue;
    }
    unsigned Byte = 0;
    if (I + 2 >= Uri.size() || Uri.substr(I + 1, 2).getAsInteger(16, Byte))
      return std::nullopt;
    Path += char(Byte);
    I += 2;
  }
  return Path;
}

std::string uriFromPath(llvm::StringRef Path) {
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-._~").contains(C))
      Uri += char(C);
    else
      Uri += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Uri;
}

llvm::json::Value toJson(const Position &P) {
  return llvm::json::Object{{"line", int64_t(P.Line)}, {"character", int64_t(P.Character)}};
}

llvm::json::Value range(const Position &Begin, const Position &End) {
  return llvm::json::Object{{"start", toJson(Begin)}, {"end", toJson(End)}};
}

LineIndex::LineIndex(llvm::StringRef Text, PositionEncoding Encoding)
    : Text(Text), Encoding(Encoding) {
  Starts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

llvm::StringRef LineIndex::line(unsigned Line) const {
  if (Line >= Starts.size())
    return "";
  size_t End = Line + 1 < Starts.size() ? Starts[Line + 1] - 1 : Text.size();
  return Text.slice(Starts[Line], End).rtrim('\r');
}

namespace {
/// UTF-16 code units of a UTF-8 lead byte's character (bytes that do not
/// start a character count for nothing, invalid ones as one unit each).
unsigned utf16Units(unsigned char Lead) {
  if (Lead < 0x80)
    return 1;
  if ((Lead & 0xC0) == 0x80)
    return 0;
  return Lead >= 0xF0 ? 2 : 1;
}
} // namespace

Position LineIndex::position(size_t Offset) const {
  Offset = std::min(Offset, Text.size());
  unsigned Line = unsigned(std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin() - 1);
  llvm::StringRef Before = Text.slice(Starts[Line], Offset);
  if (Encoding == PositionEncoding::Utf8)
    return {Line, unsigned(Before.size())};
  unsigned Units = 0;
  for (unsigned char C : Before)
    Units += utf16Units(C);
  return {Line, Units};
}

size_t LineIndex::offset(unsigned Line, unsigned Column) const {
  if (Line == 0 || Line > Starts.size())
    return Line == 0 ? 0 : Text.size();
  size_t Start = Starts[Line - 1];
  size_t Length = line(Line - 1).size();
  return Start + std::min<size_t>(Column ? Column - 1 : 0, Length);
}

size_t LineIndex::offset(const Position &P) const {
  if (P.Line >= Starts.size())
    return Text.size();
  llvm::StringRef L = line(P.Line);
  if (Encoding == PositionEncoding::Utf8)
    return Starts[P.Line] + std::min<size_t>(P.Character, L.size());
  unsigned Units = 0;
  size_t I = 0;
  for (; I < L.size(); ++I) {
    unsigned U = utf16Units((unsigned char)L[I]);
    if (U && Units + U > P.Character)
      break;
    Units += U;
  }
  return Starts[P.Line] + I;
}

} // namespace cbl
