// The variants (variants.h): each one's tools/list against its capture in
// shared/reference/tools/variants/, and every behaviour it changes, with the
// texts the pinned upstream gives for the same tree.
#include <sys/stat.h>

#include "servers/filesystem/test_support.h"
#include "servers/filesystem/variants.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::filesystem::testing {
namespace {

unsigned CurrentUmask() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

class VariantTest : public FsTest {
 protected:
  void Present(const std::string& variant) {
    server_ = MakeServer(Options{{root_}, variant});
    OpenSession(server_);
  }
  std::optional<Json> Capture(const std::string& variant) {
    return test_support::ReadJsonFile(std::string(FS_VARIANTS_DIR) + "/filesystem@" + variant + ".json");
  }
};

TEST_F(VariantTest, Upstream2025ToolList) {
  Present(kVariant2025_7_1);
  auto ref = Capture(kVariant2025_7_1);
  if (!ref) GTEST_SKIP() << "variant capture not found";
  EXPECT_EQ(init_reply_["result"]["serverInfo"], (Json{{"name", "secure-filesystem-server"}, {"version", "0.2.0"}}));
  EXPECT_EQ(init_reply_["result"]["capabilities"], (Json{{"tools", Json::object()}}));
  Json tools = ListTools();
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      tools, (*ref)["tools"], {.exact = {"inputSchema"}, .absent = {"outputSchema", "annotations", "title"}}));
}

TEST_F(VariantTest, KlavisToolList) {
  Present(kVariantKlavis);
  auto ref = Capture(kVariantKlavis);
  if (!ref) GTEST_SKIP() << "variant capture not found";
  Json tools = ListTools();
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      tools, (*ref)["tools"], {.exact = {"inputSchema", "outputSchema", "annotations"}, .titled = true}));
}

TEST_F(VariantTest, Upstream2025PlainResultsAndErrorPrefix) {
  Present(kVariant2025_7_1);
  Write("a.txt", "hello\n");
  EXPECT_EQ(Call("read_file", {{"path", R("a.txt")}}).dump(),
            R"({"content":[{"type":"text","text":"hello\n"}]})");
  EXPECT_EQ(Err("read_file", {{"path", R("missing.txt")}}),
            "Error: ENOENT: no such file or directory, open '" + R("missing.txt") + "'");
  EXPECT_EQ(Err("read_file", {{"path", O("x")}}),
            "Error: Access denied - path outside allowed directories: " + O("x") + " not in " + root_);
  // Tools of later versions are unknown, in its handler's words.
  EXPECT_EQ(Err("read_text_file", {{"path", R("a.txt")}}), "Error: Unknown tool: read_text_file");
}

// Its handlers' own zod 3 parse: issue lists as the ZodError prints them.
TEST_F(VariantTest, Upstream2025ArgumentsParsedAsZod3) {
  Present(kVariant2025_7_1);
  EXPECT_EQ(Err("write_file", {{"path", 5}}),
            "Error: Invalid arguments for write_file: [\n"
            "  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"string\",\n    \"received\": \"number\",\n"
            "    \"path\": [\n      \"path\"\n    ],\n    \"message\": \"Expected string, received number\"\n  },\n"
            "  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"string\",\n    \"received\": \"undefined\",\n"
            "    \"path\": [\n      \"content\"\n    ],\n    \"message\": \"Required\"\n  }\n]");
  EXPECT_EQ(Err("list_directory_with_sizes", {{"path", R("")}, {"sortBy", "date"}}),
            "Error: Invalid arguments for list_directory_with_sizes: [\n  {\n    \"received\": \"date\",\n"
            "    \"code\": \"invalid_enum_value\",\n    \"options\": [\n      \"name\",\n      \"size\"\n    ],\n"
            "    \"path\": [\n      \"sortBy\"\n    ],\n"
            "    \"message\": \"Invalid enum value. Expected 'name' | 'size', received 'date'\"\n  }\n]");
  EXPECT_EQ(Err("edit_file", {{"path", R("a.txt")}, {"edits", {{{"oldText", "a"}}}}}),
            "Error: Invalid arguments for edit_file: [\n  {\n    \"code\": \"invalid_type\",\n"
            "    \"expected\": \"string\",\n    \"received\": \"undefined\",\n"
            "    \"path\": [\n      \"edits\",\n      0,\n      \"newText\"\n    ],\n    \"message\": \"Required\"\n  }\n]");
  // Unknown keys are dropped, not refused.
  Write("a.txt", "hello\n");
  EXPECT_EQ(Call("read_file", {{"path", R("a.txt")}, {"bogus", 1}}).dump(),
            R"({"content":[{"type":"text","text":"hello\n"}]})");
}

// 2025.7.1's validatePath: a missing path only below an existing directory.
TEST_F(VariantTest, Upstream2025MissingParentIsRefused) {
  Present(kVariant2025_7_1);
  Mkdir("d");
  EXPECT_EQ(Err("create_directory", {{"path", R("d/a/b")}}), "Error: Parent directory does not exist: " + R("d/a"));
  EXPECT_EQ(Err("write_file", {{"path", R("nope/x.txt")}, {"content", "x"}}),
            "Error: Parent directory does not exist: " + R("nope"));
  EXPECT_EQ(Err("move_file", {{"source", R("d")}, {"destination", R("nope/d")}}),
            "Error: Parent directory does not exist: " + R("nope"));
  EXPECT_EQ(Ok("create_directory", {{"path", R("d/a")}}), "Successfully created directory " + R("d/a"));
  // Outside the root the access check speaks first, as it did.
  EXPECT_EQ(Err("list_directory", {{"path", O("nope/x")}}),
            "Error: Access denied - path outside allowed directories: " + O("nope/x") + " not in " + root_);
}

