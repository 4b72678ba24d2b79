// edit_block: golden texts of upstream 0.2.7's tools/edit.ts
// (performSearchReplace), each also matched against npm 0.2.10 by the
// differential suite (edit.ts did not change between the two).
#include <regex>

#include "servers/desktop_commander/test_support.h"

namespace sbx::servers::desktop_commander::testing {
namespace {

class EditTest : public DcTest {};

TEST_F(EditTest, ExactReplacementsAndCounts) {
  Write("one.txt", "alpha\nbeta\ngamma\nbeta\n");
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("one.txt")}, {"old_string", "alpha"}, {"new_string", "ALPHA"}}),
            "Successfully applied 1 edit to " + R("one.txt"));
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("one.txt")}, {"old_string", "beta"}, {"new_string", "BETA"}}),
            "Expected 1 occurrences but found 2 in " + R("one.txt") +
                ". Double check and make sure you understand all occurencies and if you want to replace all 2 "
                "occurrences, set expected_replacements to 2. If there are many occurrancies and you want to change "
                "some of them and keep the rest. Do it one by one, by adding more lines around each occurrence.If you "
                "want to replace a specific occurrence, make your search string more unique by adding more lines around "
                "search string.");
  EXPECT_EQ(Read("one.txt"), "ALPHA\nbeta\ngamma\nbeta\n");  // unchanged by the refused edit
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("one.txt")},
                              {"old_string", "beta"},
                              {"new_string", "BETA"},
                              {"expected_replacements", 2}}),
            "Successfully applied 2 edits to " + R("one.txt"));
  EXPECT_EQ(Read("one.txt"), "ALPHA\nBETA\ngamma\nBETA\n");
  // Occurrences are counted overlapping, as indexOf(…, pos + 1) does.
  Write("aaa.txt", "aaa");
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("aaa.txt")}, {"old_string", "aa"}, {"new_string", "b"}}).substr(0, 36),
            "Expected 1 occurrences but found 2 i");
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("one.txt")}, {"old_string", "x"}, {"new_string", "y"},
                              {"expected_replacements", 0}}).substr(0, 34),
            "Search content not found in " + R("one.txt").substr(0, 6));
}

TEST_F(EditTest, LineEndingsFollowTheFile) {
  Write("crlf.txt", "first line\r\nsecond line\r\nthird line\r\n");
  EXPECT_EQ(Ok("edit_block",
               {{"file_path", R("crlf.txt")}, {"old_string", "second line\nthird"}, {"new_string", "2nd\nline\n3rd"}}),
            "Successfully applied 1 edit to " + R("crlf.txt"));
  EXPECT_EQ(Read("crlf.txt"), "first line\r\n2nd\r\nline\r\n3rd line\r\n");
}

TEST_F(EditTest, WarnsAboutLongBlocks) {
  std::string rows;
  for (int i = 0; i < 60; ++i) rows += "row " + std::to_string(i) + "\n";
  Write("many.txt", rows);
  std::string replacement;
  for (int i = 0; i < 55; ++i) replacement += "n" + std::to_string(i) + "\n";
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("many.txt")}, {"old_string", "row 1\n"}, {"new_string", replacement}}),
            "Successfully applied 1 edit to " + R("many.txt") +
                "\n\nWARNING: The replacement text has 56 lines (maximum: 50).\n            \nRECOMMENDATION: For "
                "large search/replace operations, consider breaking them into smaller chunks with fewer lines.");
  Ok("set_config_value", {{"key", "fileWriteLineLimit"}, {"value", "2"}});
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("many.txt")}, {"old_string", "row 2\nrow 3\nrow 4"}, {"new_string", "x"}}),
            "Successfully applied 1 edit to " + R("many.txt") +
                "\n\nWARNING: The search text has 3 lines (maximum: 2).\n            \nRECOMMENDATION: For large "
                "search/replace operations, consider breaking them into smaller chunks with fewer lines.");
}

