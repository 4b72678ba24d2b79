// Attempts to make the tools' own file operations leave the workspace:
// absolute paths, "..", the sibling whose name starts with the workspace's,
// symbolic links out (file, directory, dangling, in the storage path),
// generated names with "../", and links swapped in while calls run. The
// fixture checks after each test that nothing outside changed.
#include <atomic>
#include <thread>

#include "servers/code_executor/test_support.h"

namespace sbx::servers::code_executor::testing {
namespace {

class EscapeTest : public CodeExecutorTest {
 protected:
  std::string Denied(const std::string& path) const {
    return "Access denied - path outside allowed directories: " + path + " not in " + ws_;
  }
  std::string LinkDenied(const std::string& real) const {
    return "Access denied - symlink target outside allowed directories: " + real + " not in " + ws_;
  }
  // The error of each path tool for `path`, with upstream's body shape.
  void ExpectEveryPathToolRefuses(const std::string& path, const std::string& error) {
    for (const char* tool : {"read_code_file", "append_to_code_file", "execute_code_file"}) {
      Json args{{"file_path", path}, {"content", "print('APPENDED')\n"}};
      EXPECT_EQ(Text(tool, args),
                Json({{"status", "error"}, {"error", error}, {"file_path", path}}).dump())
          << tool << " " << path;
    }
  }
};

TEST_F(EscapeTest, AbsolutePathsOutside) {
  ExpectEveryPathToolRefuses(outside_ + "/secret.py", Denied(outside_ + "/secret.py"));
  ExpectEveryPathToolRefuses("/etc/passwd", Denied("/etc/passwd"));
  ExpectEveryPathToolRefuses(ws_ + "2/file.py", Denied(ws_ + "2/file.py"));  // sibling prefix
}

TEST_F(EscapeTest, DotDotOut) {
  MakeStore();
  // Relative paths are relative to the storage directory.
  ExpectEveryPathToolRefuses("../../outside/secret.py", Denied(outside_ + "/secret.py"));
  ExpectEveryPathToolRefuses(ws_ + "/store/../../outside/secret.py",
                             Denied(outside_ + "/secret.py"));
  ExpectEveryPathToolRefuses("../../ws2/file.py", Denied(ws_ + "2/file.py"));
}

TEST_F(EscapeTest, SymlinksOut) {
  MakeStore();
  ASSERT_EQ(::symlink((outside_ + "/secret.py").c_str(), (store_ + "/link.py").c_str()), 0);
  ASSERT_EQ(::symlink(outside_.c_str(), (store_ + "/dirlink").c_str()), 0);
  ASSERT_EQ(::symlink("../../outside/secret.py", (store_ + "/rel.py").c_str()), 0);
  ASSERT_EQ(::symlink((outside_ + "/new.py").c_str(), (store_ + "/dangling.py").c_str()), 0);
  ExpectEveryPathToolRefuses(store_ + "/link.py", LinkDenied(outside_ + "/secret.py"));
  ExpectEveryPathToolRefuses("link.py", LinkDenied(outside_ + "/secret.py"));
  ExpectEveryPathToolRefuses("rel.py", LinkDenied(outside_ + "/secret.py"));
  ExpectEveryPathToolRefuses("dirlink/secret.py", LinkDenied(outside_ + "/secret.py"));
  // A dangling link out: nothing to reach (access fails as Node's would),
  // and nothing gets created at its target (the snapshot checks).
  ExpectEveryPathToolRefuses("dangling.py",
                             "ENOENT: no such file or directory, access 'dangling.py'");
  // A link that stays inside is followed, as fs would.
  WriteAbs(store_ + "/real.py", "print('inside')\n");
  ASSERT_EQ(::symlink("real.py", (store_ + "/good.py").c_str()), 0);
  EXPECT_EQ(Body("read_code_file", {{"file_path", "good.py"}}, false)["content"],
            "print('inside')\n");
  EXPECT_EQ(Body("execute_code_file", {{"file_path", "good.py"}}, false)["output"], "inside\n");
}

TEST_F(EscapeTest, GeneratedNamesStayInside) {
  MakeStore();
  Json body =
      Body("initialize_code_file", {{"content", "x"}, {"filename", "../../outside/evil"}}, true);
  std::string error = body["error"];
  std::string prefix = "Access denied - path outside allowed directories: " + outside_ + "/evil_";
  EXPECT_EQ(error.substr(0, prefix.size()), prefix) << error;
  body = Body("execute_code", {{"code", "print(1)"}, {"filename", "../../outside/evil"}}, true);
  error = body["error"];
  EXPECT_EQ(error.substr(0, prefix.size()), prefix) << error;
  EXPECT_EQ(body["file_path"].get<std::string>().rfind(outside_ + "/evil_", 0), 0u);
  // Through a directory link out: refused, nothing written there.
  ASSERT_EQ(::symlink(outside_.c_str(), (store_ + "/out").c_str()), 0);
  body = Body("initialize_code_file", {{"content", "x"}, {"filename", "out/evil"}}, true);
  EXPECT_EQ(body["error"].get<std::string>().rfind("Access denied - symlink target outside", 0), 0u)
      << body;
  // ".." that stays inside is fine (path.join normalises it).
  body = Body("initialize_code_file", {{"content", "x"}, {"filename", "../up"}}, false);
  EXPECT_EQ(body["file_path"].get<std::string>().rfind(ws_ + "/up_", 0), 0u);
}

TEST_F(EscapeTest, StorageDirectoryLinkedOut) {
  ASSERT_EQ(::symlink(outside_.c_str(), store_.c_str()), 0);
  Json body = Body("execute_code", {{"code", "print(1)"}}, true);
  EXPECT_EQ(body["error"], LinkDenied(outside_));
  body = Body("check_installed_packages", {{"packages", {"json"}}}, true);
  EXPECT_EQ(body["error"], LinkDenied(outside_));
}

TEST_F(EscapeTest, NoEnvironmentIsCreatedOutside) {
  options_.environment = EnvironmentConfig{"venv", std::nullopt, outside_ + "/venv", std::nullopt};
  Start();
  Json body = Body("execute_code", {{"code", "print(1)"}}, true);
  EXPECT_EQ(body["error"],
            "Command failed: source " + outside_ + "/venv/bin/activate && python3 -u \"" +
                body["file_path"].get<std::string>() + "\"\n/bin/bash: line 1: " + outside_ +
                "/venv/bin/activate: No such file or directory\n");
  EXPECT_FALSE(Exists(outside_ + "/venv"));
}

TEST_F(EscapeTest, NulBytesInPaths) {
  std::string path = ws_ + std::string("/a\0b", 4);
  EXPECT_EQ(
      Body("read_code_file", {{"file_path", path}}, true)["error"],
      "The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received '" +
          ws_ + "/a\\x00b'");
}

// A link flipped between a file inside and one outside while reads and
// appends run: no call may ever see or change the outside file.
TEST_F(EscapeTest, LinksSwappedMidCall) {
  MakeStore();
  WriteAbs(store_ + "/inside.py", "INSIDE\n");
  std::string link = store_ + "/flip.py", staging = store_ + "/flip.tmp";
  ASSERT_EQ(::symlink("inside.py", link.c_str()), 0);
  std::atomic<bool> stop{false};
  std::thread flipper([&] {
    bool out = false;
    while (!stop) {
      out = !out;
      ::unlink(staging.c_str());
      if (::symlink(out ? (outside_ + "/secret.py").c_str() : "inside.py", staging.c_str()) == 0)
        ::rename(staging.c_str(), link.c_str());
    }
  });
  int inside_reads = 0;
  for (int i = 0; i < 300; ++i) {
    std::string text = Text("read_code_file", {{"file_path", "flip.py"}});
    EXPECT_EQ(text.find("SECRET"), std::string::npos) << text;
    if (text.find("INSIDE") != std::string::npos) ++inside_reads;
    Text("append_to_code_file", {{"file_path", "flip.py"}, {"content", "# more\n"}});
  }
  stop = true;
  flipper.join();
  EXPECT_GT(inside_reads, 0);
  ::unlink(staging.c_str());
}

}  // namespace
}  // namespace sbx::servers::code_executor::testing
