// Every tool's results and errors, with the exact text upstream produces for
// the same tree (captured from @modelcontextprotocol/server-filesystem
// 2026.8.31 on Node 20).
#include <sys/stat.h>

#include <fstream>
#include <regex>

#include "servers/filesystem/test_support.h"
#include "servers/test_support/tool_list.h"
#include "servers/filesystem/tool_schemas.h"

namespace sbx::servers::filesystem::testing {
namespace {

class ToolsTest : public FsTest {};

TEST_F(ToolsTest, InitializeAndToolsListMatchReference) {
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["name"], "secure-filesystem-server");
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["version"], "0.2.0");
  Json tools = ListTools();
  auto ref = test_support::ReadJsonFile(FS_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found: " << FS_REFERENCE_JSON;
  // Exact JSON, key order included.
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      tools, (*ref)["tools"], {.exact = {"inputSchema", "outputSchema", "annotations"}, .titled = true}));
}

TEST_F(ToolsTest, ReadTextFileWholeHeadAndTail) {
  Write("a.txt", "hello\nworld\n");
  Write("nonl.txt", "line1\nline2\nline3");
  Write("crlf.txt", "a\r\nb\r\nc\r\n");
  Json r = Call("read_text_file", {{"path", R("a.txt")}});
  EXPECT_EQ(
      r.dump(),
      R"({"content":[{"type":"text","text":"hello\nworld\n"}],"structuredContent":{"content":"hello\nworld\n"}})");
  EXPECT_EQ(Ok("read_file", {{"path", "a.txt"}}), "hello\nworld\n");  // relative to the root
  EXPECT_EQ(Ok("read_text_file", {{"path", R("a.txt")}, {"head", 0}}),
            "hello\nworld\n");  // 0 means "not given"
  EXPECT_EQ(Ok("read_text_file", {{"path", R("a.txt")}, {"head", 1}}), "hello");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("a.txt")}, {"head", 100}}), "hello\nworld");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("a.txt")}, {"tail", 1}}),
            "");  // the empty line after the last \n
  EXPECT_EQ(Ok("read_text_file", {{"path", R("a.txt")}, {"tail", 2}}), "world\n");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("nonl.txt")}, {"head", 2}}), "line1\nline2");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("nonl.txt")}, {"head", 1.5}}), "line1\nline2");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("nonl.txt")}, {"head", -1}}), "");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("nonl.txt")}, {"tail", 1}}), "line3");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("nonl.txt")}, {"tail", 100}}), "line1\nline2\nline3");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("nonl.txt")}, {"tail", 0.5}}), "line1\nline2\nline3");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("crlf.txt")}, {"tail", 2}}), "c\n");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("crlf.txt")}, {"head", 2}}), "a\r\nb\r");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("a.txt")}, {"head", 0}, {"tail", 2}}), "world\n");
  EXPECT_EQ(Err("read_text_file", {{"path", R("a.txt")}, {"head", 1}, {"tail", 1}}),
            "Cannot specify both head and tail parameters simultaneously");
}

TEST_F(ToolsTest, ReadTextFileLargeTailReadsFromTheEnd) {
  std::string big;
  for (int i = 1; i <= 5000; ++i) big += "line " + std::to_string(i) + "\n";
  Write("big.txt", big);
  EXPECT_EQ(Ok("read_text_file", {{"path", R("big.txt")}, {"tail", 3}}), "line 4999\nline 5000\n");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("big.txt")}, {"head", 3}}), "line 1\nline 2\nline 3");
}

TEST_F(ToolsTest, ReadTextFileDecodesLikeNode) {
  Write("invalid.txt", std::string("ok\xff\xfe bad \xe2\x82 end\xf0\x9f\x98", 17));
  Write("bom.txt",
        "\xef\xbb\xbf"
        "bom\n");
  Write("empty.txt", "");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("invalid.txt")}}),
            "ok\uFFFD\uFFFD bad \uFFFD end\uFFFD");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("bom.txt")}}),
            "\uFEFF"
            "bom\n");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("empty.txt")}}), "");
  EXPECT_EQ(Ok("read_text_file", {{"path", R("empty.txt")}, {"tail", 3}}), "");
}

