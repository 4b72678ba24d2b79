#include "http/router.h"

#include <gtest/gtest.h>

#include <future>
#include <string>

#include "core/json.h"
#include "http/http_test_util.h"

namespace sbx::http {
namespace {

using testing::RawConnection;
using testing::RequestBytes;
using testing::RoundTrip;
using testing::TestServer;

// Answers {"route": name, "params": {...}, "path": raw path}.
Handler Echo(std::string name) {
  return [name](Exchange& ex) -> Task<void> {
    Json params = Json::object();
    for (const auto& [k, v] : ex.params()) params[k] = v;
    Json body = {{"route", name}, {"params", params}, {"path", std::string(ex.path())}};
    Response r;
    r.body = body.dump();
    co_await ex.Send(std::move(r));
  };
}

class RouterTest : public ::testing::Test {
 protected:
  RouterTest() {
    router_.Add(bhttp::verb::get, "/local-sandbox", Echo("list"));
    router_.Add(bhttp::verb::post, "/local-sandbox", Echo("acquire"));
    router_.Add(bhttp::verb::get, "/local-sandbox/{id}", Echo("get"));
    router_.Add(bhttp::verb::delete_, "/local-sandbox/{id}", Echo("delete"));
    router_.Add(bhttp::verb::get, "/local-sandbox/{id}/dump", Echo("dump"));
    router_.Add(bhttp::verb::get, "/objects/{sandbox}/{object}", Echo("object"));
    router_.Add(bhttp::verb::put, "/objects/{sandbox}/{object}", Echo("object-put"));
    router_.Add(bhttp::verb::post, "/{server}/mcp/", Echo("mcp"));
    router_.Add(bhttp::verb::get, "/", Echo("root"));
    server_ = std::make_unique<TestServer>(router_);
  }
  std::uint16_t port() const { return server_->port(); }

  Json Get(const std::string& target) {
    auto r = RoundTrip(port(), RequestBytes("GET", target));
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    return r.status == 200 ? Json::parse(r.body) : Json();
  }

