//===- Transport.cpp - JSON-RPC 2.0 messages framed as LSP frames them -----===//
#include "cuda-bank-lint/Server/Transport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <unistd.h>

namespace cbl {

namespace {
constexpr llvm::StringLiteral LengthHeader = "Content-Length:";
constexpr size_t MaxHeaderLine = 64 * 1024;
} // namespace

bool Transport::fill() {
  if (Pos > 0 && Pos * 2 >= Buffer.size()) {
    Buffer.erase(0, Pos);
    Pos = 0;
  }
  char Chunk[64 * 1024];
  for (;;) {
    ssize_t N = ::read(In, Chunk, sizeof(Chunk));
    if (N > 0) {
      Buffer.append(Chunk, size_t(N));
      return true;
    }
    if (N < 0 && errno == EINTR)
      continue;
    return false;
  }
}

bool Transport::readLine(std::string &Line) {
  for (;;) {
    size_t End = Buffer.find('\n', Pos);
    if (End == std::string::npos && Buffer.size() - Pos > MaxHeaderLine)
      End = Pos + MaxHeaderLine - 1; // not a header: resync() skips it
    if (End != std::string::npos) {
      Line = Buffer.substr(Pos, End - Pos);
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      Pos = End + 1;
      return true;
    }
    if (!fill())
      return false;
  }
}

bool Transport::resync() {
  for (;;) {
    size_t At = Buffer.find(LengthHeader.data(), Pos, LengthHeader.size());
    if (At != std::string::npos) {
      Pos = At;
      return true;
    }
    // Keep what may be the start of the header.
    if (Buffer.size() - Pos > LengthHeader.size())
      Pos = Buffer.size() - LengthHeader.size();
    if (!fill())
      return false;
  }
}

Incoming Transport::read() {
  Incoming Result;
  if (Resync && !resync())
    return Result; // End
  Resync = false;
  std::string Line, Why;
  std::optional<size_t> Length;
  bool Any = false;
  for (;;) {
    if (!readLine(Line))
      return Result; // End
    if (Line.empty()) {
      if (Any)
        break;
      continue; // blank lines between messages
    }
    Any = true;
    auto [Name, Value] = llvm::StringRef(Line).split(':');
    unsigned long long N = 0;
    if (Name.trim().equals_insensitive("Content-Length")) {
      if (Value.trim().getAsInteger(10, N))
        Why = "invalid Content-Length header '" + Line + "'";
      else
        Length = size_t(N);
    } else if (Name.size() == Line.size()) {
      Why = "not a header line: '" + llvm::StringRef(Line).take_front(80).str() + "'";
      break;
    }
  }
  if (Why.empty() && !Length)
    Why = "a header block without Content-Length";
  if (Why.empty() && *Length > MaxBody)
    Why = "a body of " + std::to_string(*Length) + " bytes (at most " +
          std::to_string(MaxBody) + " are read)";
  Result.What = Incoming::Kind::Malformed;
  if (!Why.empty()) {
    Result.Error = Why;
    Resync = true; // at the next read(): the error is answered first
    return Result;
  }
  while (Buffer.size() - Pos < *Length)
    if (!fill()) {
      Result.What = Incoming::Kind::End; // cut off: nothing to answer
      return Result;
    }
  llvm::StringRef Body(Buffer.data() + Pos, *Length);
  Pos += *Length;
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Body);
  if (!Parsed) {
    Result.Error = "invalid JSON: " + llvm::toString(Parsed.takeError());
    return Result;
  }
  Result.What = Incoming::Kind::Message;
  Result.Body = std::move(*Parsed);
  return Result;
}

bool Transport::send(const llvm::json::Value &Message) {
  std::string Body;
  llvm::raw_string_ostream OS(Body);
  OS << Message;
  OS.flush();
  std::string Frame = "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
  std::lock_guard<std::mutex> G(WriteLock);
  for (size_t Done = 0; Done < Frame.size();) {
    ssize_t N = ::write(Out, Frame.data() + Done, Frame.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += size_t(N);
  }
  return true;
}

} // namespace cbl
