#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/json.h"
#include "http/exchange.h"
#include "http/http_test_util.h"

namespace sbx::http {
namespace {

using Items = std::vector<std::pair<std::string, std::string>>;

TEST(PercentDecodeTest, DecodesHexPairsInEitherCase) {
  EXPECT_EQ(PercentDecode("a%20b", false), "a b");
  EXPECT_EQ(PercentDecode("%41%62%7e%7E", false), "Ab~~");
  EXPECT_EQ(PercentDecode("%c3%A9", false), "\xc3\xa9");
  EXPECT_EQ(PercentDecode("%2F%2f", false), "//");
  EXPECT_EQ(PercentDecode("%00", false), std::string(1, '\0'));
  EXPECT_EQ(PercentDecode("%ff", false), "\xff");
  EXPECT_EQ(PercentDecode("", false), "");
  EXPECT_EQ(PercentDecode("plain", true), "plain");
}

TEST(PercentDecodeTest, PlusIsASpaceOnlyInQueries) {
  EXPECT_EQ(PercentDecode("a+b", true), "a b");
  EXPECT_EQ(PercentDecode("a+b", false), "a+b");
  // An encoded plus is a plus in both.
  EXPECT_EQ(PercentDecode("%2B", true), "+");
  EXPECT_EQ(PercentDecode("%2b", false), "+");
}

TEST(PercentDecodeTest, TruncatedEscapesStayLiteral) {
  EXPECT_EQ(PercentDecode("%", false), "%");
  EXPECT_EQ(PercentDecode("%4", false), "%4");
  EXPECT_EQ(PercentDecode("100%", true), "100%");
  EXPECT_EQ(PercentDecode("ab%4", true), "ab%4");
  EXPECT_EQ(PercentDecode("%41%4", false), "A%4");
  // The last complete escape at the very end is decoded.
  EXPECT_EQ(PercentDecode("ab%41", false), "abA");
}

TEST(PercentDecodeTest, InvalidHexStaysLiteral) {
  EXPECT_EQ(PercentDecode("%zz", false), "%zz");
  EXPECT_EQ(PercentDecode("%4g", false), "%4g");
  EXPECT_EQ(PercentDecode("%g4", false), "%g4");
  EXPECT_EQ(PercentDecode("% 1", true), "% 1");
  // The '%' is kept and decoding resumes right after it.
  EXPECT_EQ(PercentDecode("%%41", false), "%A");
  EXPECT_EQ(PercentDecode("%+41", true), "% 41");
  // Decoding is one pass: "%2541" is "%41", not "A".
  EXPECT_EQ(PercentDecode("%2541", false), "%41");
}

TEST(QueryParamsTest, ItemsInOrderDecoded) {
  QueryParams q("a=1&b=two%20words&c=x+y&d=%2B");
  EXPECT_EQ(q.all(), (Items{{"a", "1"}, {"b", "two words"}, {"c", "x y"}, {"d", "+"}}));
}

TEST(QueryParamsTest, LastValueWins) {
  QueryParams q("region=us&x=1&region=asia");
  EXPECT_EQ(q.Get("region"), "asia");
  EXPECT_EQ(q.Get("x"), "1");
  EXPECT_EQ(q.all(), (Items{{"region", "us"}, {"x", "1"}, {"region", "asia"}}));
}

TEST(QueryParamsTest, MissingEqualsIsAnEmptyValue) {
  QueryParams q("flag&k=v&other=");
  EXPECT_EQ(q.Get("flag"), "");
  EXPECT_EQ(q.Get("other"), "");
  EXPECT_EQ(q.all(), (Items{{"flag", ""}, {"k", "v"}, {"other", ""}}));
}

TEST(QueryParamsTest, AbsentNameIsNullopt) {
  QueryParams q("a=1");
  EXPECT_EQ(q.Get("b"), std::nullopt);
  EXPECT_EQ(q.Get("A"), std::nullopt);  // names are case-sensitive
  EXPECT_EQ(QueryParams("").Get("a"), std::nullopt);
  EXPECT_TRUE(QueryParams("").all().empty());
}

TEST(QueryParamsTest, EmptyItemsAreSkippedAndOnlyTheFirstEqualsSplits) {
  QueryParams q("&&a=1=2&&=v&");
  EXPECT_EQ(q.all(), (Items{{"a", "1=2"}, {"", "v"}}));
}

TEST(QueryParamsTest, KeysAreDecodedToo) {
  QueryParams q("k%3D=v%26w&sp+ace=1");
  EXPECT_EQ(q.all(), (Items{{"k=", "v&w"}, {"sp ace", "1"}}));
  EXPECT_EQ(q.Get("sp ace"), "1");
}

TEST(QueryParamsTest, ExchangeSplitsPathAndQueryAtTheFirstQuestionMark) {
  Router router;
  router.Add(bhttp::verb::get, "/q", [](Exchange& ex) -> Task<void> {
    Json items = Json::array();
    for (const auto& [k, v] : ex.query().all()) items.push_back({k, v});
    Json body = {{"path", std::string(ex.path())},
                 {"target", std::string(ex.target())},
                 {"items", items},
                 {"x", ex.query().Get("x").value_or("<none>")}};
    Response r;
    r.body = body.dump();
    co_await ex.Send(std::move(r));
  });
  testing::TestServer server(router);
  auto r = testing::RoundTrip(server.port(),
                              testing::RequestBytes("GET", "/q?x=1&y=a+b%3F&x=last?&flag"));
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body,
            R"({"path":"/q","target":"/q?x=1&y=a+b%3F&x=last?&flag","items":)"
            R"([["x","1"],["y","a b?"],["x","last?"],["flag",""]],"x":"last?"})");
  r = testing::RoundTrip(server.port(), testing::RequestBytes("GET", "/q"));
  EXPECT_EQ(r.body, R"({"path":"/q","target":"/q","items":[],"x":"<none>"})");
  r = testing::RoundTrip(server.port(), testing::RequestBytes("GET", "/q?"));
  EXPECT_EQ(r.body, R"({"path":"/q","target":"/q?","items":[],"x":"<none>"})");
}

TEST(ExchangeHeaderTest, HeadersAreCaseInsensitiveAndAbsentIsEmpty) {
  Router router;
  router.Add(bhttp::verb::post, "/h", [](Exchange& ex) -> Task<void> {
    auto len = ex.content_length();
    Json body = {{"auth", std::string(ex.header("authorization"))},
                 {"missing", std::string(ex.header("X-Missing"))},
                 {"length", len ? Json(*len) : Json(nullptr)},
                 {"method", std::string(ex.method_string())},
                 {"keep_alive", ex.keep_alive()}};
    Response r;
    r.body = body.dump();
    co_await ex.Send(std::move(r));
  });
  testing::TestServer server(router);
  auto r = testing::RoundTrip(
      server.port(), testing::RequestBytes("POST", "/h", "", "AUTHORIZATION: Bearer k\r\n"));
  EXPECT_EQ(r.body,
            R"({"auth":"Bearer k","missing":"","length":0,"method":"POST","keep_alive":true})");
  r = testing::RoundTrip(server.port(), "POST /h HTTP/1.0\r\n\r\n");
  EXPECT_EQ(r.status_line.substr(0, 12), "HTTP/1.0 200");
  EXPECT_EQ(r.body,
            R"({"auth":"","missing":"","length":null,"method":"POST","keep_alive":false})");
}

}  // namespace
}  // namespace sbx::http