TEST_F(ToolsTest, ReadTextFileErrors) {
  Mkdir("dir");
  Write("f.txt", "x");
  EXPECT_EQ(Err("read_text_file", {{"path", R("missing.txt")}}),
            "ENOENT: no such file or directory, open '" + R("missing.txt") + "'");
  EXPECT_EQ(Err("read_text_file", {{"path", R("dir")}}),
            "EISDIR: illegal operation on a directory, read");
  EXPECT_EQ(Err("read_text_file", {{"path", R("f.txt/x")}}),
            "ENOTDIR: not a directory, realpath '" + R("f.txt/x") + "'");
  EXPECT_EQ(Err("read_text_file", {{"path", R("missing.txt")}, {"tail", 1}}),
            "ENOENT: no such file or directory, stat '" + R("missing.txt") + "'");
  EXPECT_EQ(Err("read_text_file", {{"path", R("dir")}, {"head", 1}}),
            "EISDIR: illegal operation on a directory, read");
  EXPECT_EQ(Err("read_text_file", {{"path", "C:\\x"}}),
            "Access denied - Windows-style path received on a POSIX host: C:\\x");
  EXPECT_EQ(Err("read_text_file", {}),
            "MCP error -32602: Input validation error: Invalid arguments for tool read_text_file: "
            "Invalid input: expected string, received undefined at path");
}

TEST_F(ToolsTest, ReadMediaFile) {
  Write("pic.png", std::string("\x89PNG", 4));
  Write("song.MP3", "ID3");
  Write("odd name#1.bin", std::string("\x00\x01", 2));
  Json png = Call("read_media_file", {{"path", R("pic.png")}});
  EXPECT_EQ(
      png.dump(),
      R"({"content":[{"type":"image","data":"iVBORw==","mimeType":"image/png"}],)"
      R"("structuredContent":{"content":[{"type":"image","data":"iVBORw==","mimeType":"image/png"}]}})");
  Json mp3 = Call("read_media_file", {{"path", R("song.MP3")}});
  EXPECT_EQ(mp3["content"][0].dump(), R"({"type":"audio","data":"SUQz","mimeType":"audio/mpeg"})");
  Json bin = Call("read_media_file", {{"path", R("odd name#1.bin")}});
  EXPECT_EQ(bin["content"][0].dump(),
            R"({"type":"resource","resource":{"uri":"file://)" + R("odd%20name%231.bin") +
                R"(","mimeType":"application/octet-stream","blob":"AAE="}})");
  EXPECT_EQ(Err("read_media_file", {{"path", R("nope.png")}}),
            "ENOENT: no such file or directory, open '" + R("nope.png") + "'");
}

TEST_F(ToolsTest, ReadMultipleFiles) {
  Write("a.txt", "A\n");
  Write("b.txt", "B");
  EXPECT_EQ(
      Ok("read_multiple_files", {{"paths", {R("a.txt"), "missing.txt", "b.txt", "/etc/passwd"}}}),
      R("a.txt") + ":\nA\n\n\n---\nmissing.txt: Error - ENOENT: no such file or directory, open '" +
          R("missing.txt") +
          "'\n---\nb.txt:\nB\n\n---\n/etc/passwd: Error - Access denied - path outside "
          "allowed directories: /etc/passwd not in " +
          root_);
  EXPECT_EQ(
      Err("read_multiple_files", {{"paths", Json::array()}}),
      "MCP error -32602: Input validation error: Invalid arguments for tool read_multiple_files: "
      "Too small: expected array to have >=1 items at paths");
}

TEST_F(ToolsTest, WriteFileCreatesAndReplacesKeepingMode) {
  EXPECT_EQ(Ok("write_file", {{"path", R("new.txt")}, {"content", "one"}}),
            "Successfully wrote to " + R("new.txt"));
  EXPECT_EQ(ReadAbs(R("new.txt")), "one");
  ASSERT_EQ(::chmod(R("new.txt").c_str(), 0600), 0);
  struct stat before, after;
  ::stat(R("new.txt").c_str(), &before);
  EXPECT_EQ(Ok("write_file", {{"path", "new.txt"}, {"content", "two"}}),
            "Successfully wrote to new.txt");
  ::stat(R("new.txt").c_str(), &after);
  EXPECT_EQ(ReadAbs(R("new.txt")), "two");
  EXPECT_NE(before.st_ino, after.st_ino);  // replaced, never written in place
  EXPECT_EQ(after.st_mode & 0777, 0600u);
  EXPECT_EQ(Err("write_file", {{"path", R("nodir/x.txt")}, {"content", "x"}}),
            "ENOENT: no such file or directory, open '" + R("nodir/x.txt") + "'");
  Mkdir("d");
  std::string dir_error = Err("write_file", {{"path", R("d")}, {"content", "x"}});
  EXPECT_TRUE(std::regex_match(
      dir_error, std::regex("EISDIR: illegal operation on a directory, rename '" + R("d") +
                            "\\.[0-9a-f]{32}\\.tmp' -> '" + R("d") + "'")))
      << dir_error;
  EXPECT_EQ(fs::ListDir(R("d")).size(), 0u);
  EXPECT_EQ(fs::ListDir(R()).size(), 2u);  // no temporary file left behind
}

