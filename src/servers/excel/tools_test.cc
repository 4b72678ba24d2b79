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

}  // namespace
}  // namespace sbx::servers::excel
