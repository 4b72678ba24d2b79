#include "gateway/access.h"

#include <gtest/gtest.h>

namespace sbx::gateway {
namespace {

TEST(OriginPolicy, PublicAuthorityAndNoOrigin) {
  OriginPolicy p("https://sandbox.example.com");
  EXPECT_FALSE(p.Check("sandbox.example.com", ""));
  EXPECT_FALSE(p.Check("Sandbox.Example.com:443", ""));
  EXPECT_FALSE(p.Check("sandbox.example.com", "https://sandbox.example.com"));
}

TEST(OriginPolicy, RebindingHostsAndForeignOriginsAreRefused) {
  OriginPolicy p("http://127.0.0.1:8080");
  EXPECT_EQ(*p.Check("evil.example:8080", ""),
            "Host 'evil.example:8080' is not this server's public address; use the mcp_server_url as given");
  EXPECT_TRUE(p.Check("127.0.0.1:9090", ""));
  EXPECT_TRUE(p.Check("", ""));
  EXPECT_EQ(*p.Check("127.0.0.1:8080", "http://evil.example"),
            "Origin 'http://evil.example' may not use this server; requests from web pages must come from "
            "http://127.0.0.1:8080");
  EXPECT_TRUE(p.Check("127.0.0.1:8080", "null"));
  EXPECT_TRUE(p.Check("127.0.0.1:8080", "https://127.0.0.1:8080"));
}

TEST(OriginPolicy, LoopbackSpellingsShareTheLoopbackPublicUrl) {
  OriginPolicy p("http://127.0.0.1:8080");
  EXPECT_FALSE(p.Check("localhost:8080", "http://localhost:8080"));
  EXPECT_FALSE(p.Check("[::1]:8080", ""));
  OriginPolicy public_host("https://sbx.example.com");
  EXPECT_TRUE(public_host.Check("localhost:443", ""));
}

TEST(ParseAccept, WhatRealClientsSend) {
  auto both = ParseAccept("application/json, text/event-stream");
  EXPECT_TRUE(both.json && both.event_stream);
  auto sse = ParseAccept("text/event-stream");
  EXPECT_TRUE(!sse.json && sse.event_stream);
  auto any = ParseAccept("*/*");
  EXPECT_TRUE(any.json && any.event_stream);
  auto none = ParseAccept("text/html");
  EXPECT_TRUE(!none.json && !none.event_stream);
  auto absent = ParseAccept("");
  EXPECT_TRUE(absent.json && absent.event_stream);
  auto refused = ParseAccept("application/json;q=0, text/event-stream;q=0.5");
  EXPECT_TRUE(!refused.json && refused.event_stream);
}

}  // namespace
}  // namespace sbx::gateway
