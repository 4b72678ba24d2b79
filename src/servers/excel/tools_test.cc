// Every tool through a real MCP session against golden results: the texts
// of testdata/scenario.json were produced by running upstream's own tool
// functions (excel_mcp/server.py 0.1.7 and the modules it calls) with
// Debian's openpyxl on the same calls in the same order, one workbook
// carried through all of them. Then the workbook left behind is read by
// Debian's openpyxl and compared cell by cell.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <map>
#include <unistd.h>

#include "servers/excel/excel.h"
#include "servers/test_support/files.h"
#include "servers/test_support/interpreter.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::excel {
namespace {

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

class ExcelToolsTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    base_ = test_support::MakeTempDir("sbx_excel_test");
    Options options;
    options.workspace = base_;
    OpenSession(MakeServer(options));
  }
  void TearDown() override { (void)fs::RemoveTree(base_); }

  // The text of a call and whether it was an error result.
  std::pair<std::string, bool> Run(const std::string& tool, const Json& args) {
    Json r = Call(tool, Json::parse(Replace(args.dump(), "$W", base_)));
    std::string text = r["content"][0].value("text", "");
    bool error = r.value("isError", false);
    // 0.1.7's tools declare {result: string}: FastMCP sends it as structuredContent too.
    if (!error) {
      EXPECT_EQ(r["structuredContent"], (Json{{"result", text}})) << tool;
    }
    return {Replace(text, base_, "$W"), error};
  }

  // testdata/dump_workbook.py's view of a workbook.
  static std::string PythonDump(const std::string& path) {
    std::string command = "/usr/bin/python3 " EXCEL_TESTDATA_DIR "/dump_workbook.py '" + path + "' 2>&1";
    std::string out;
    if (FILE* p = ::popen(command.c_str(), "r")) {
      char buf[4096];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
      ::pclose(p);
    }
    return out;
  }

  std::string base_;

  // Runs testdata/<name>.json's calls in order and compares each text; then
  // compares the workbook `file` left behind, as Debian's openpyxl and
  // pandas read it, with what upstream's calls left (<name>_final.txt).
  void RunScenario(const std::string& name, const std::string& file) {
    std::ifstream in(std::string(EXCEL_TESTDATA_DIR) + "/" + name + ".json");
    ASSERT_TRUE(in) << EXCEL_TESTDATA_DIR;
    Json calls = Json::parse(in);
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const Json& c = calls[i];
      auto [text, error] = Run(c["tool"], c["args"]);
      if (c["tool"] == "get_workbook_metadata" && !error)
        text = std::regex_replace(text, std::regex("'size': \\d+, 'modified': [0-9.e+]+"), "'size': SIZE, 'modified': MTIME");
      // uuid-made table names; upstream's Python sets print in hash order, ours sorted (the goldens are sorted).
      text = std::regex_replace(text, std::regex("Table_[0-9a-f]{8}"), "Table_*");
      const char* key = c.contains("error") ? "error" : "text";
      EXPECT_EQ(error, c.contains("error")) << name << " #" << i << " " << c["tool"];
      EXPECT_EQ(text, c[key].get<std::string>()) << name << " #" << i << " " << c["tool"] << " " << c["args"].dump();
    }
    std::ifstream golden(std::string(EXCEL_TESTDATA_DIR) + "/" + name + "_final.txt");
    std::string want((std::istreambuf_iterator<char>(golden)), std::istreambuf_iterator<char>());
    EXPECT_EQ(PythonDump(base_ + "/" + file), want) << name;
  }
};