TEST_F(EditTest, NearMatchesAndTheFuzzyLog) {
  Write("fuzzy.js", "function foo() {\n  return 1;\n}\nfunction bar() {\n  return 2;\n}\n");
  const std::string log = home_ + "/.claude-server-commander-logs/fuzzy-search.log";
  std::string near = Ok("edit_block", {{"file_path", R("fuzzy.js")},
                                       {"old_string", "function baz() {\n  return 2;\n}"},
                                       {"new_string", "x"}});
  std::regex near_re(
      "Exact match not found, but found a similar text with 97% similarity \\(found in \\d+\\.\\d\\dms\\):\n\n"
      "Differences:\nfunction ba\\{-z-\\}\\{\\+r\\+\\}\\(\\) \\{\n  return 2;\n\\}\n\nTo replace this text, use the exact "
      "text found in the file.\n\nLog entry saved for analysis. Use the following command to check the log:\n"
      "Check log: " + log);
  EXPECT_TRUE(std::regex_match(near, near_re)) << near;
  std::string far = Ok("edit_block", {{"file_path", R("fuzzy.js")},
                                      {"old_string", "completely different text here"},
                                      {"new_string", "x"}});
  std::regex far_re("Search content not found in " + R("fuzzy.js") +
                    "\\. The closest match was \"ction foo\\(\\) \\{\n  return 1;\n\\}\nfunction bar\\(\\) \\{\n  re\" "
                    "with only 22% similarity, which is below the 70% threshold\\. \\(Fuzzy search completed in "
                    "\\d+\\.\\d\\dms\\)\n\nLog entry saved for analysis\\. Use the following command to check the log:\n"
                    "Check log: " + log);
  EXPECT_TRUE(std::regex_match(far, far_re)) << far;
  EXPECT_EQ(Read("fuzzy.js"), "function foo() {\n  return 1;\n}\nfunction bar() {\n  return 2;\n}\n");
  // The log: upstream's header, then one tab-separated line per search.
  std::string text = ReadAbs(log);
  std::vector<std::string> lines;
  for (std::size_t i = 0, j; (j = text.find('\n', i)) != std::string::npos; i = j + 1) lines.push_back(text.substr(i, j - i));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "timestamp\tsearchText\tfoundText\tsimilarity\texecutionTime\texactMatchCount\texpectedReplacements\t"
            "fuzzyThreshold\tbelowThreshold\tdiff\tsearchLength\tfoundLength\tfileExtension\tcharacterCodes\t"
            "uniqueCharacterCount\tdiffLength");
  std::regex entry(
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\tfunction baz\\(\\) \\{\\\\n  return 2;\\\\n\\}\tfunction "
      "bar\\(\\) \\{\\\\n  return 2;\\\\n\\}\t0\\.9666666666666667\t[0-9.e-]+\t0\t1\t0\\.7\tfalse\tfunction "
      "ba\\{-z-\\}\\{\\+r\\+\\}\\(\\) \\{\\\\n  return 2;\\\\n\\}\t30\t30\t\\.js\t114:1\\[r\\],122:1\\[z\\]\t2\t2");
  EXPECT_TRUE(std::regex_match(lines[1], entry)) << lines[1];
}

TEST_F(EditTest, RefusalsAndFailures) {
  Write("one.txt", "a\n");
  Write("pic.png", "x");
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("one.txt")}, {"old_string", ""}, {"new_string", "x"}}),
            "Empty search strings are not allowed. Please provide a non-empty string to search for.");
  EXPECT_EQ(Ok("edit_block", {{"file_path", R("missing.txt")}, {"old_string", ""}, {"new_string", "x"}}),
            "Empty search strings are not allowed. Please provide a non-empty string to search for.");
  EXPECT_EQ(Err("edit_block", {{"file_path", R("missing.txt")}, {"old_string", "a"}, {"new_string", "b"}}),
            "Error: ENOENT: no such file or directory, open '" + R("missing.txt") + "'");
  EXPECT_EQ(Err("edit_block", {{"file_path", R("pic.png")}, {"old_string", "a"}, {"new_string", "b"}}),
            "Error: Cannot read image files as text for internal operations");
  Mkdir("dir");
  EXPECT_EQ(Err("edit_block", {{"file_path", R("dir")}, {"old_string", "a"}, {"new_string", "b"}}),
            "Error: EISDIR: illegal operation on a directory, read");
}

}  // namespace
}  // namespace sbx::servers::desktop_commander::testing
