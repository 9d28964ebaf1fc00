//===- ServerProtocolTest.cpp - The language server's wire and positions --===//
//
// Transport: LSP framing over a pipe, malformed frames and bodies, the
// resynchronisation after them, the end of the input. Protocol: file URIs
// and the UTF-16/UTF-8 position conversions.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Server/Protocol.h"
#include "cuda-bank-lint/Server/Transport.h"

#include <gtest/gtest.h>

#include <string>
#include <unistd.h>

namespace cbl {
namespace {

/// A transport reading Input (then the end of the input) and writing into a
/// pipe whose bytes written() returns.
class Wire {
public:
  explicit Wire(const std::string &Input) {
    int In[2], Out[2];
    EXPECT_EQ(::pipe(In), 0);
    EXPECT_EQ(::pipe(Out), 0);
    EXPECT_EQ(::write(In[1], Input.data(), Input.size()), ssize_t(Input.size()));
    ::close(In[1]);
    ReadEnd = In[0];
    OutRead = Out[0];
    OutWrite = Out[1];
    T = std::make_unique<Transport>(ReadEnd, OutWrite);
  }
  ~Wire() {
    ::close(ReadEnd);
    ::close(OutRead);
    if (OutWrite >= 0)
      ::close(OutWrite);
  }
  std::string written() {
    ::close(OutWrite);
    OutWrite = -1;
    std::string All;
    char Buf[4096];
    for (ssize_t N; (N = ::read(OutRead, Buf, sizeof(Buf))) > 0;)
      All.append(Buf, size_t(N));
    return All;
  }
  Transport &operator*() { return *T; }

private:
  int ReadEnd, OutRead, OutWrite;
  std::unique_ptr<Transport> T;
};

std::string frame(const std::string &Body) {
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

std::string methodOf(const Incoming &In) {
  const llvm::json::Object *O = In.Body.getAsObject();
  auto M = O ? O->getString("method") : std::nullopt;
  return M ? M->str() : "";
}

TEST(Transport, ReadsFramesBackToBack) {
  Wire W(frame(R"({"jsonrpc":"2.0","method":"a"})") + frame(R"({"jsonrpc":"2.0","method":"b"})"));
  Incoming A = (*W).read(), B = (*W).read(), End = (*W).read();
  ASSERT_EQ(A.What, Incoming::Kind::Message);
  EXPECT_EQ(methodOf(A), "a");
  ASSERT_EQ(B.What, Incoming::Kind::Message);
  EXPECT_EQ(methodOf(B), "b");
  EXPECT_EQ(End.What, Incoming::Kind::End);
}

TEST(Transport, AcceptsOtherHeadersAnyCaseAndBareNewlines) {
  std::string Body = R"({"method":"x"})";
  Wire W("\r\ncontent-type: application/vscode-jsonrpc; charset=utf-8\r\n"
         "CONTENT-LENGTH:" + std::to_string(Body.size()) + "\n\n" + Body);
  Incoming In = (*W).read();
  ASSERT_EQ(In.What, Incoming::Kind::Message);
  EXPECT_EQ(methodOf(In), "x");
}

TEST(Transport, BodyThatIsNotJsonIsMalformedAndTheNextFrameIsRead) {
  Wire W(frame("{not json") + frame(R"({"method":"next"})"));
  Incoming Bad = (*W).read();
  EXPECT_EQ(Bad.What, Incoming::Kind::Malformed);
  EXPECT_NE(Bad.Error.find("invalid JSON"), std::string::npos);
  Incoming Next = (*W).read();
  ASSERT_EQ(Next.What, Incoming::Kind::Message);
  EXPECT_EQ(methodOf(Next), "next");
}

TEST(Transport, HeadersWithoutLengthResyncOnTheNextLengthHeader) {
  // The body of the bad frame has no newline before the next header.
  Wire W("Content-Type: x\r\n\r\n{\"method\":\"lost\"}" + frame(R"({"method":"found"})"));
  Incoming Bad = (*W).read();
  EXPECT_EQ(Bad.What, Incoming::Kind::Malformed);
  EXPECT_EQ(Bad.Error, "a header block without Content-Length");
  Incoming Next = (*W).read();
  ASSERT_EQ(Next.What, Incoming::Kind::Message);
  EXPECT_EQ(methodOf(Next), "found");
}

TEST(Transport, InvalidLengthAndGarbageAreMalformed) {
  Wire W("Content-Length: -3\r\n\r\nxyz" + frame(R"({"method":"a"})") + "garbage\r\n" +
         frame(R"({"method":"b"})"));
  EXPECT_EQ((*W).read().Error, "invalid Content-Length header 'Content-Length: -3'");
  EXPECT_EQ(methodOf((*W).read()), "a");
  EXPECT_EQ((*W).read().Error, "not a header line: 'garbage'");
  EXPECT_EQ(methodOf((*W).read()), "b");
  EXPECT_EQ((*W).read().What, Incoming::Kind::End);
}

TEST(Transport, OversizedBodyIsRefused) {
  Wire W("Content-Length: " + std::to_string(Transport::MaxBody + 1) + "\r\n\r\n{}");
  Incoming In = (*W).read();
  EXPECT_EQ(In.What, Incoming::Kind::Malformed);
  EXPECT_NE(In.Error.find("at most"), std::string::npos);
  EXPECT_EQ((*W).read().What, Incoming::Kind::End);
}

TEST(Transport, BodyCutOffByTheEndOfInputIsTheEnd) {
  Wire W("Content-Length: 100\r\n\r\n{\"method\":");
  EXPECT_EQ((*W).read().What, Incoming::Kind::End);
}

TEST(Transport, SendFramesWithTheBodyLengthInBytes) {
  Wire W("");
  ASSERT_TRUE((*W).send(llvm::json::Object{{"s", "é"}}));
  EXPECT_EQ(W.written(), "Content-Length: 10\r\n\r\n{\"s\":\"é\"}");
}

TEST(Protocol, FileUris) {
  EXPECT_EQ(pathFromUri("file:///home/u/k.cu"), "/home/u/k.cu");
  EXPECT_EQ(pathFromUri("file:///a%20b/c%23d.cu"), "/a b/c#d.cu");
  EXPECT_EQ(pathFromUri("file://localhost/x.cu"), "/x.cu");
  EXPECT_EQ(pathFromUri("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(pathFromUri("file:///bad%zz"), std::nullopt);
  EXPECT_EQ(pathFromUri("file:///cut%2"), std::nullopt);
  EXPECT_EQ(uriFromPath("/a b/c#d-é.cu"), "file:///a%20b/c%23d-%C3%A9.cu");
  EXPECT_EQ(pathFromUri(uriFromPath("/a b/c#d-é.cu")), "/a b/c#d-é.cu");
}

TEST(Protocol, Utf16AndUtf8Positions) {
  // 'ü' is 2 bytes and 1 UTF-16 unit, '€' 3 and 1, '😀' 4 and 2.
  std::string Text = "int a;\r\n/* ü€😀 */ x = 1;\nlast";
  LineIndex U16(Text, PositionEncoding::Utf16), U8(Text, PositionEncoding::Utf8);
  size_t X = Text.find('x');
  EXPECT_EQ(U16.position(X).Line, 1u);
  EXPECT_EQ(U16.position(X).Character, 11u);
  EXPECT_EQ(U8.position(X).Character, 16u);
  EXPECT_EQ(U16.offset(Position{1, 11}), X);
  EXPECT_EQ(U8.offset(Position{1, 16}), X);
  // 1-based line and byte column, as the analysis locates things.
  EXPECT_EQ(U16.offset(2, 17), X);
  // The line text has no line ending; positions past it are clamped.
  EXPECT_EQ(U16.line(0), "int a;");
  EXPECT_EQ(U16.offset(Position{0, 99}), 6u);
  EXPECT_EQ(U16.offset(Position{9, 0}), Text.size());
  EXPECT_EQ(U16.position(Text.size()).Line, 2u);
  EXPECT_EQ(U16.position(Text.size()).Character, 4u);
  // Inside a surrogate pair: the character's start.
  size_t Emoji = Text.find("😀");
  EXPECT_EQ(U16.offset(Position{1, 5}), Emoji);
  EXPECT_EQ(U16.offset(Position{1, 6}), Emoji);
  EXPECT_EQ(U16.offset(Position{1, 7}), Emoji + 4);
}

TEST(Protocol, Messages) {
  std::string S;
  llvm::raw_string_ostream(S) << errorResponse(nullptr, ErrorCode::MethodNotFound, "no");
  EXPECT_EQ(S, R"({"error":{"code":-32601,"message":"no"},"id":null,"jsonrpc":"2.0"})");
}

} // namespace
} // namespace cbl