  Router router_;
  std::unique_ptr<TestServer> server_;
};

TEST_F(RouterTest, LiteralRoutesMatchByMethod) {
  EXPECT_EQ(Get("/local-sandbox")["route"], "list");
  auto r = RoundTrip(port(), RequestBytes("POST", "/local-sandbox", "{}"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(Json::parse(r.body)["route"], "acquire");
  EXPECT_EQ(Get("/")["route"], "root");
}

TEST_F(RouterTest, CapturesOneSegmentAndPercentDecodesIt) {
  EXPECT_EQ(Get("/local-sandbox/abc-123").dump(),
            R"({"route":"get","params":{"id":"abc-123"},"path":"/local-sandbox/abc-123"})");
  // %2F decodes to a slash inside the one segment, not a path separator; '+'
  // stays '+' in paths.
  EXPECT_EQ(Get("/local-sandbox/a%20b%2Fc+d/dump").dump(),
            R"({"route":"dump","params":{"id":"a b/c+d"},"path":"/local-sandbox/a%20b%2Fc+d/dump"})");
  EXPECT_EQ(Get("/objects/s%41/o%7e?expires=1&signature=x")["params"].dump(),
            R"({"object":"o~","sandbox":"sA"})");
  EXPECT_EQ(Get("/local-sandbox/%zz%4")["params"]["id"], "%zz%4");
}

TEST_F(RouterTest, QueryStringDoesNotTakePartInRouting) {
  Json j = Get("/local-sandbox?x=/y&z=1");
  EXPECT_EQ(j["route"], "list");
  EXPECT_EQ(j["path"], "/local-sandbox");
}

TEST_F(RouterTest, UnknownPathIs404NotFound) {
  for (const char* target : {"/nope", "/local-sandbox/a/b/c/d", "/objects/only-one", "/local-sandbox//dump",
                             "/objects//x"}) {
    auto r = RoundTrip(port(), RequestBytes("GET", target));
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_EQ(r.body, R"({"detail":"Not Found"})") << target;
    EXPECT_EQ(r.Header("Content-Type"), "application/json");
    EXPECT_FALSE(r.Header("Allow").has_value());
  }
}

TEST_F(RouterTest, TrailingSlashIsSignificant) {
  auto r = RoundTrip(port(), RequestBytes("GET", "/local-sandbox/"));
  // "/local-sandbox/" is two segments ("local-sandbox", ""): {id} needs a
  // non-empty segment, so nothing matches.
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body, R"({"detail":"Not Found"})");
  r = RoundTrip(port(), RequestBytes("POST", "/git/mcp", "{}"));
  EXPECT_EQ(r.status, 404);
  r = RoundTrip(port(), RequestBytes("POST", "/git/mcp/", "{}"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(Json::parse(r.body)["params"].dump(), R"({"server":"git"})");
}

TEST_F(RouterTest, WrongMethodIs405WithAllowListingEveryMethodInOrder) {
  auto r = RoundTrip(port(), RequestBytes("PATCH", "/local-sandbox/x"));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.body, R"({"detail":"Method Not Allowed"})");
  EXPECT_EQ(r.Header("Allow"), "GET, DELETE");
  r = RoundTrip(port(), RequestBytes("DELETE", "/objects/s/o"));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.Header("Allow"), "GET, PUT");
  r = RoundTrip(port(), RequestBytes("GET", "/git/mcp/"));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.Header("Allow"), "POST");
}

TEST_F(RouterTest, LaterExactRouteWinsOverEarlierWrongMethodMatch) {
  Router router;
  router.Add(bhttp::verb::get, "/a/{x}", Echo("capture"));
  router.Add(bhttp::verb::post, "/a/b", Echo("literal"));
  TestServer server(router);
  auto r = RoundTrip(server.port(), RequestBytes("POST", "/a/b", ""));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(Json::parse(r.body)["route"], "literal");
  r = RoundTrip(server.port(), RequestBytes("PUT", "/a/c", ""));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.Header("Allow"), "GET");
}

TEST_F(RouterTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  RawConnection c(port());
  c.Write(RequestBytes("GET", "/local-sandbox/one") + RequestBytes("GET", "/nope"));
  auto first = c.ReadResponse();
  auto second = c.ReadResponse();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(Json::parse(first->body)["params"]["id"], "one");
  EXPECT_EQ(second->status, 404);
  c.Write(RequestBytes("GET", "/local-sandbox/three"));
  auto third = c.ReadResponse();
  ASSERT_TRUE(third);
  EXPECT_EQ(Json::parse(third->body)["params"]["id"], "three");
  EXPECT_EQ(third->Header("Connection"), std::nullopt);
  // A handler that leaves a body unread ends the connection.
  c.Write(RequestBytes("POST", "/local-sandbox", "{}"));
  auto fourth = c.ReadResponse();
  ASSERT_TRUE(fourth);
  EXPECT_EQ(Json::parse(fourth->body)["route"], "acquire");
  EXPECT_EQ(fourth->Header("Connection"), "close");
  EXPECT_TRUE(c.Closed());
}

TEST_F(RouterTest, ConnectionCloseIsHonoured) {
  RawConnection c(port());
  c.Write(RequestBytes("GET", "/local-sandbox", std::nullopt, "Connection: close\r\n"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->Header("Connection"), "close");
  EXPECT_TRUE(c.Closed());
}

// --- server-level answers (no handler involved) ----------------------------

TEST_F(RouterTest, GarbageRequestLineIs400AndCloses) {
  RawConnection c(port());
  c.Write("THIS IS NOT HTTP\r\n\r\n");
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status_line, "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(r->body, R"({"detail":"Malformed HTTP request"})");
  EXPECT_EQ(r->Header("Content-Type"), "application/json");
  EXPECT_EQ(r->Header("Connection"), "close");
  EXPECT_TRUE(c.Closed());
}

TEST_F(RouterTest, BadHeaderLineIs400) {
  auto r = RoundTrip(port(), "GET / HTTP/1.1\r\nHost t\r\n\r\n");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"detail":"Malformed HTTP request"})");
}

