// The file and search tools, exact texts (each also compared against
// upstream 0.2.10 by tests/mcp/differential_desktop_commander.test.mjs; the
// strings here are what upstream printed for the same files).
#include <string>

#include "servers/desktop_commander/test_support.h"

namespace sbx::servers::desktop_commander::testing {
namespace {

class FilesTest : public DcTest {};

std::string Lines(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += "line " + std::to_string(i) + "\n";
  return s;
}

TEST_F(FilesTest, ReadFileWindowsAndStatusLines) {
  Write("hello.txt", "hello world\nsecond line\nthird line\n");
  Write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
  Write("cr.txt", "a\rb\rc");
  Write("empty.txt", "");
  Write("lines.txt", Lines(1500));
  EXPECT_EQ(Ok("read_file", {{"path", R("hello.txt")}}),
            "[Reading 3 lines from start (total: 4 lines, 1 remaining)]\n\nhello world\nsecond line\nthird line");
  EXPECT_EQ(Ok("read_file", {{"path", R("hello.txt")}, {"offset", 1}, {"length", 1}}),
            "[Reading 1 lines from line 1 (total: 4 lines, 2 remaining)]\n\nsecond line");
  EXPECT_EQ(Ok("read_file", {{"path", R("hello.txt")}, {"offset", -2}}),
            "[Reading last 2 lines (total: 4 lines)]\n\nsecond line\nthird line");
  EXPECT_EQ(Ok("read_file", {{"path", R("crlf.txt")}}),
            "[Reading 3 lines from start (total: 4 lines, 1 remaining)]\n\none\ntwo\nthree");
  EXPECT_EQ(Ok("read_file", {{"path", R("cr.txt")}}),
            "[Reading 3 lines from start (total: 1 lines, 0 remaining)]\n\na\nb\nc");
  EXPECT_EQ(Ok("read_file", {{"path", R("empty.txt")}}), "[Reading 0 lines from start (total: 1 lines, 1 remaining)]\n\n");
  EXPECT_EQ(Ok("read_file", {{"path", R("lines.txt")}, {"offset", 1495}}),
            "[Reading 5 lines from line 1495 (total: 1501 lines, 1 remaining)]\n\nline 1496\nline 1497\nline 1498\n"
            "line 1499\nline 1500");
  EXPECT_EQ(Ok("read_file", {{"path", R("lines.txt")}, {"offset", 1.5}, {"length", 2.5}}),
            "[Reading 3 lines from line 1.5 (total: 1501 lines, 1496.5 remaining)]\n\nline 3\nline 4\nline 5");
  EXPECT_EQ(Err("read_file", {{"path", R("lines.txt")}, {"offset", -1.5}}), "Error: Invalid array length");
  // The default length (1000) is the schema's: fileReadLineLimit does not apply here.
  std::string all = Ok("read_file", {{"path", R("lines.txt")}});
  EXPECT_EQ(all.substr(0, all.find('\n')), "[Reading 1000 lines from start (total: 1501 lines, 501 remaining)]");
  // Relative paths resolve against the workspace.
  EXPECT_EQ(Ok("read_file", {{"path", "hello.txt"}, {"length", 1}}),
            "[Reading 1 lines from start (total: 4 lines, 3 remaining)]\n\nhello world");
}

TEST_F(FilesTest, ReadFileLargeFilesUseUpstreamsStrategies) {
  // 11 MiB: over the 10 MiB threshold, so no total, backward tail and estimated windows.
  std::string big;
  for (int i = 0; i < 360448; ++i) {
    char line[40];
    std::snprintf(line, sizeof line, "%08d yyyyyyyyyyyyyyyyyyyyyy\n", i);
    big += line;
  }
  Write("big.log", big);
  EXPECT_EQ(Ok("read_file", {{"path", R("big.log")}, {"offset", -3}}),
            "[Reading last 3 lines]\n\n00360446 yyyyyyyyyyyyyyyyyyyyyy\n00360447 yyyyyyyyyyyyyyyyyyyyyy\n");
  EXPECT_EQ(Ok("read_file", {{"path", R("big.log")}, {"offset", 200000}, {"length", 2}}),
            "[Reading 2 lines from line 200000]\n\n00200001 yyyyyyyyyyyyyyyyyyyyyy\n00200002 yyyyyyyyyyyyyyyyyyyyyy");
  EXPECT_EQ(Ok("read_file", {{"path", R("big.log")}, {"offset", 700}, {"length", 2}}),
            "[Reading 2 lines from line 700]\n\n00000700 yyyyyyyyyyyyyyyyyyyyyy\n00000701 yyyyyyyyyyyyyyyyyyyyyy");
}

TEST_F(FilesTest, ReadFileBinaryImagesAndFailures) {
  Write("binary.bin", std::string("\x7f" "ELF\0\x01\x02", 7));
  Write("doc.pdf", "%PDF-1.4\nnot really\n");
  const std::string png_base64 =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const std::string png = "\x89PNG\r\n\x1a\n";  // only the extension decides; the bytes go out as base64
  Write("pixel.png", png);
  Mkdir("dir");
  EXPECT_EQ(Ok("read_file", {{"path", R("binary.bin")}}),
            "Cannot read binary file as text: binary.bin (text/plain)\n\nUse start_process + interact_with_process to "
            "analyze binary files with appropriate tools (Node.js or Python libraries, command-line utilities, etc.)."
            "\n\nThe read_file tool only handles text files and images.");
  EXPECT_EQ(Ok("read_file", {{"path", R("doc.pdf")}}).substr(0, 48), "Cannot read binary file as text: doc.pdf (text/p");
  Json image = Call("read_file", {{"path", R("pixel.png")}});
  EXPECT_EQ(image["content"][0]["text"], "Image file: " + R("pixel.png") + " (image/png)\n");
  EXPECT_EQ(image["content"][1], (Json{{"type", "image"}, {"data", "iVBORw0KGgo="}, {"mimeType", "image/png"}}));
  (void)png_base64;
  EXPECT_EQ(Err("read_file", {{"path", R("dir")}}), "Error: Path provided was not a file!");
  EXPECT_EQ(Err("read_file", {{"path", R("missing.txt")}}),
            "Error: ENOENT: no such file or directory, stat '" + R("missing.txt") + "'");
  Write("hello.txt", "x\n");
  EXPECT_EQ(Err("read_file", {{"path", R("hello.txt/x")}}),
            "Error: ENOTDIR: not a directory, stat '" + R("hello.txt/x") + "'");
  EXPECT_EQ(Err("read_file", {{"path", ""}}), "Error: Invalid file path provided");
  EXPECT_EQ(Err("read_file", {{"path", "http://example.com/"}, {"isUrl", true}}),
            "Error: Failed to fetch URL: request to http://example.com/ failed, reason: this sandbox has no network "
            "access");
}

TEST_F(FilesTest, ReadMultipleFiles) {
  Write("a.txt", "one\ntwo\n");
  Write("b.png", "\x89PNG");
  Json r = Call("read_multiple_files", {{"paths", {R("a.txt"), R("b.png"), R("missing")}}});
  ASSERT_EQ(r["content"].size(), 3u);
  EXPECT_EQ(r["content"][0]["text"], R("a.txt") + ": text/plain (text)\n" + R("b.png") + ": image/png (image)\n" +
                                         R("missing") + ": Error - ENOENT: no such file or directory, stat '" +
                                         R("missing") + "'");
  EXPECT_EQ(r["content"][1]["text"], "\n--- " + R("a.txt") +
                                         " contents: ---\n[Reading 2 lines from start (total: 3 lines, 1 remaining)]"
                                         "\n\none\ntwo");
  EXPECT_EQ(r["content"][2], (Json{{"type", "image"}, {"data", "iVBORw=="}, {"mimeType", "image/png"}}));
  // Here the configured line limit applies.
  Ok("set_config_value", {{"key", "fileReadLineLimit"}, {"value", 1}});
  EXPECT_EQ(Call("read_multiple_files", {{"paths", {R("a.txt")}}})["content"][1]["text"],
            "\n--- " + R("a.txt") + " contents: ---\n[Reading 1 lines from start (total: 3 lines, 2 remaining)]\n\none");
}

TEST_F(FilesTest, WriteCreateListMove) {
  EXPECT_EQ(Err("write_file", {{"path", R("new/out.txt")}, {"content", "x"}}),
            "Error: ENOENT: no such file or directory, open '" + R("new/out.txt") + "'");
  EXPECT_EQ(Ok("create_directory", {{"path", R("new/deeper/still")}}), "Successfully created directory " + R("new/deeper/still"));
  EXPECT_EQ(Ok("create_directory", {{"path", R("new")}}), "Successfully created directory " + R("new"));
  EXPECT_EQ(Ok("write_file", {{"path", R("new/out.txt")}, {"content", "first\nsecond"}}),
            "Successfully wrote to " + R("new/out.txt") + " (2 lines) ");
  EXPECT_EQ(Ok("write_file", {{"path", R("new/out.txt")}, {"content", "\nthird\n"}, {"mode", "append"}}),
            "Successfully appended to " + R("new/out.txt") + " (3 lines) ");
  EXPECT_EQ(Read("new/out.txt"), "first\nsecond\nthird\n");
  std::string long_text;
  for (int i = 0; i < 51; ++i) long_text += (i ? "\n" : "") + std::string("l") + std::to_string(i);
  EXPECT_EQ(Ok("write_file", {{"path", R("new/long.txt")}, {"content", long_text}}),
            "Successfully wrote to " + R("new/long.txt") +
                " (51 lines) \u2705 File written successfully! (51 lines)\n            \n\U0001F4A1 Performance tip: For "
                "optimal speed, consider chunking files into \u226430 line pieces in future operations.");
  EXPECT_EQ(Err("write_file", {{"path", R("new")}, {"content", "x"}}),
            "Error: EISDIR: illegal operation on a directory, open '" + R("new") + "'");
  Write("file.txt", "f");
  EXPECT_EQ(Err("create_directory", {{"path", R("file.txt")}}),
            "Error: EEXIST: file already exists, mkdir '" + R("file.txt") + "'");
  EXPECT_EQ(Err("create_directory", {{"path", R("file.txt/sub")}}),
            "Error: ENOTDIR: not a directory, mkdir '" + R("file.txt/sub") + "'");
  EXPECT_EQ(Ok("list_directory", {{"path", R("new")}}), "[DIR] deeper\n[FILE] long.txt\n[FILE] out.txt");
  EXPECT_EQ(Ok("list_directory", {{"path", R("new/deeper/still")}}), "");
  EXPECT_EQ(Err("list_directory", {{"path", R("file.txt")}}),
            "Error: ENOTDIR: not a directory, scandir '" + R("file.txt") + "'");
  EXPECT_EQ(Ok("move_file", {{"source", R("file.txt")}, {"destination", R("new/out.txt")}}),
            "Successfully moved " + R("file.txt") + " to " + R("new/out.txt"));
  EXPECT_EQ(Read("new/out.txt"), "f");  // rename replaces, as fs.rename does
  EXPECT_EQ(Err("move_file", {{"source", R("gone")}, {"destination", R("x")}}),
            "Error: ENOENT: no such file or directory, rename '" + R("gone") + "' -> '" + R("x") + "'");
  EXPECT_EQ(Err("move_file", {{"source", R("new/out.txt")}, {"destination", R("no/such/dir.txt")}}),
            "Error: ENOENT: no such file or directory, rename '" + R("new/out.txt") + "' -> '" + R("no/such/dir.txt") +
                "'");
}

TEST_F(FilesTest, GetFileInfo) {
  Write("hello.txt", "hello world\nsecond line\nthird line\n");
  std::string info = Ok("get_file_info", {{"path", R("hello.txt")}});
  std::regex expected(
      "size: 35\ncreated: [A-Z][a-z]{2} [A-Z][a-z]{2} \\d{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT[+-]\\d{4} \\(.+\\)\n"
      "modified: .+\naccessed: .+\nisDirectory: false\nisFile: true\npermissions: 644\nlineCount: 4\nlastLine: 3\n"
      "appendPosition: 4");
  EXPECT_TRUE(std::regex_match(info, expected)) << info;
  Mkdir("dir");
  ::chmod(R("dir").c_str(), 0750);
  std::string dir = Ok("get_file_info", {{"path", R("dir")}});
  EXPECT_NE(dir.find("\nisDirectory: true\nisFile: false\npermissions: 750"), std::string::npos) << dir;
  EXPECT_EQ(dir.find("lineCount"), std::string::npos);
  EXPECT_EQ(Err("get_file_info", {{"path", R("missing")}}),
            "Error: ENOENT: no such file or directory, stat '" + R("missing") + "'");
}

TEST_F(FilesTest, SearchFiles) {
  Write("code/README.md", "x");
  Write("dir/a.md", "x");
  Write("dir/sub/b.MD", "x");
  Write("dir/.hidden/h.txt", "x");
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", ".md"}}),
            R("code/README.md") + "\n" + R("dir/a.md") + "\n" + R("dir/sub/b.MD"));
  EXPECT_EQ(Ok("search_files", {{"path", R("dir")}, {"pattern", "HIDDEN"}}), R("dir/.hidden"));
  const std::string none = "No matches found or search timed out after 30000ms.";
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "nothing"}}), none);
  EXPECT_EQ(Ok("search_files", {{"path", "/etc"}, {"pattern", "passwd"}}), none);  // refused roots find nothing
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "nothing"}, {"timeoutMs", -5}}), "No matches found");
  EXPECT_EQ(Ok("search_files", {{"path", R()}, {"pattern", "nothing"}, {"timeoutMs", 250}}),
            "No matches found or search timed out after 250ms.");
}

