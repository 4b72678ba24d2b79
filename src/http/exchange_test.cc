// Request bodies (bounded, streamed to a descriptor, 100-continue) and file
// responses, through a real server and a raw socket.
#include "http/exchange.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <random>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "http/http_test_util.h"

namespace sbx::http {
namespace {

using namespace std::string_literals;
using testing::RawConnection;
using testing::RequestBytes;
using testing::RoundTrip;
using testing::TestServer;

const char* CodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kTooLarge: return "too_large";
    case ErrorCode::kUnavailable: return "unavailable";
    case ErrorCode::kInternal: return "internal";
    default: return "other";
  }
}

// An error as the API layer answers it: status by code, {"detail": message}.
Response ErrorAnswer(const Error& e) {
  unsigned status = e.code == ErrorCode::kTooLarge ? 413 : e.code == ErrorCode::kInternal ? 500 : 503;
  Response r = JsonError(status, e.message);
  r.headers.emplace_back("X-Code", CodeName(e.code));
  return r;
}

std::string RandomBytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::string out(n, '\0');
  for (auto& c : out) c = static_cast<char>(gen() & 0xff);
  return out;
}

class ExchangeTest : public ::testing::Test {
 protected:
  ExchangeTest() {
    char tmpl[] = "/tmp/sbx-http-test-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    // Reads at most 10 bytes and echoes them.
    router_.Add(bhttp::verb::post, "/small", [](Exchange& ex) -> Task<void> {
      auto body = co_await ex.ReadBody(10);
      if (!body) {
        co_await ex.Send(ErrorAnswer(body.error()));
        co_return;
      }
      Response r;
      r.content_type = "text/plain";
      r.body = "got:" + *body;
      co_await ex.Send(std::move(r));
    });
    // Answers without touching the body.
    router_.Add(bhttp::verb::post, "/ignore", [](Exchange& ex) -> Task<void> {
      co_await ex.Send(JsonError(200, "ignored"));
    });
    // Streams the body into {dir}/{name} (or, with ?ro=1, a read-only fd).
    router_.Add(bhttp::verb::put, "/file/{name}", [this](Exchange& ex) -> Task<void> {
      std::string path = dir_ + "/" + ex.param("name");
      bool read_only = ex.query().Get("ro").has_value();
      int fd = read_only ? ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600)
                         : ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      auto n = co_await ex.ReadBodyToFd(fd, 1 << 20);
      ::close(fd);
      if (!n) {
        co_await ex.Send(ErrorAnswer(n.error()));
        co_return;
      }
      co_await ex.Send(JsonError(200, std::to_string(*n)));
    });
    router_.Add(bhttp::verb::put, "/pipe", [this](Exchange& ex) -> Task<void> {
      auto n = co_await ex.ReadBodyToFd(pipe_[1], 1 << 20);
      std::string detail = n ? std::to_string(*n) : n.error().message;
      co_await ex.Send(JsonError(200, detail));
    });
    router_.Add(bhttp::verb::get, "/download/{name}", [this](Exchange& ex) -> Task<void> {
      std::vector<std::pair<std::string, std::string>> headers = {{"X-Object", ex.param("name")}};
      co_await ex.SendFile(dir_ + "/" + ex.param("name"), "application/gzip", std::move(headers));
    });
    server_ = std::make_unique<TestServer>(router_);
  }
  ~ExchangeTest() override {
    server_.reset();
    (void)fs::RemoveTree(dir_);
  }
  std::uint16_t port() const { return server_->port(); }

  std::string dir_;
  int pipe_[2] = {-1, -1};
  Router router_;
  std::unique_ptr<TestServer> server_;
};

TEST_F(ExchangeTest, BodyWithinTheLimitIsReadAndTheConnectionKeptAlive) {
  RawConnection c(port());
  c.Write(RequestBytes("POST", "/small", "0123456789"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "got:0123456789");
  EXPECT_EQ(r->Header("Content-Type"), "text/plain");
  EXPECT_EQ(r->Header("Server"), "sandboxd");
  c.Write(RequestBytes("POST", "/small", "second"));
  r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "got:second");
}

TEST_F(ExchangeTest, EmptyAndMissingBodiesReadAsEmpty) {
  auto r = RoundTrip(port(), RequestBytes("POST", "/small", ""));
  EXPECT_EQ(r.body, "got:");
  r = RoundTrip(port(), RequestBytes("POST", "/small"));
  EXPECT_EQ(r.body, "got:");
}

