// Time-of-check/time-of-use: a thread keeps swapping a directory (or a
// file) with a symbolic link to the outside while tool calls run. No read
// may ever return outside content and no write may ever land outside; calls
// may fail (upstream's message or ELOOP/ENOTDIR from the kernel), nothing
// else. TearDown asserts the outside tree is unchanged.
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "servers/filesystem/test_support.h"

namespace sbx::servers::filesystem::testing {
namespace {

class RaceTest : public FsTest {
 protected:
  // Swaps two names atomically until stopped.
  void StartFlipping(const std::string& a, const std::string& b) {
    flipper_ = std::thread([this, a, b] {
      while (!stop_.load()) {
        ::syscall(SYS_renameat2, AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE);
        flips_.fetch_add(1);
      }
    });
    while (flips_.load() < 10) std::this_thread::yield();
  }
  void Stop() {
    stop_ = true;
    if (flipper_.joinable()) flipper_.join();
  }
  void TearDown() override {
    Stop();
    FsTest::TearDown();
  }

  std::thread flipper_;
  std::atomic<bool> stop_{false};
  std::atomic<long> flips_{0};
};

constexpr int kRounds = 1500;

TEST_F(RaceTest, DirectorySwappedForLinkToOutside) {
  // "flip" is alternately a real directory and a link to outside/dir; both
  // hold an "inner.txt".
  Write("flip/inner.txt", "INSIDE\n");
  Symlink(O("dir"), "spare");
  WriteAbs(O("dir/marker_only_outside"), "");
  before_ = OutsideSnapshot();
  StartFlipping(R("flip"), R("spare"));
  int ok = 0;
  for (int i = 0; i < kRounds; ++i) {
    Json r = Call("read_text_file", {{"path", R("flip/inner.txt")}});
    std::string text = r["content"][0].value("text", "");
    ASSERT_EQ(text.find("OUTSIDE"), std::string::npos) << text;
    if (!r.value("isError", false)) {
      ASSERT_EQ(text, "INSIDE\n");
      ++ok;
    }
    Json l = Call("list_directory", {{"path", R("flip")}});
    ASSERT_EQ(l["content"][0].value("text", "").find("marker_only_outside"), std::string::npos);
    Call("write_file", {{"path", R("flip/inner.txt")}, {"content", "INSIDE\n"}});
    Call("write_file", {{"path", R("flip/new" + std::to_string(i % 5))}, {"content", "NEW"}});
    Call("create_directory", {{"path", R("flip/made/sub")}});
    Call("edit_file", {{"path", R("flip/inner.txt")},
                       {"edits", {{{"oldText", "INSIDE"}, {"newText", "INSIDE"}}}}});
  }
  Stop();
  EXPECT_GT(ok, 0);
  EXPECT_GT(flips_.load(), 100);
}

TEST_F(RaceTest, FileSwappedForLinkToOutsideFile) {
  Write("target", "INSIDE\n");
  Symlink(O("secret.txt"), "spare");
  StartFlipping(R("target"), R("spare"));
  for (int i = 0; i < kRounds; ++i) {
    for (const char* tool : {"read_text_file", "read_file", "read_media_file", "get_file_info"}) {
      Json r = Call(tool, {{"path", R("target")}});
      ASSERT_EQ(r.dump().find("SECRET"), std::string::npos) << tool;
      ASSERT_EQ(r.dump().find("U0VDUkVU"), std::string::npos) << tool;  // base64 of SECRET
    }
    Json h = Call("read_text_file", {{"path", R("target")}, {"head", 1}});
    ASSERT_EQ(h.dump().find("SECRET"), std::string::npos);
    Json m = Call("read_multiple_files", {{"paths", {R("target"), R("spare")}}});
    ASSERT_EQ(m.dump().find("SECRET"), std::string::npos);
    Call("write_file", {{"path", R("target")}, {"content", "INSIDE\n"}});
    Call("edit_file",
         {{"path", R("target")}, {"edits", {{{"oldText", "INSIDE"}, {"newText", "INSIDE"}}}}});
  }
  Stop();
  // Whatever the interleaving, the secret was only ever replaced by a
  // rename of "target" or "spare" inside the root, never written.
}

TEST_F(RaceTest, ParentSwappedDuringMovesAndSearches) {
  Write("flip/a.txt", "a");
  Symlink(O("dir"), "spare");
  StartFlipping(R("flip"), R("spare"));
  for (int i = 0; i < kRounds; ++i) {
    Call("move_file", {{"source", R("flip/a.txt")}, {"destination", R("flip/b.txt")}});
    Call("move_file", {{"source", R("flip/b.txt")}, {"destination", R("flip/a.txt")}});
    Json s = Call("search_files", {{"path", R()}, {"pattern", "**/*"}});
    ASSERT_EQ(s.dump().find("inner.txt"), std::string::npos) << s.dump();
    Json t = Call("directory_tree", {{"path", R()}});
    ASSERT_EQ(t.dump().find("inner.txt"), std::string::npos) << t.dump();
  }
}

TEST_F(RaceTest, ConcurrentCallsOnOneServer) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([this, t, &failures] {
      auto session = std::make_shared<mcp::Session>(server_);
      for (int i = 0; i < 200; ++i) {
        std::string name = R("t" + std::to_string(t) + ".txt");
        Json call = {{"jsonrpc", "2.0"},
                     {"id", i},
                     {"method", "tools/call"},
                     {"params",
                      {{"name", "write_file"},
                       {"arguments", {{"path", name}, {"content", std::to_string(i)}}}}}};
        // Sessions need initialize first.
        if (i == 0)
          session->Handle({{"jsonrpc", "2.0"},
                           {"id", -1},
                           {"method", "initialize"},
                           {"params",
                            {{"protocolVersion", "2025-06-18"},
                             {"capabilities", Json::object()},
                             {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}});
        auto out = session->Handle(call);
        Json reply = out.call ? out.call->Run([](Json) {}) : *out.reply;
        if (reply["result"].value("isError", false)) ++failures;
        Json read = {{"jsonrpc", "2.0"},
                     {"id", 1000 + i},
                     {"method", "tools/call"},
                     {"params", {{"name", "read_text_file"}, {"arguments", {{"path", name}}}}}};
        auto r = session->Handle(read);
        Json rr = r.call ? r.call->Run([](Json) {}) : *r.reply;
        if (rr["result"]["content"][0]["text"] != std::to_string(i)) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace sbx::servers::filesystem::testing