TEST_F(FilesTest, SearchCodeThroughRipgrep) {
  if (::access("/usr/bin/rg", X_OK) != 0) GTEST_SKIP() << "ripgrep is not installed";
  Write("code/app.js", "function greet(name) {\n  return \"hello \" + name;\n}\n\nfunction bye() {\n  return 2;\n}\n");
  Write("code/util.ts", "export const HELLO = \"world\";\n// arrow -> here\n");
  Write("code/README.md", "Hello README\n");
  Write("code/.hidden/h.txt", "hello hidden\n");
  const std::string c = R("code");
  EXPECT_EQ(Ok("search_code", {{"path", c}, {"pattern", "hello"}}),
            c + "/README.md:\n  1: Hello\n\n" + c + "/app.js:\n  2: hello\n\n" + c + "/util.ts:\n  1: HELLO");
  EXPECT_EQ(Ok("search_code", {{"path", c}, {"pattern", "hello"}, {"ignoreCase", false}, {"includeHidden", true}}),
            c + "/.hidden/h.txt:\n  1: hello\n\n" + c + "/app.js:\n  2: hello");
  EXPECT_EQ(Ok("search_code", {{"path", c}, {"pattern", "return"}, {"contextLines", 1}}),
            c + "/app.js:\n  1: function greet(name) {\n  2: return\n  3: }\n  5: function bye() {\n  6: return\n  7: }");
  EXPECT_EQ(Ok("search_code", {{"path", c}, {"pattern", "e"}, {"filePattern", "*.md"}}),
            c + "/README.md:\n  1: e\n  1: E\n  1: E");
  EXPECT_EQ(Ok("search_code", {{"path", c + "/app.js"}, {"pattern", "greet"}}), c + "/app.js:\n  1: greet");
  // ripgrep takes "-> here" for an option and fails; upstream's own walk finds it.
  EXPECT_EQ(Ok("search_code", {{"path", c}, {"pattern", "-> here"}}), c + "/util.ts:\n  2: // arrow -> here");
  const std::string none = "No matches found or search timed out after 30000ms.";
  EXPECT_EQ(Ok("search_code", {{"path", c}, {"pattern", "("}}), none);
  EXPECT_EQ(Ok("search_code", {{"path", c}, {"pattern", "zzz"}}), none);
  EXPECT_EQ(Ok("search_code", {{"path", "/etc"}, {"pattern", "root"}}), none);
}

}  // namespace
}  // namespace sbx::servers::desktop_commander::testing
