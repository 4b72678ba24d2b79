// McpHost's preparing and warming of servers (what sandboxd asks of a pooled
// agent and of one it hands over), and AgentClient's notifications.
#include "agent/mcp_host.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "agent/client.h"
#include "agent/protocol.h"
#include "servers/registry.h"

namespace sbx::agent {
namespace {

using Names = std::vector<std::string>;

Json InitializeParams(const std::string& server, const std::string& session) {
  return Json{{"server", server},
              {"session", session},
              {"create", true},
              {"message",
               {{"jsonrpc", "2.0"},
                {"id", 1},
                {"method", "initialize"},
                {"params",
                 {{"protocolVersion", "2025-06-18"},
                  {"capabilities", Json::object()},
                  {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}}}};
}

class McpHostPrepareTest : public ::testing::Test {
 protected:
  void SetUp() override { servers::Configure(Json::object()); }  // nothing built
  void TearDown() override { servers::Configure(Json::object()); }
  McpHost host_;
};

TEST_F(McpHostPrepareTest, PrepareBuildsTheNamedServersWhenItsCallRuns) {
  auto call = host_.Prepare(Json{{"servers", {"git", "filesystem", "no-such-server", "git"}}});
  ASSERT_TRUE(call.ok()) << call.error().message;
  ASSERT_TRUE(*call);
  EXPECT_EQ(servers::Built(), Names{});  // nothing until it runs
  (*call)();
  EXPECT_EQ(servers::Built(), (Names{"filesystem", "git"}));
  EXPECT_EQ(host_.sessions(), 0u);  // its own initializes left no session

  // The client's initialize gets the server built ahead.
  auto prepared = servers::Find("filesystem");
  std::vector<std::string> replies;
  auto run = host_.Message(Json(7), InitializeParams("filesystem", "s1"),
                           [&](const std::string& text) { replies.push_back(text); });
  EXPECT_FALSE(run);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_NE(replies[0].find("\"serverInfo\":{\"name\":\"secure-filesystem-server\""), std::string::npos)
      << replies[0];
  EXPECT_EQ(host_.sessions(), 1u);
  EXPECT_EQ(servers::Find("filesystem"), prepared);
}

TEST_F(McpHostPrepareTest, PrepareRefusesBadParams) {
  const std::string why = "mcp.prepare: params need \"servers\", an array of at most 64 strings";
  Json too_many = Json::array();
  for (int i = 0; i < 65; ++i) too_many.push_back("git");
  for (const Json& params : {Json::object(), Json{{"servers", "git"}}, Json{{"servers", {"git", 3}}},
                             Json{{"servers", too_many}}, Json::array()}) {
    auto call = host_.Prepare(params);
    ASSERT_FALSE(call.ok()) << params.dump();
    EXPECT_EQ(call.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(call.error().message, why);
  }
  EXPECT_EQ(servers::Built(), Names{});
}

TEST_F(McpHostPrepareTest, WarmBuildsEveryServerAndKeepsNone) {
  EXPECT_FALSE(host_.warmed());
  auto call = host_.Warm();
  ASSERT_TRUE(call);
  call();
  EXPECT_TRUE(host_.warmed());
  EXPECT_EQ(servers::Built(), Names{});
  EXPECT_EQ(host_.sessions(), 0u);
}

// A listening socket in a temporary directory, as an agent's.
class ListeningAgent {
 public:
  ListeningAgent() {
    char dir[] = "/tmp/mcp-host-test-XXXXXX";
    dir_ = ::mkdtemp(dir);
    path_ = dir_ + "/agent.sock";
    auto fd = ListenAt(path_);
    EXPECT_TRUE(fd.ok());
    listen_fd_ = fd.ok() ? *fd : -1;
  }
  ~ListeningAgent() {
    if (listen_fd_ >= 0) ::close(listen_fd_);
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }
  int Accept() { return ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC); }

 private:
  std::string dir_, path_;
  int listen_fd_ = -1;
};

TEST(AgentClientTest, NotifySendsAFrameWithoutIdAndReconnectsOnce) {
  ListeningAgent agent;
  AgentClient client(agent.path());
  ASSERT_TRUE(client.Open().ok());
  ASSERT_TRUE(client.Open().ok());  // already connected: no second connection
  Channel first(agent.Accept());
  ASSERT_TRUE(client.Notify("mcp.prepare", Json{{"servers", {"git"}}}).ok());
  auto m = first.Receive(std::chrono::seconds(5));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->body, (Json{{"jsonrpc", "2.0"},
                           {"method", "mcp.prepare"},
                           {"params", {{"servers", {"git"}}}},
                           {"server", "agent"},
                           {"session", nullptr}}));

  // The agent end goes away (an agent that outlived a restart of ours
  // closed it): the next notification finds out on its write and goes out
  // on a new connection.
  ::shutdown(first.fd(), SHUT_RDWR);
  Status sent = client.Notify("mcp.warm", Json::object());
  ASSERT_TRUE(sent.ok()) << sent.error().message;
  Channel second(agent.Accept());
  auto again = second.Receive(std::chrono::seconds(5));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->body["method"], "mcp.warm");
}

TEST(AgentClientTest, NotifyWithoutAnAgentIsUnavailable) {
  AgentClient client("/tmp/no-such-dir-for-mcp-host-test/agent.sock");
  auto sent = client.Notify("mcp.warm", Json::object());
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.error().code, ErrorCode::kUnavailable);
  EXPECT_FALSE(client.Open().ok());
}

}  // namespace
}  // namespace sbx::agent