TEST_F(RouterTest, HeadOver16KiBIs431AndCloses) {
  RawConnection c(port());
  c.Write("GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(17 * 1024, 'a') + "\r\n\r\n");
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status_line, "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_EQ(r->body, R"({"detail":"Request header fields too large"})");
  EXPECT_TRUE(c.Closed());
}

TEST_F(RouterTest, HeadJustUnderTheLimitIsServed) {
  // 16 KiB is the bound of the whole head; a 15 KiB header passes.
  auto r = RoundTrip(port(),
                     RequestBytes("GET", "/", std::nullopt, "X-Big: " + std::string(15 * 1024, 'a') + "\r\n"));
  EXPECT_EQ(r.status, 200);
}

TEST_F(RouterTest, ClientClosingBeforeAnyByteGetsNoAnswer) {
  RawConnection c(port());
  c.ShutdownWrite();
  EXPECT_TRUE(c.Closed());
}

TEST_F(RouterTest, HeadCutShortByTheClientIs400) {
  RawConnection c(port());
  c.Write("GET / HT");
  c.ShutdownWrite();
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(r->body, R"({"detail":"Malformed HTTP request"})");
  EXPECT_TRUE(c.Closed());
}

TEST(RouterHandlerFailure, ThrowingHandlerBeforeAnsweringGets500) {
  Router router;
  router.Add(bhttp::verb::get, "/boom", [](Exchange&) -> Task<void> {
    throw std::runtime_error("boom");
    co_return;
  });
  router.Add(bhttp::verb::get, "/silent", [](Exchange&) -> Task<void> { co_return; });
  TestServer server(router);
  RawConnection c(server.port());
  for (const char* target : {"/boom", "/silent"}) {
    c.Write(RequestBytes("GET", target));
    auto r = c.ReadResponse();
    ASSERT_TRUE(r) << target;
    EXPECT_EQ(r->status, 500) << target;
    EXPECT_EQ(r->body, R"({"detail":"Internal server error; the sandboxd log has the details"})");
  }
  // Neither left the connection unusable.
  c.Write(RequestBytes("GET", "/nope"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST(RouterHandlerFailure, ThrowingAfterAnsweringClosesTheConnection) {
  Router router;
  router.Add(bhttp::verb::get, "/late", [](Exchange& ex) -> Task<void> {
    co_await ex.Send(JsonError(202, "sent"));
    throw std::runtime_error("after");
  });
  TestServer server(router);
  RawConnection c(server.port());
  c.Write(RequestBytes("GET", "/late"));
  auto r = c.ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 202);
  EXPECT_EQ(r->body, R"({"detail":"sent"})");
  EXPECT_TRUE(c.Closed());
}

TEST(RouterServer, StopClosesIdleConnections) {
  Router router;
  router.Add(bhttp::verb::get, "/", Echo("root"));
  TestServer server(router);
  RawConnection c(server.port());
  c.Write(RequestBytes("GET", "/"));
  ASSERT_TRUE(c.ReadResponse());
  server.Stop();
  EXPECT_TRUE(c.Closed());
}

TEST(RouterServer, StopWhileAConnectionIsEnding) {
  // BUG (src/http/server.cc:35-51, Server::Stop): for every tracked
  // connection Stop posts a closure that calls stream->socket().shutdown()
  // and stream->close() through a raw tcp_stream pointer. A connection whose
  // last completion is already queued on its strand runs to its end first
  // and frees the stream (it lives in the coroutine frame); the closure then
  // runs on freed memory (ASan: heap-use-after-free in basic_stream::socket(),
  // from server.cc:47). With real threads this is SIGTERM's Stop meeting a
  // connection that is just closing; it showed up at random in the teardown
  // of these tests. Fix idea: let the closure look the stream up in streams_
  // under mu_ (or hold it by shared_ptr) instead of capturing the pointer.
  //
  // Made deterministic with two io threads: the server ends the connection
  // after answering (the body is left unread) and waits in its lingering
  // close; the test parks that connection's strand with a blocking function,
  // hangs up (the other io thread queues the EOF completion behind the
  // blocker), then calls Stop, whose closure queues behind the EOF.
  std::promise<asio::any_io_executor> strand_of_connection;
  Router router;
  router.Add(bhttp::verb::post, "/end", [&](Exchange& ex) -> Task<void> {
    strand_of_connection.set_value(co_await asio::this_coro::executor);
    co_await ex.Send(JsonError(200, "ending"));
  });
  TestServer server(router, ServerOptions{}, 2);
  auto c = std::make_unique<RawConnection>(server.port());
  c->Write(RequestBytes("POST", "/end", "unread body"));
  auto r = c->ReadResponse();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, R"({"detail":"ending"})");
  ASSERT_TRUE(c->Closed());  // the server ended its side: lingering close
  std::promise<void> parked;
  asio::post(strand_of_connection.get_future().get(), [&parked] {
    parked.set_value();
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
  });
  parked.get_future().wait();
  c.reset();  // EOF: the lingering read completes, queued behind the blocker
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  server.StopNow();
}

TEST(RouterServer, ListenRejectsABadHost) {
  asio::io_context io;
  ServerOptions options;
  options.host = "not-an-address";
  options.port = 0;
  Server server(io, options, [](Exchange&) -> Task<void> { co_return; });
  auto r = server.Listen();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message, "invalid listen address 'not-an-address'");
}

}  // namespace
}  // namespace sbx::http