TEST_F(ToolsTest, EditFileDiffDryRunAndIndentation) {
  Write("a.txt", "hello\nworld\n");
  std::string diff = "```diff\nIndex: " + R("a.txt") +
                     "\n===================================================================\n--- " +
                     R("a.txt") + "\toriginal\n+++ " + R("a.txt") +
                     "\tmodified\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n```\n\n";
  EXPECT_EQ(Ok("edit_file", {{"path", R("a.txt")},
                             {"edits", {{{"oldText", "world"}, {"newText", "there"}}}},
                             {"dryRun", true}}),
            diff);
  EXPECT_EQ(ReadAbs(R("a.txt")), "hello\nworld\n");
  EXPECT_EQ(Ok("edit_file",
               {{"path", R("a.txt")}, {"edits", {{{"oldText", "world"}, {"newText", "there"}}}}}),
            diff);
  EXPECT_EQ(ReadAbs(R("a.txt")), "hello\nthere\n");

  Write("code.py", "def f(x):\n    if x:\n        return 1\n");
  Ok("edit_file", {{"path", R("code.py")},
                   {"edits",
                    {{{"oldText", "if x:\n    return 1"},
                      {"newText", "if x and y:\n        return 10\n    # note"}}}}});
  EXPECT_EQ(ReadAbs(R("code.py")), "def f(x):\n    if x and y:\n        return 10\n    # note\n");

  EXPECT_EQ(Err("edit_file", {{"path", R("a.txt")},
                              {"edits", {{{"oldText", "absent\r\nline"}, {"newText", "x"}}}}}),
            "Could not find exact match for edit:\nabsent\r\nline");
  EXPECT_EQ(ReadAbs(R("a.txt")), "hello\nthere\n");
}

TEST_F(ToolsTest, EditFileFenceGrowsWithBackticksAndMarksMissingNewline) {
  Write("t.md", "text\n```\ncode\n```\n");
  std::string out = Ok(
      "edit_file", {{"path", R("t.md")}, {"edits", {{{"oldText", "code"}, {"newText", "````x"}}}}});
  EXPECT_EQ(out.substr(0, 10), "`````diff\n");
  EXPECT_EQ(out.substr(out.size() - 7), "`````\n\n");
  Write("n.txt", "a\nb");
  out = Ok("edit_file", {{"path", R("n.txt")}, {"edits", {{{"oldText", "b"}, {"newText", "c"}}}}});
  EXPECT_NE(out.find("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at "
                     "end of file\n```"),
            std::string::npos)
      << out;
}

TEST_F(ToolsTest, CreateDirectory) {
  EXPECT_EQ(Ok("create_directory", {{"path", R("x/y/z")}}),
            "Successfully created directory " + R("x/y/z"));
  EXPECT_TRUE(Exists(R("x/y/z")));
  EXPECT_EQ(Ok("create_directory", {{"path", "x/y"}}), "Successfully created directory x/y");
  Write("f", "");
  EXPECT_EQ(Err("create_directory", {{"path", R("f")}}),
            "EEXIST: file already exists, mkdir '" + R("f") + "'");
  EXPECT_EQ(Err("create_directory", {{"path", R("f/sub")}}),
            "ENOTDIR: not a directory, realpath '" + R("f/sub") + "'");
}

TEST_F(ToolsTest, ListDirectoryInBytewiseOrder) {
  Write("b.txt", "");
  Write("B.txt", "");
  Write("_u", "");
  Mkdir("dir");
  Mkdir("emptydir");
  Symlink("dir", "link");
  EXPECT_EQ(Ok("list_directory", {{"path", R()}}),
            "[FILE] B.txt\n[FILE] _u\n[FILE] b.txt\n[DIR] dir\n[DIR] emptydir\n[FILE] link");
  EXPECT_EQ(Ok("list_directory", {{"path", R("emptydir")}}), "");
  EXPECT_EQ(Err("list_directory", {{"path", R("b.txt")}}),
            "ENOTDIR: not a directory, scandir '" + R("b.txt") + "'");
  EXPECT_EQ(Err("list_directory", {{"path", R("nope")}}),
            "ENOENT: no such file or directory, scandir '" + R("nope") + "'");
}

