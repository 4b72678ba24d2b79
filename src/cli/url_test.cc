#include "cli/url.h"

#include <gtest/gtest.h>

namespace sbx::cli {
namespace {

TEST(ParseUrl, HostPortAndPath) {
  auto url = ParseUrl("http://example.com:9000/objects/sb/obj?expires=1&signature=ab");
  ASSERT_TRUE(url.ok()) << url.error().message;
  EXPECT_EQ(url->host, "example.com");
  EXPECT_EQ(url->port, 9000);
  EXPECT_EQ(url->target, "/objects/sb/obj?expires=1&signature=ab");
  EXPECT_EQ(url->HostHeader(), "example.com:9000");
}

TEST(ParseUrl, DefaultPortIs80AndOmittedFromHostHeader) {
  auto url = ParseUrl("http://sandboxd.internal");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->port, 80);
  EXPECT_EQ(url->HostHeader(), "sandboxd.internal");
  EXPECT_EQ(url->RequestTarget(), "/");
}

TEST(ParseUrl, SchemeIsCaseInsensitiveAndFragmentDropped) {
  auto url = ParseUrl("HTTP://h:81/a#frag");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->target, "/a");
}

TEST(ParseUrl, QueryWithoutPathGetsSlash) {
  auto url = ParseUrl("http://h?x=1");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->target, "/?x=1");
}

TEST(ParseUrl, Ipv6Literal) {
  auto url = ParseUrl("http://[::1]:8080/x");
  ASSERT_TRUE(url.ok()) << url.error().message;
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->port, 8080);
  EXPECT_EQ(url->HostHeader(), "[::1]:8080");
}

TEST(ParseUrl, RejectsHttpsWithAClearMessage) {
  auto url = ParseUrl("https://api.example.com");
  ASSERT_FALSE(url.ok());
  EXPECT_EQ(url.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(url.error().message.find("https URLs are not supported"), std::string::npos);
  EXPECT_NE(url.error().message.find("plain HTTP"), std::string::npos);
  EXPECT_NE(url.error().message.find("SSH tunnel"), std::string::npos);
}

TEST(ParseUrl, RejectsMalformed) {
  for (const char* bad :
       {"127.0.0.1:8080", "ftp://h", "http://", "http://:80", "http://h:", "http://h:0",
        "http://h:65536", "http://h:8o", "http://user@h", "http://[::1", "http://[::1]x"}) {
    auto url = ParseUrl(bad);
    EXPECT_FALSE(url.ok()) << bad;
    if (!url.ok()) {
      EXPECT_NE(url.error().message.find(bad), std::string::npos) << bad;
    }
  }
}

TEST(ParseBaseUrl, PathPrefixWithoutTrailingSlash) {
  auto url = ParseBaseUrl("http://gw:8080/sandboxd/");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->target, "/sandboxd");
  EXPECT_EQ(url->WithPath("/local-sandbox").RequestTarget(), "/sandboxd/local-sandbox");

  auto root = ParseBaseUrl("http://127.0.0.1:8080/");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->target, "");
  EXPECT_EQ(root->WithPath("/healthz").RequestTarget(), "/healthz");
  EXPECT_EQ(root->ToString(), "http://127.0.0.1:8080");
}

TEST(ParseBaseUrl, RejectsQuery) { EXPECT_FALSE(ParseBaseUrl("http://h/?a=b").ok()); }

TEST(ResolveUrl, AbsolutePathKeepsHostAndPort) {
  auto base = ParseBaseUrl("http://127.0.0.1:8080/prefix");
  ASSERT_TRUE(base.ok());
  auto url = ResolveUrl(*base, "/objects/s/o?expires=1");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->HostHeader(), "127.0.0.1:8080");
  EXPECT_EQ(url->target, "/objects/s/o?expires=1");
}

TEST(ResolveUrl, FullUrlReplacesBase) {
  auto base = ParseBaseUrl("http://127.0.0.1:8080");
  ASSERT_TRUE(base.ok());
  auto url = ResolveUrl(*base, "http://public.example:9000/objects/s/o");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->host, "public.example");
  EXPECT_EQ(url->port, 9000);
  EXPECT_FALSE(ResolveUrl(*base, "https://public.example/objects/s/o").ok());
}

TEST(EncodePathSegment, KeepsUnreservedEncodesTheRest) {
  EXPECT_EQ(EncodePathSegment("c0a830f9-d92c_4051.x~"), "c0a830f9-d92c_4051.x~");
  EXPECT_EQ(EncodePathSegment("a/b?c d#"), "a%2Fb%3Fc%20d%23");
  EXPECT_EQ(EncodePathSegment(".."), "%2E%2E");
  EXPECT_EQ(EncodePathSegment("."), "%2E");
}

}  // namespace
}  // namespace sbx::cli
