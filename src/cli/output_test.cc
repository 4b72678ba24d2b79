#include "cli/output.h"

#include <gtest/gtest.h>

namespace sbx::cli {
namespace {

TEST(FormatTable, AlignsColumnsWithoutTrailingSpaces) {
  EXPECT_EQ(FormatTable({"ID", "OWNER", "ADMIN"}, {{"k1", "alice", "yes"}, {"key-22", "b", "-"}}),
            "ID      OWNER  ADMIN\n"
            "k1      alice  yes\n"
            "key-22  b      -\n");
}

TEST(FormatTable, CountsUtf8CodePoints) {
  EXPECT_EQ(FormatTable({"OWNER", "X"}, {{"J\xC3\xBCrgen", "1"}}),
            "OWNER   X\n"
            "J\xC3\xBCrgen  1\n");
}

TEST(Text, DisplayForms) {
  Json obj = {{"s", "v"}, {"n", nullptr}, {"b", true}, {"f", false}, {"i", 7}};
  EXPECT_EQ(Text(obj, "s"), "v");
  EXPECT_EQ(Text(obj, "n"), "-");
  EXPECT_EQ(Text(obj, "missing"), "-");
  EXPECT_EQ(Text(obj, "b"), "yes");
  EXPECT_EQ(Text(obj, "f"), "no");
  EXPECT_EQ(Text(obj, "i"), "7");
}

TEST(FormatSandbox, IdStatusAndServerUrls) {
  Json sandbox = Json::parse(R"({
    "local_sandbox_id":"sb1","status":"occupied","benchmark":null,
    "servers":[
      {"server_name":"filesystem","id":"a","mcp_server_url":"http://h/filesystem/mcp/?local_sandbox_id=sb1"},
      {"server_name":"git","id":"b","mcp_server_url":"http://h/git/mcp/?local_sandbox_id=sb1"}]})");
  EXPECT_EQ(FormatSandbox(sandbox),
            "sandbox    sb1\n"
            "status     occupied\n"
            "benchmark  -\n"
            "servers\n"
            "  filesystem  http://h/filesystem/mcp/?local_sandbox_id=sb1\n"
            "  git         http://h/git/mcp/?local_sandbox_id=sb1\n");
}

}  // namespace
}  // namespace sbx::cli