TEST_F(ToolsTest, ListDirectoryWithSizes) {
  Write("s/b.bin", std::string(1536, 'x'));
  Write("s/A.bin", std::string(10, 'x'));
  Write("s/_under.bin", std::string(1023, 'x'));
  Write("s/10.bin", "");
  Mkdir("s/sub");
  auto file = [](const std::string& name, const std::string& size) {
    return "[FILE] " + name + std::string(30 - name.size(), ' ') + " " +
           std::string(10 - size.size(), ' ') + size + "\n";
  };
  // Names sort as String#localeCompare does (ICU collation), not bytewise.
  EXPECT_EQ(Ok("list_directory_with_sizes", {{"path", R("s")}}),
            file("_under.bin", "1023 B") + file("10.bin", "0 B") + file("A.bin", "10 B") +
                file("b.bin", "1.50 KB") + "[DIR] sub" + std::string(28, ' ') +
                "\n\nTotal: 4 files, 1 directories\nCombined size: 2.51 KB");
  ASSERT_EQ(::rmdir(R("s/sub").c_str()), 0);
  EXPECT_EQ(Ok("list_directory_with_sizes", {{"path", R("s")}, {"sortBy", "size"}}),
            file("b.bin", "1.50 KB") + file("_under.bin", "1023 B") + file("A.bin", "10 B") +
                file("10.bin", "0 B") + "\nTotal: 4 files, 0 directories\nCombined size: 2.51 KB");
  EXPECT_EQ(
      Ok("list_directory_with_sizes", {{"path", R("s/../s")}, {"sortBy", "name"}}).substr(0, 11),
      "[FILE] _und");
  EXPECT_EQ(Err("list_directory_with_sizes", {{"path", R("s/A.bin")}}),
            "ENOTDIR: not a directory, scandir '" + R("s/A.bin") + "'");
}

TEST_F(ToolsTest, DirectoryTreeJsonAndExcludes) {
  Write("src/a.js", "");
  Write("src/lib/b.ts", "");
  Write("node_modules/p/i.js", "");
  Write("x.log", "");
  Mkdir("empty");
  EXPECT_EQ(Ok("directory_tree", {{"path", R("empty")}}), "[]");
  EXPECT_EQ(
      Ok("directory_tree", {{"path", R()}, {"excludePatterns", {"node_modules", "*.log"}}}),
      "[\n  {\n    \"name\": \"empty\",\n    \"type\": \"directory\",\n    \"children\": []\n  },\n"
      "  {\n    \"name\": \"src\",\n    \"type\": \"directory\",\n    \"children\": [\n"
      "      {\n        \"name\": \"a.js\",\n        \"type\": \"file\"\n      },\n"
      "      {\n        \"name\": \"lib\",\n        \"type\": \"directory\",\n        "
      "\"children\": [\n"
      "          {\n            \"name\": \"b.ts\",\n            \"type\": \"file\"\n          }\n "
      "       ]\n      }\n"
      "    ]\n  }\n]");
  // "**/node_modules/**" keeps the directory itself, drops what is inside.
  std::string t = Ok("directory_tree",
                     {{"path", R()}, {"excludePatterns", {"**/node_modules/**", "src", "empty"}}});
  EXPECT_EQ(t,
            "[\n  {\n    \"name\": \"node_modules\",\n    \"type\": \"directory\",\n    "
            "\"children\": []\n  },\n"
            "  {\n    \"name\": \"x.log\",\n    \"type\": \"file\"\n  }\n]");
  EXPECT_EQ(Err("directory_tree", {{"path", R("x.log")}}),
            "ENOTDIR: not a directory, scandir '" + R("x.log") + "'");
}

