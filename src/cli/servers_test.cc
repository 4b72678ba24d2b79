#include "cli/servers.h"

#include <gtest/gtest.h>

namespace sbx::cli {
namespace {

TEST(ParseServerList, CommaSeparatedKeepsOrderDropsRepeats) {
  auto sel = ParseServerList("filesystem, git ,terminal,git,");
  ASSERT_TRUE(sel.ok()) << sel.error().message;
  EXPECT_FALSE(sel->all);
  EXPECT_EQ(sel->names, (std::vector<std::string>{"filesystem", "git", "terminal"}));
  EXPECT_EQ(sel->ToJson().dump(), R"(["filesystem","git","terminal"])");
}

TEST(ParseServerList, All) {
  for (const char* text : {"ALL", "all", " All "}) {
    auto sel = ParseServerList(text);
    ASSERT_TRUE(sel.ok()) << text;
    EXPECT_TRUE(sel->all);
    EXPECT_EQ(sel->ToJson(), Json("ALL"));
  }
  EXPECT_FALSE(ParseServerList("ALL,git").ok());
}

TEST(ParseServerList, EveryValidNameAccepted) {
  for (auto name : kServerNames) EXPECT_TRUE(ParseServerList(name).ok()) << name;
  EXPECT_EQ(kServerNames.size(), 16u);
}

TEST(ParseServerList, UnknownNameListsValidNames) {
  auto sel = ParseServerList("filesystem,gti");
  ASSERT_FALSE(sel.ok());
  const std::string& msg = sel.error().message;
  EXPECT_NE(msg.find("unknown server 'gti'"), std::string::npos) << msg;
  for (auto name : kServerNames) EXPECT_NE(msg.find(name), std::string::npos) << name;
  EXPECT_NE(msg.find("ALL"), std::string::npos);
}

TEST(ParseServerList, NearMissSuggestsTheName) {
  auto sel = ParseServerList("google-cloud");
  ASSERT_FALSE(sel.ok());
  EXPECT_NE(sel.error().message.find("did you mean 'google_cloud'?"), std::string::npos);
  sel = ParseServerList("Code_Runner");
  ASSERT_FALSE(sel.ok());
  EXPECT_NE(sel.error().message.find("did you mean 'code-runner'?"), std::string::npos);
}

TEST(ParseServerList, EmptyRejected) {
  EXPECT_FALSE(ParseServerList("").ok());
  EXPECT_FALSE(ParseServerList(" , ").ok());
}

TEST(ParseTtl, SecondsOrNone) {
  auto ttl = ParseTtl("3600");
  ASSERT_TRUE(ttl.ok());
  EXPECT_EQ(*ttl, std::optional<long long>(3600));
  ttl = ParseTtl("none");
  ASSERT_TRUE(ttl.ok());
  EXPECT_FALSE(ttl->has_value());
  for (const char* bad : {"", "1h", "3.5", "ten"}) EXPECT_FALSE(ParseTtl(bad).ok()) << bad;
}

}  // namespace
}  // namespace sbx::cli
