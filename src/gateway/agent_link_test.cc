// AgentLinks: links connected ahead of a sandbox's first request, and what
// happens when that cannot be done or the agent drops one.
#include "gateway/agent_link.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "agent/client.h"
#include "agent/protocol.h"

namespace sbx::gateway {
namespace {

using namespace std::chrono_literals;

// Two io_contexts run by a thread each, as sandboxd's io threads.
class AgentLinksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/agent-link-test-XXXXXX";
    dir_ = ::mkdtemp(dir);
    path_ = dir_ + "/agent.sock";
    for (auto& io : ios_) {
      guards_.emplace_back(asio::make_work_guard(io));
      threads_.emplace_back([&io] { io.run(); });
      contexts_.push_back(io.get_executor());
    }
  }
  void TearDown() override {
    // The io threads first: a link whose read ends calls back into links_.
    guards_.clear();
    for (auto& io : ios_) io.stop();
    for (auto& t : threads_) t.join();
    links_.reset();
    if (listen_fd_ >= 0) ::close(listen_fd_);
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  void Listen() {
    auto fd = agent::ListenAt(path_);
    ASSERT_TRUE(fd.ok()) << fd.error().message;
    listen_fd_ = *fd;
    ::fcntl(listen_fd_, F_SETFL, O_NONBLOCK);  // Pending() takes what waits, then stops
  }
  // The connections waiting at the agent's socket, accepted now.
  std::vector<int> Pending() {
    std::vector<int> fds;
    for (;;) {
      int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) return fds;
      fds.push_back(fd);
    }
  }
  Result<std::shared_ptr<AgentLink>> Get(int context) { return links_->Get(contexts_[context], "sb1", path_); }

  asio::io_context ios_[2];
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards_;
  std::vector<std::thread> threads_;
  std::vector<asio::any_io_executor> contexts_;
  std::unique_ptr<AgentLinks> links_ = std::make_unique<AgentLinks>(ios_[0].get_executor());
  std::string dir_, path_;
  int listen_fd_ = -1;
};

TEST_F(AgentLinksTest, ConnectAheadMakesOneLinkPerContextThatGetThenUses) {
  ASSERT_NO_FATAL_FAILURE(Listen());
  EXPECT_EQ(links_->ConnectAhead(contexts_, "sb1", path_), 0u);
  std::vector<int> accepted = Pending();
  EXPECT_EQ(accepted.size(), 2u);
  auto a = Get(0), b = Get(1);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(Pending().empty());  // Get connected nothing more
  // Again: nothing new either.
  EXPECT_EQ(links_->ConnectAhead(contexts_, "sb1", path_), 0u);
  EXPECT_TRUE(Pending().empty());
  EXPECT_EQ(*Get(0), *a);
  for (int fd : accepted) ::close(fd);
}

TEST_F(AgentLinksTest, WhatCannotConnectAheadIsConnectedByTheFirstRequest) {
  // No agent listening (yet): nothing is kept.
  EXPECT_EQ(links_->ConnectAhead(contexts_, "sb1", path_), 2u);
  auto none = Get(0);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::kUnavailable);
  ASSERT_NO_FATAL_FAILURE(Listen());
  auto link = Get(0);
  ASSERT_TRUE(link.ok()) << link.error().message;
  std::vector<int> accepted = Pending();
  EXPECT_EQ(accepted.size(), 1u);
  for (int fd : accepted) ::close(fd);
}

TEST_F(AgentLinksTest, ALinkTheAgentClosedIsReplacedOnTheNextRequest) {
  ASSERT_NO_FATAL_FAILURE(Listen());
  EXPECT_EQ(links_->ConnectAhead(contexts_, "sb1", path_), 0u);
  std::vector<int> accepted = Pending();
  ASSERT_EQ(accepted.size(), 2u);
  auto before = Get(0);
  ASSERT_TRUE(before.ok());
  for (int fd : accepted) ::close(fd);
  // The links find out on their own (their reads end) and are forgotten.
  std::shared_ptr<AgentLink> after;
  for (int i = 0; i < 500; ++i) {
    auto link = Get(0);
    ASSERT_TRUE(link.ok());
    if (*link != *before) {
      after = *link;
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_NE(after, nullptr) << "the closed link was still handed out";
  accepted = Pending();
  EXPECT_EQ(accepted.size(), 1u);
  for (int fd : accepted) ::close(fd);
}

}  // namespace
}  // namespace sbx::gateway