TEST_F(ToolsTest, MoveFile) {
  Write("m1.txt", "1");
  Write("exists.txt", "e");
  Mkdir("d/sub");
  EXPECT_EQ(Ok("move_file", {{"source", R("m1.txt")}, {"destination", R("d/m.txt")}}),
            "Successfully moved " + R("m1.txt") + " to " + R("d/m.txt"));
  EXPECT_EQ(ReadAbs(R("d/m.txt")), "1");
  EXPECT_EQ(Err("move_file", {{"source", R("d/m.txt")}, {"destination", R("exists.txt")}}),
            "Destination already exists: " + R("exists.txt"));
  EXPECT_EQ(ReadAbs(R("exists.txt")), "e");
  EXPECT_EQ(Err("move_file", {{"source", R("gone")}, {"destination", R("x")}}),
            "ENOENT: no such file or directory, rename '" + R("gone") + "' -> '" + R("x") + "'");
  EXPECT_EQ(Err("move_file", {{"source", R("d")}, {"destination", R("d/sub/d")}}),
            "EINVAL: invalid argument, rename '" + R("d") + "' -> '" + R("d/sub/d") + "'");
}

TEST_F(ToolsTest, SearchFiles) {
  Write("a.txt", "");
  Write("foo", "");
  Write("dir/foo/bar.txt", "");
  Write("src/x.js", "");
  Write("node_modules/p/y.js", "");
  Write(".hidden.txt", "");
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "*.txt"}}),
            R(".hidden.txt") + "\n" + R("a.txt"));
  EXPECT_EQ(Ok("search_files",
               {{"path", R()}, {"pattern", "**/*.js"}, {"excludePatterns", {"node_modules/**"}}}),
            R("src/x.js"));
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "foo"}}),
            R("foo"));  // a glob, not a substring
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "**/foo"}}),
            R("dir/foo") + "\n" + R("foo"));
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "nothing*"}}), "No matches found");
  EXPECT_EQ(Err("search_files", {{"path", R("a.txt")}, {"pattern", "*"}}),
            "ENOTDIR: not a directory, scandir '" + R("a.txt") + "'");
}

TEST_F(ToolsTest, GetFileInfo) {
  Write("f.txt", "12345");
  ASSERT_EQ(::chmod(R("f.txt").c_str(), 0640), 0);
  std::string date =
      "[A-Z][a-z]{2} [A-Z][a-z]{2} \\d{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT[+-]\\d{4} \\([^)]+\\)";
  std::string info = Ok("get_file_info", {{"path", R("f.txt")}});
  EXPECT_TRUE(std::regex_match(
      info, std::regex("size: 5\ncreated: " + date + "\nmodified: " + date + "\naccessed: " + date +
                       "\nisDirectory: false\nisFile: true\npermissions: 640")))
      << info;
  std::string dir = Ok("get_file_info", {{"path", R()}});
  EXPECT_NE(dir.find("\nisDirectory: true\nisFile: false\npermissions: 755"), std::string::npos)
      << dir;
  EXPECT_EQ(Err("get_file_info", {{"path", R("nope")}}),
            "ENOENT: no such file or directory, stat '" + R("nope") + "'");
}

TEST_F(ToolsTest, ListAllowedDirectories) {
  EXPECT_EQ(Ok("list_allowed_directories"), "Allowed directories:\n" + root_);
}

TEST_F(ToolsTest, UnicodeNamesAndNormalizationEquivalents) {
  Write("caf\u00e9/x.txt", "nfc dir\n");  // stored NFC
  Write("cafe\u0301.txt", "nfd file\n");  // stored NFD
  Write("\u65e5\u672c/\u30d5.md", "ja\n");
  // A name that does not exist as given resolves to its NFC equivalent.
  EXPECT_EQ(Ok("read_text_file", {{"path", R("caf\u00e9.txt")}}), "nfd file\n");
  EXPECT_EQ(Ok("write_file", {{"path", R("cafe\u0301/new.txt")}, {"content", "n"}}),
            "Successfully wrote to " + R("cafe\u0301/new.txt"));
  EXPECT_EQ(ReadAbs(R("caf\u00e9/new.txt")), "n");
  EXPECT_EQ(Ok("list_directory", {{"path", R("\u65e5\u672c")}}), "[FILE] \u30d5.md");
  Write("x\u1ea1\u0301.txt", "1");
  Write("xa\u0323\u0301.txt", "2");
  EXPECT_EQ(Err("read_text_file", {{"path", R("xa\u0301\u0323.txt")}}),
            "Ambiguous Unicode path component: xa\u0301\u0323.txt");
}

}  // namespace
}  // namespace sbx::servers::filesystem::testing
