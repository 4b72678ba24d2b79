// tools/list against the upstream captures, for 0.1.7 and the 0.1.4 variant.
#include <gtest/gtest.h>

#include "mcp/server.h"
#include "servers/excel/excel.h"
#include "servers/test_support/server_test.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::excel {
namespace {

class ExcelSchemaTest : public test_support::ServerTest {};

TEST_F(ExcelSchemaTest, ToolsListMatchesReference) {
  auto ref = test_support::ReadJsonFile(EXCEL_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found";
  Options options;
  options.workspace = "/tmp";
  OpenSession(MakeServer(options));
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["name"], "excel-mcp");
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["version"], "1.10.1");
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(ListTools(), (*ref)["tools"],
                                                         {.exact = {"inputSchema", "outputSchema"}, .absent = {"title", "annotations"}}));
}

TEST_F(ExcelSchemaTest, Variant014MatchesReference) {
  auto ref = test_support::ReadJsonFile(EXCEL_VARIANT_JSON);
  if (!ref) GTEST_SKIP() << "reference not found";
  Options options;
  options.workspace = "/tmp";
  options.variant = "0.1.4";
  OpenSession(MakeServer(options));
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["version"], "1.9.1");
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      ListTools(), (*ref)["tools"], {.exact = {"inputSchema"}, .absent = {"title", "annotations", "outputSchema"}}));
}

TEST(ExcelOptionsTest, Settings) {
  auto o = OptionsFromSettings(Json::parse(R"({"max_file_bytes": 1024, "max_cells": 10})"));
  ASSERT_TRUE(o);
  EXPECT_EQ(o->max_file_bytes, 1024u);
  EXPECT_EQ(o->max_cells, 10u);
  EXPECT_EQ(OptionsFromSettings(Json::parse(R"({"max_cells": 0})")).error().message,
            "excel: max_cells must be an integer from 1 to 20000000");
  EXPECT_EQ(OptionsFromSettings(Json::parse(R"({"max_file_bytes": "1"})")).error().message,
            "excel: max_file_bytes must be an integer from 1 to 268435456");
  EXPECT_EQ(OptionsFromSettings(Json::parse(R"({"root": "/"})")).error().message,
            "excel: unknown setting \"root\" (known: max_file_bytes, max_cells, max_unzipped_bytes)");
}

}  // namespace
}  // namespace sbx::servers::excel