TEST_F(ExchangeTest, DeclaredLengthOverTheLimitIs413AndCloses) {
  RawConnection c(port());
  c.Write(RequestBytes("POST", "/small", "01234567890"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->body, R"({"detail":"request body of 11 bytes exceeds the limit of 10 bytes"})");
  EXPECT_EQ(r->Header("X-Code"), "too_large");
  EXPECT_EQ(r->Header("Connection"), "close");
  EXPECT_TRUE(c.Closed());
}

TEST_F(ExchangeTest, RefusedBodyStillArrivingDoesNotResetTheConnection) {
  // The client sends the whole 2 MiB body the server refused by its declared
  // length: the server must drain it (lingering close), so the client can
  // finish writing and still read the 413 instead of a reset.
  std::string body(2 << 20, 'b');
  RawConnection c(port());
  c.Write(RequestBytes("POST", "/small", body));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->body, R"({"detail":"request body of 2097152 bytes exceeds the limit of 10 bytes"})");
  EXPECT_TRUE(c.Closed());
}

TEST_F(ExchangeTest, ChunkedBodyOverTheLimitIs413AndCloses) {
  RawConnection c(port());
  c.Write(
      "POST /small HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
      "6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n");
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->body, R"({"detail":"request body exceeds the limit of 10 bytes"})");
  EXPECT_TRUE(c.Closed());
}

TEST_F(ExchangeTest, ChunkedBodyWithinTheLimitIsReassembled) {
  RawConnection c(port());
  c.Write(
      "POST /small HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n");
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "got:abcdefg");
  c.Write(RequestBytes("POST", "/small", "again"));
  r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "got:again");
}

TEST_F(ExchangeTest, UnreadBodyMeansResponseThenClose) {
  RawConnection c(port());
  // The unread body must not be parsed as a next request.
  c.Write(RequestBytes("POST", "/ignore", "GET /small HTTP/1.1\r\n\r\n"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, R"({"detail":"ignored"})");
  EXPECT_EQ(r->Header("Connection"), "close");
  EXPECT_TRUE(c.Closed());
}

TEST_F(ExchangeTest, RequestWithoutBodyToAHandlerIgnoringBodiesStaysAlive) {
  RawConnection c(port());
  c.Write(RequestBytes("POST", "/ignore", ""));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->Header("Connection").has_value());
  c.Write(RequestBytes("POST", "/small", "x"));
  r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "got:x");
}

TEST_F(ExchangeTest, ExpectContinueGets100BeforeTheFinalResponse) {
  RawConnection c(port());
  c.Write("POST /small HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  // The body is only sent after the interim response arrived.
  auto interim = c.ReadHead();
  ASSERT_TRUE(interim);
  EXPECT_EQ(*interim, "HTTP/1.1 100 Continue\r\n\r\n");
  c.Write("hello");
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "got:hello");
}

TEST_F(ExchangeTest, ExpectContinueIsNotSentWhenTheBodyIsRefusedOrIgnored) {
  RawConnection c(port());
  c.Write("POST /small HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 50\r\n\r\n");
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status_line, "HTTP/1.1 413 Payload Too Large");
  RawConnection d(port());
  d.Write("POST /ignore HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  r = d.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, R"({"detail":"ignored"})");
}

TEST_F(ExchangeTest, ReadBodyToFdWritesTheExactBytes) {
  std::string data = RandomBytes(300 * 1024 + 7, 1);
  auto r = RoundTrip(port(), RequestBytes("PUT", "/file/a.bin", data));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"detail":")" + std::to_string(data.size()) + R"("})");
  auto written = fs::ReadFile(dir_ + "/a.bin", 1 << 22);
  ASSERT_TRUE(written.ok());
  EXPECT_TRUE(*written == data) << "size " << written->size() << " vs " << data.size();
}

TEST_F(ExchangeTest, ReadBodyToFdStreamsChunkedBodies) {
  std::string bytes = "PUT /file/c.bin HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
  std::string expected;
  for (int i = 0; i < 5; ++i) {
    std::string chunk = RandomBytes(40000 + i, 10 + i);
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
    bytes += size + chunk + "\r\n";
    expected += chunk;
  }
  bytes += "0\r\n\r\n";
  auto r = RoundTrip(port(), bytes);
  EXPECT_EQ(r.body, R"({"detail":")" + std::to_string(expected.size()) + R"("})");
  auto written = fs::ReadFile(dir_ + "/c.bin", 1 << 22);
  ASSERT_TRUE(written.ok());
  EXPECT_TRUE(*written == expected);
}