// A workbook made by create_workbook and carried through every tool:
// ordinary calls and the errors of each.
TEST_F(ExcelToolsTest, FreshWorkbookMatchesUpstream) {
  if (!sbx::test::HaveInterpreter("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  RunScenario("fresh", "book.xlsx");
}

// A workbook as Excel writes them (testdata/seed_workbook.py): shared
// strings, shared formulas, dates, validations, a calculation chain.
TEST_F(ExcelToolsTest, SeededWorkbookMatchesUpstream) {
  if (!sbx::test::HaveInterpreter("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  ASSERT_EQ(std::system(("/usr/bin/python3 " EXCEL_TESTDATA_DIR "/seed_workbook.py '" + base_ + "/seed.xlsx'").c_str()), 0);
  RunScenario("seeded", "seed.xlsx");
}

// Formatting, conditional formats, every chart type, tables and pivots.
TEST_F(ExcelToolsTest, StyledWorkbookMatchesUpstream) {
  if (!sbx::test::HaveInterpreter("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  RunScenario("styled", "s.xlsx");
}

// Hostile workbooks (testdata/hostile_workbooks.py): each call is a clear
// error, the file on disk is unchanged, and the server keeps working.
// Upstream (zipfile + openpyxl) ignores entries it does not read, so it
// opens the bomb and the "../" workbooks; we refuse every entry we cannot
// trust (a deliberate difference, see README).
TEST_F(ExcelToolsTest, HostileWorkbooksAreRefusedAndLeftAsTheyWere) {
  if (!sbx::test::HaveInterpreter("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  Options options;
  options.workspace = base_;
  options.max_unzipped_bytes = 8u << 20;
  OpenSession(MakeServer(options));
  ASSERT_EQ(std::system(("/usr/bin/python3 " EXCEL_TESTDATA_DIR "/hostile_workbooks.py '" + base_ + "' 16").c_str()), 0);
  const std::map<std::string, std::string> reasons = {
      {"notzip", "File is not a zip file"},
      {"truncated", "File is not a zip file"},
      // The texts after the path are src/ooxml's.
      {"bomb", "Unreadable workbook $W/bomb.xlsx: /xl/media/zeros.bin: the package inflates past the limit of 8388608 bytes in all"},
      {"dotdot", "Unreadable workbook $W/dotdot.xlsx: /../evil.xml: invalid part name: it has a '.' or '..' segment"},
      {"absolute", "Unreadable workbook $W/absolute.xlsx: /etc/evil.xml: invalid part name: the zip entry name is absolute"},
      {"laughs", "Unreadable workbook $W/laughs.xlsx: /xl/worksheets/sheet1.xml: a DOCTYPE is not allowed in an OOXML part"},
  };
  for (const auto& [name, reason] : reasons) {
    std::string file = base_ + "/" + name + ".xlsx";
    std::string before = ReadAbs(file);
    Json read{{"filepath", "$W/" + name + ".xlsx"}, {"sheet_name", "S"}};
    EXPECT_EQ(Run("read_data_from_excel", read), (std::pair<std::string, bool>{"Error executing tool read_data_from_excel: " + reason, true}))
        << name;
    Json write{{"filepath", "$W/" + name + ".xlsx"}, {"sheet_name", "S"}, {"data", Json::parse("[[2]]")}};
    EXPECT_EQ(Run("write_data_to_excel", write), (std::pair<std::string, bool>{"Error: " + reason, false})) << name;
    EXPECT_EQ(ReadAbs(file), before) << name;
    EXPECT_EQ(Run("write_data_to_excel", Json{{"filepath", "$W/good.xlsx"}, {"sheet_name", "S"}, {"data", Json::parse("[[3]]")}}),
              (std::pair<std::string, bool>{"Data written to S", false}));
  }
}

// Paths: absolute only (upstream's stdio rule), and only inside the
// workspace, whatever ".." or links say; refused writes create nothing.
TEST_F(ExcelToolsTest, PathsStayInsideTheWorkspace) {
  std::string outside = test_support::MakeTempDir("sbx_excel_outside");
  ASSERT_EQ(::symlink(outside.c_str(), (base_ + "/out").c_str()), 0);
  EXPECT_EQ(Run("create_workbook", Json{{"filepath", outside + "/x.xlsx"}}),
            (std::pair<std::string, bool>{"Error: Failed to create workbook: [Errno 13] Permission denied: '" + outside + "/x.xlsx'", false}));
  EXPECT_EQ(Run("create_workbook", Json{{"filepath", "$W/out/x.xlsx"}}),
            (std::pair<std::string, bool>{"Error: Failed to create workbook: [Errno 13] Permission denied: '$W/out/x.xlsx'", false}));
  EXPECT_EQ(Run("create_workbook", Json{{"filepath", "$W/../x.xlsx"}}),
            (std::pair<std::string, bool>{"Error: Failed to create workbook: [Errno 13] Permission denied: '$W/../x.xlsx'", false}));
  EXPECT_EQ(Run("get_workbook_metadata", Json{{"filepath", "$W/out/x.xlsx"}}),
            (std::pair<std::string, bool>{"Error: File not found: $W/out/x.xlsx", false}));
  EXPECT_FALSE(Exists(outside + "/x.xlsx"));
  // Inside, new folders are made as upstream's mkdir(parents=True) does.
  EXPECT_EQ(Run("create_workbook", Json{{"filepath", "$W/a/b/../c.xlsx"}}),
            (std::pair<std::string, bool>{"Created workbook at $W/a/b/../c.xlsx", false}));
  (void)fs::RemoveTree(outside);
}

// FastMCP's argument handling: JSON text for non-string parameters and
// pydantic's lax integers and booleans.
TEST_F(ExcelToolsTest, ArgumentsAreReadAsFastMcpReadsThem) {
  ASSERT_EQ(Run("create_workbook", Json{{"filepath", "$W/l.xlsx"}}).second, false);
  EXPECT_EQ(Run("write_data_to_excel", Json{{"filepath", "$W/l.xlsx"}, {"sheet_name", "Sheet1"}, {"data", "[[1, \"a\"]]"}}),
            (std::pair<std::string, bool>{"Data written to Sheet1", false}));
  EXPECT_EQ(Run("insert_rows", Json{{"filepath", "$W/l.xlsx"}, {"sheet_name", "Sheet1"}, {"start_row", "1"}, {"count", 2.0}}),
            (std::pair<std::string, bool>{"Inserted 2 row(s) starting at row 1 in sheet 'Sheet1'", false}));
  EXPECT_EQ(Run("get_merged_cells", Json{{"filepath", "$W/l.xlsx"}, {"sheet_name", "Sheet1"}}),
            (std::pair<std::string, bool>{"[]", false}));
  auto [text, error] = Run("get_workbook_metadata", Json{{"filepath", "$W/l.xlsx"}, {"include_ranges", "yes"}});
  EXPECT_NE(text.find("'used_ranges': {'Sheet1': 'A1:B3'}"), std::string::npos) << text;
}

// Arguments pydantic refuses: FastMCP 1.10.1 answers with an error result
// holding the ValidationError's text (pydantic 2.11.7).
TEST_F(ExcelToolsTest, InvalidArgumentsGetPydanticsText) {
  using Answer = std::pair<std::string, bool>;
  EXPECT_EQ(Run("get_merged_cells", Json{{"sheet_name", "S"}}),
            (Answer{"Error executing tool get_merged_cells: 1 validation error for get_merged_cellsArguments\n"
                    "filepath\n  Field required [type=missing, input_value={'sheet_name': 'S'}, input_type=dict]\n"
                    "    For further information visit https://errors.pydantic.dev/2.11/v/missing",
                    true}));
  EXPECT_EQ(Run("get_merged_cells", Json{{"filepath", "$W/l.xlsx"}, {"sheet_name", 5}}),
            (Answer{"Error executing tool get_merged_cells: 1 validation error for get_merged_cellsArguments\n"
                    "sheet_name\n  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n"
                    "    For further information visit https://errors.pydantic.dev/2.11/v/string_type",
                    true}));
  EXPECT_EQ(Run("write_data_to_excel",
                Json{{"filepath", "$W/l.xlsx"}, {"sheet_name", "S"}, {"data", Json::parse(R"([[1], "x", 3])")}}),
            (Answer{"Error executing tool write_data_to_excel: 2 validation errors for write_data_to_excelArguments\n"
                    "data.1\n  Input should be a valid list [type=list_type, input_value='x', input_type=str]\n"
                    "    For further information visit https://errors.pydantic.dev/2.11/v/list_type\n"
                    "data.2\n  Input should be a valid list [type=list_type, input_value=3, input_type=int]\n"
                    "    For further information visit https://errors.pydantic.dev/2.11/v/list_type",
                    true}));
  EXPECT_EQ(Run("insert_rows", Json{{"filepath", "$W/l.xlsx"}, {"sheet_name", "S"}, {"start_row", 1.5}}),
            (Answer{"Error executing tool insert_rows: 1 validation error for insert_rowsArguments\n"
                    "start_row\n  Input should be a valid integer, got a number with a fractional part "
                    "[type=int_from_float, input_value=1.5, input_type=float]\n"
                    "    For further information visit https://errors.pydantic.dev/2.11/v/int_from_float",
                    true}));
  EXPECT_EQ(Run("insert_rows", Json{{"filepath", "$W/l.xlsx"}, {"sheet_name", "S"}, {"start_row", "one"}}),
            (Answer{"Error executing tool insert_rows: 1 validation error for insert_rowsArguments\n"
                    "start_row\n  Input should be a valid integer, unable to parse string as an integer "
                    "[type=int_parsing, input_value='one', input_type=str]\n"
                    "    For further information visit https://errors.pydantic.dev/2.11/v/int_parsing",
                    true}));
}

}  // namespace
}  // namespace sbx::servers::excel