// Its exact match went through String#replace; its rewrites kept new bits.
TEST_F(VariantTest, Upstream2025ReplacementPatternsAndPermissionBits) {
  Present(kVariant2025_7_1);
  Write("e.txt", "a X b\n");
  ASSERT_EQ(::chmod(R("e.txt").c_str(), 0600), 0);
  (void)Ok("edit_file", {{"path", R("e.txt")}, {"edits", {{{"oldText", "X"}, {"newText", "[$&|$$|$`|$'|$1|$<n>|$]"}}}}});
  EXPECT_EQ(Ok("read_file", {{"path", R("e.txt")}}), "a [X|$|a | b\n|$1|$<n>|$] b\n");
  struct stat st;
  ASSERT_EQ(::stat(R("e.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666u & ~CurrentUmask());
  ASSERT_EQ(::chmod(R("e.txt").c_str(), 0600), 0);
  (void)Ok("write_file", {{"path", R("e.txt")}, {"content", "y"}});
  ASSERT_EQ(::stat(R("e.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666u & ~CurrentUmask());
}

TEST_F(VariantTest, Upstream2025SearchMatchesNamesCaseInsensitively) {
  Present(kVariant2025_7_1);
  Write("Docs/ReadMe.MD", "x");
  Write("docs2/notes.txt", "x");
  Write("node_modules/readme.md", "x");
  std::string found = Ok("search_files", {{"path", root_}, {"pattern", "readme"}});
  std::vector<std::string> lines;
  for (std::size_t i = 0, j; i <= found.size(); i = j + 1) {
    j = found.find('\n', i);
    if (j == std::string::npos) j = found.size();
    lines.push_back(found.substr(i, j - i));
  }
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{R("Docs/ReadMe.MD"), R("node_modules/readme.md")}));
  // A bare exclude pattern names a directory at any depth.
  EXPECT_EQ(Ok("search_files", {{"path", root_}, {"pattern", "README"}, {"excludePatterns", {"node_modules"}}}),
            R("Docs/ReadMe.MD"));
  EXPECT_EQ(Ok("search_files", {{"path", root_}, {"pattern", "*.md"}}), "No matches found");
}

TEST_F(VariantTest, Upstream2025MoveReplacesTheDestination) {
  Present(kVariant2025_7_1);
  Write("a.txt", "new");
  Write("b.txt", "old");
  EXPECT_EQ(Ok("move_file", {{"source", R("a.txt")}, {"destination", R("b.txt")}}),
            "Successfully moved " + R("a.txt") + " to " + R("b.txt"));
  EXPECT_EQ(ReadAbs(R("b.txt")), "new");
  EXPECT_FALSE(Exists(R("a.txt")));
  Mkdir("d");
  Write("d/x", "x");
  Write("c.txt", "c");
  EXPECT_EQ(Err("move_file", {{"source", R("c.txt")}, {"destination", R("d")}}),
            "Error: EISDIR: illegal operation on a directory, rename '" + R("c.txt") + "' -> '" + R("d") + "'");
}

TEST_F(VariantTest, Upstream2025TreeHasNoExcludes) {
  Present(kVariant2025_7_1);
  Write("d/f.txt", "x");
  EXPECT_EQ(Ok("directory_tree", {{"path", R("d")}}),
            "[\n  {\n    \"name\": \"f.txt\",\n    \"type\": \"file\"\n  }\n]");
  // excludePatterns is not its key: zod 3 dropped it, so nothing is excluded.
  EXPECT_EQ(Ok("directory_tree", {{"path", R("d")}, {"excludePatterns", {"*.txt"}}}),
            "[\n  {\n    \"name\": \"f.txt\",\n    \"type\": \"file\"\n  }\n]");
}

TEST_F(VariantTest, KlavisNamesAndMediaBlob) {
  Present(kVariantKlavis);
  Write("a.txt", "hi");
  Write("p.png", "PNG");
  EXPECT_EQ(Ok("filesystem_read_text_file", {{"path", R("a.txt")}}), "hi");
  EXPECT_EQ(Call("filesystem_read_media_file", {{"path", R("a.txt")}}).dump(),
            R"({"content":[{"type":"blob","data":"aGk=","mimeType":"application/octet-stream"}],)"
            R"("structuredContent":{"content":[{"type":"blob","data":"aGk=","mimeType":"application/octet-stream"}]}})");
  EXPECT_EQ(Call("filesystem_read_media_file", {{"path", R("p.png")}})["content"][0].dump(),
            R"({"type":"image","data":"UE5H","mimeType":"image/png"})");
  EXPECT_EQ(Err("read_text_file", {{"path", R("a.txt")}}), "MCP error -32602: Tool read_text_file not found");
}

}  // namespace
}  // namespace sbx::servers::filesystem::testing
