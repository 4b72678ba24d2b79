// The confine tests' fixture: a fresh tree under /tmp holding the root and,
// beside it, the outside an attack aims at.
//
//   <base>/root/sub/f        "inside"
//   <base>/outside/secret    "secret"
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "confine/beneath.h"

namespace sbx::confine::testing {

class TreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/confine_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    base_ = tmpl;
    root_ = base_ + "/root";
    outside_ = base_ + "/outside";
    ASSERT_EQ(::mkdir(root_.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((root_ + "/sub").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir(outside_.c_str(), 0755), 0);
    Write(root_ + "/sub/f", "inside");
    Write(outside_ + "/secret", "secret");
    auto fd = OpenRoot(root_);
    ASSERT_TRUE(fd.ok());
    root_fd_ = std::move(*fd);
  }
  void TearDown() override { std::filesystem::remove_all(base_); }

  static void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static std::string ReadFd(int fd) {
    std::string out(64, '\0');
    ssize_t n = ::pread(fd, out.data(), out.size(), 0);
    return n < 0 ? "<error>" : out.substr(0, static_cast<std::size_t>(n));
  }
  void Link(const std::string& target, const std::string& rel) {
    ASSERT_EQ(::symlink(target.c_str(), (root_ + "/" + rel).c_str()), 0) << rel;
  }

  std::string base_, root_, outside_;
  UniqueFd root_fd_;
};

}  // namespace sbx::confine::testing
