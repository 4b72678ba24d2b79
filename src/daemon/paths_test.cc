#include "daemon/paths.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace sbx::daemon {
namespace {

// Each test runs in a fresh directory of its own, as its working directory,
// so relative paths are relative to it; the previous one is restored after.
class ResolvePathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/sandboxd-paths-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    char cwd[4096];
    ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
    old_cwd_ = cwd;
    ASSERT_EQ(::chdir(dir_.c_str()), 0);
    // An executable file stands in for the agent binary: it is only checked, never run.
    Write("agent-bin", "#!/bin/sh\n");
    ASSERT_EQ(::chmod("agent-bin", 0755), 0);
    // And one for the PDF helper the agent runs from beside itself.
    Write("sandbox-pdf", "#!/bin/sh\n");
    ASSERT_EQ(::chmod("sandbox-pdf", 0755), 0);
    config_.agent_path = "agent-bin";
  }
  void TearDown() override {
    ASSERT_EQ(::chdir(old_cwd_.c_str()), 0);
    std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  static void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  std::string Abs(const std::string& rel) const { return dir_ + "/" + rel; }
  // Resolution must fail naming `flag`, and leave the config as it was.
  void ExpectRefused(const std::string& flag, const std::string& detail) {
    DaemonConfig before = config_;
    Status s = ResolvePaths(config_);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(s.error().message.rfind(flag + " '", 0), 0u) << s.error().message;
    EXPECT_NE(s.error().message.find(detail), std::string::npos) << s.error().message;
    EXPECT_EQ(config_.data_dir, before.data_dir);
    EXPECT_EQ(config_.agent_path, before.agent_path);
    EXPECT_EQ(config_.server_settings_file, before.server_settings_file);
  }

  std::string dir_, old_cwd_;
  DaemonConfig config_;
};

TEST_F(ResolvePathsTest, TheEmbeddedRelativeDataDirBecomesAbsoluteAndIsCreated0700) {
  EXPECT_EQ(config_.data_dir, "./sandboxd-data");  // the embedded default
  ASSERT_TRUE(ResolvePaths(config_).ok());
  EXPECT_EQ(config_.data_dir, Abs("sandboxd-data"));
  EXPECT_EQ(config_.agent_path, Abs("agent-bin"));
  struct stat st {};
  ASSERT_EQ(::stat(config_.data_dir.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  // Resolving again changes nothing: the result is a fixed point.
  DaemonConfig again = config_;
  ASSERT_TRUE(ResolvePaths(again).ok());
  EXPECT_EQ(again.data_dir, config_.data_dir);
}

TEST_F(ResolvePathsTest, AbsoluteAndNestedRelativeDataDirs) {
  config_.data_dir = Abs("a/b/../c");
  ASSERT_TRUE(ResolvePaths(config_).ok());
  EXPECT_EQ(config_.data_dir, Abs("a/c"));
  config_.data_dir = "x/./y/";
  ASSERT_TRUE(ResolvePaths(config_).ok());
  EXPECT_EQ(config_.data_dir, Abs("x/y"));
}

TEST_F(ResolvePathsTest, ASymlinkedDataDirResolvesToItsTarget) {
  ASSERT_EQ(::mkdir("real-data", 0700), 0);
  ASSERT_EQ(::symlink("real-data", "link-data"), 0);
  config_.data_dir = "link-data";
  ASSERT_TRUE(ResolvePaths(config_).ok());
  EXPECT_EQ(config_.data_dir, Abs("real-data"));
}

TEST_F(ResolvePathsTest, DataDirsThatCannotWorkNameTheFlag) {
  config_.data_dir = "with,comma";
  ExpectRefused("--data-dir", "contains ',', ':' or '\\', which overlayfs cannot take");
  config_.data_dir = "with:colon";
  ExpectRefused("--data-dir", "which overlayfs cannot take");
  Write("a-file", "x");
  config_.data_dir = "a-file";
  ExpectRefused("--data-dir", "cannot create it");
  config_.data_dir = "a-file/below";
  ExpectRefused("--data-dir", "cannot create it");
  config_.data_dir = "";
  ExpectRefused("--data-dir", "empty");
  // A symlink whose target has a comma is judged by where it leads.
  ASSERT_EQ(::mkdir("tar,get", 0700), 0);
  ASSERT_EQ(::symlink("tar,get", "innocent"), 0);
  config_.data_dir = "innocent";
  ExpectRefused("--data-dir", Abs("tar,get"));
}

TEST_F(ResolvePathsTest, OtherPathsAreResolvedOrRefusedByName) {
  config_.agent_path = "no-such-agent";
  ExpectRefused("--agent-path", "no sandbox-agent there");
  Write("not-exec", "x");
  config_.agent_path = "not-exec";
  ExpectRefused("--agent-path", "not an executable file");
  config_.agent_path = "agent-bin";
  ASSERT_EQ(::chmod("sandbox-pdf", 0644), 0);
  ExpectRefused("--agent-path", "no executable sandbox-pdf beside it (" + Abs("sandbox-pdf") + ")");
  ASSERT_EQ(::unlink("sandbox-pdf"), 0);
  ExpectRefused("--agent-path", "no executable sandbox-pdf beside it");
  Write("sandbox-pdf", "#!/bin/sh\n");
  ASSERT_EQ(::chmod("sandbox-pdf", 0755), 0);

  config_.server_settings_file = "settings.json";
  ExpectRefused("--server-settings", "No such file or directory");
  Write("settings.json", "{}");
  config_.paper_store_dir = "settings.json";
  ExpectRefused("--paper-store", "not a directory");
  ASSERT_EQ(::mkdir("papers", 0700), 0);
  config_.paper_store_dir = "papers";
  config_.test_clock_file = "clock";  // need not exist yet
  ASSERT_TRUE(ResolvePaths(config_).ok());
  EXPECT_EQ(config_.server_settings_file, Abs("settings.json"));
  EXPECT_EQ(config_.paper_store_dir, Abs("papers"));
  EXPECT_EQ(config_.test_clock_file, Abs("clock"));
}

}  // namespace
}  // namespace sbx::daemon