TEST_F(ExchangeTest, ReadBodyToFdIntoAPipe) {
  ASSERT_EQ(::pipe2(pipe_, O_CLOEXEC), 0);
  std::string data = "line one\nline two\n\0binary\xff"s;
  auto r = RoundTrip(port(), RequestBytes("PUT", "/pipe", data));
  EXPECT_EQ(r.body, R"({"detail":")" + std::to_string(data.size()) + R"("})");
  ::close(pipe_[1]);
  std::string got(data.size() + 10, '\0');
  ssize_t n = ::read(pipe_[0], got.data(), got.size());
  ::close(pipe_[0]);
  ASSERT_EQ(n, static_cast<ssize_t>(data.size()));
  got.resize(static_cast<std::size_t>(n));
  EXPECT_EQ(got, data);
}

TEST_F(ExchangeTest, ReadBodyToFdReportsAWriteFailureAsInternal) {
  auto r = RoundTrip(port(), RequestBytes("PUT", "/file/ro.bin?ro=1", "abc"));
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.Header("X-Code"), "internal");
  EXPECT_EQ(r.body, R"({"detail":"write failed: Bad file descriptor"})");
}

TEST_F(ExchangeTest, ReadBodyToFdOverTheLimitIs413) {
  std::string data(1 << 20 | 1, 'x');
  RawConnection c(port());
  c.Write(RequestBytes("PUT", "/file/big.bin", std::nullopt,
                       "Content-Length: " + std::to_string(data.size()) + "\r\n"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->body, R"({"detail":"request body of 1048577 bytes exceeds the limit of 1048576 bytes"})");
  EXPECT_TRUE(c.Closed());
}

TEST_F(ExchangeTest, SendFileStreamsFiveMiBByteExactly) {
  std::string data = RandomBytes(5 * 1024 * 1024, 7);
  ASSERT_TRUE(fs::WriteFileAtomic(dir_ + "/dump.tar.gz", data).ok());
  RawConnection c(port());
  c.Write(RequestBytes("GET", "/download/dump.tar.gz"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->Header("Content-Type"), "application/gzip");
  EXPECT_EQ(r->Header("Content-Length"), std::to_string(data.size()));
  EXPECT_EQ(r->Header("X-Object"), "dump.tar.gz");
  EXPECT_EQ(r->body.size(), data.size());
  EXPECT_TRUE(r->body == data);
  // The connection stays usable after a file response.
  c.Write(RequestBytes("GET", "/download/missing"));
  r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(r->body, R"({"detail":"The requested object no longer exists"})");
  EXPECT_EQ(r->Header("Content-Type"), "application/json");
}

TEST_F(ExchangeTest, SendFileOfAnEmptyFile) {
  ASSERT_TRUE(fs::WriteFileAtomic(dir_ + "/empty", "").ok());
  auto r = RoundTrip(port(), RequestBytes("GET", "/download/empty"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Header("Content-Length"), "0");
  EXPECT_EQ(r.body, "");
}

TEST(ServerTimeoutTest, AStalledHeadIsDroppedAfterTheHeaderTimeout) {
  Router router;
  router.Add(bhttp::verb::get, "/", [](Exchange& ex) -> Task<void> {
    co_await ex.Send(JsonError(200, "ok"));
  });
  ServerOptions options;
  options.header_timeout = std::chrono::seconds(1);
  TestServer server(router, options);
  RawConnection c(server.port());
  auto start = std::chrono::steady_clock::now();
  c.Write("GET / HTTP/1.1\r\nHost: t\r\n");  // never finished
  EXPECT_TRUE(c.Closed());                     // no response bytes, just the close
  auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(900));
  EXPECT_LT(waited, std::chrono::seconds(5));
}

TEST(ServerTimeoutTest, AStalledBodyFailsTheReadAfterTheBodyTimeout) {
  std::promise<Error> seen;
  Router router;
  router.Add(bhttp::verb::post, "/", [&seen](Exchange& ex) -> Task<void> {
    auto body = co_await ex.ReadBody(100);
    seen.set_value(body ? Error{} : body.error());
    co_await ex.Send(JsonError(503, "gone"));
  });
  ServerOptions options;
  options.body_timeout = std::chrono::seconds(1);
  TestServer server(router, options);
  RawConnection c(server.port());
  c.Write("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc");
  auto future = seen.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  Error e = future.get();
  EXPECT_EQ(e.code, ErrorCode::kUnavailable);
  EXPECT_EQ(e.message.rfind("request body not received: ", 0), 0u) << e.message;
  // The timed-out connection is closed without a response.
  EXPECT_TRUE(c.Closed());
}

TEST(JsonErrorTest, EscapesTheDetail) {
  Response r = JsonError(409, "a \"quoted\"\nline");
  EXPECT_EQ(r.status, 409u);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body, R"({"detail":"a \"quoted\"\nline"})");
  EXPECT_TRUE(r.headers.empty());
}

}  // namespace
}  // namespace sbx::http
