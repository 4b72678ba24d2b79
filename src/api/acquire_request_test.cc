#include "api/acquire_request.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/json.h"
#include "sandbox/server_names.h"

namespace sbx::api {
namespace {

const std::vector<std::string> kAllServers = {
    "filesystem",    "git",         "terminal",  "desktop-commander",      "arxiv",  "excel",
    "word",          "powerpoint",  "code-executor", "code-runner",        "pdf-tools",
    "google_cloud",  "poste_email_toolathlon", "canvas", "localmemory",    "playwright"};

// pydantic's listing of the 16 LocalSandboxMCPServer values.
const char kServersExpected[] =
    "'filesystem', 'git', 'terminal', 'desktop-commander', 'arxiv', 'excel', 'word', "
    "'powerpoint', 'code-executor', 'code-runner', 'pdf-tools', 'google_cloud', "
    "'poste_email_toolathlon', 'canvas', 'localmemory' or 'playwright'";

struct Parsed {
  std::optional<sandbox::AcquireRequest> request;
  std::string detail;  // the 422 "detail" list, compact; "[]" when valid
};

// `served`: what the deployment can serve; by default every server of the enum.
Parsed Parse(const char* body_json, const std::vector<std::string>& served = sandbox::KnownServerNames()) {
  ValidationErrors errors;
  Parsed p;
  p.request = ParseAcquireRequest(Json::parse(body_json), errors, served);
  p.detail = Json::parse(errors.ToResponse().body)["detail"].dump();
  EXPECT_EQ(p.request.has_value(), errors.empty()) << body_json;
  return p;
}

std::string Compact(const std::string& json) { return Json::parse(json).dump(); }

Json EnumError(Json loc, Json input) {
  return Json{{"type", "enum"},
              {"loc", std::move(loc)},
              {"msg", std::string("Input should be ") + kServersExpected},
              {"input", std::move(input)},
              {"ctx", {{"expected", kServersExpected}}}};
}

Json LiteralAllError(Json input) {
  return Json{{"type", "literal_error"},
              {"loc", {"body", "server_names", "literal['ALL']"}},
              {"msg", "Input should be 'ALL'"},
              {"input", std::move(input)},
              {"ctx", {{"expected", "'ALL'"}}}};
}

TEST(AcquireRequestTest, MinimalBodyTakesTheReferenceDefaults) {
  Parsed p = Parse(R"({"server_names":["git","filesystem"]})");
  ASSERT_TRUE(p.request) << p.detail;
  EXPECT_EQ(p.request->server_names, (std::vector<std::string>{"git", "filesystem"}));
  EXPECT_EQ(p.request->ttl_seconds, 7200);
  EXPECT_EQ(p.request->benchmark, std::nullopt);
  EXPECT_EQ(p.request->test_account_email, std::nullopt);
  EXPECT_EQ(p.detail, "[]");
}

TEST(AcquireRequestTest, AllExpandsToTheSixteenServersInEnumOrder) {
  EXPECT_EQ(sandbox::KnownServerNames(), kAllServers);
  Parsed p = Parse(R"({"server_names":"ALL"})");
  ASSERT_TRUE(p.request) << p.detail;
  EXPECT_EQ(p.request->server_names, kAllServers);
}

TEST(AcquireRequestTest, AllExpandsToWhatTheDeploymentServes) {
  Parsed p = Parse(R"({"server_names":"ALL"})", {"filesystem", "git", "localmemory"});
  ASSERT_TRUE(p.request) << p.detail;
  EXPECT_EQ(p.request->server_names, (std::vector<std::string>{"filesystem", "git", "localmemory"}));
}

TEST(AcquireRequestTest, AServerTheDeploymentCannotServeIsRefusedByName) {
  Parsed p = Parse(R"({"server_names":["git","excel","filesystem","word"]})", {"filesystem", "git"});
  EXPECT_FALSE(p.request);
  auto unavailable = [](int index, const char* name) {
    return Json{{"type", "server_unavailable"},
                {"loc", {"body", "server_names", index}},
                {"msg", std::string("Server '") + name +
                            "' is not available in this deployment: this build of sandboxd does not include it "
                            "(available: filesystem, git)"},
                {"input", name}};
  };
  EXPECT_EQ(p.detail, Json::array({unavailable(1, "excel"), unavailable(3, "word")}).dump());
  // Unknown names keep the enum's error; availability is judged only for a valid list.
  p = Parse(R"({"server_names":["nope","excel"]})", {"filesystem"});
  EXPECT_EQ(Json::parse(p.detail)[0]["type"], "enum");
  EXPECT_EQ(Json::parse(p.detail).size(), 2u);  // the enum error and the 'ALL' branch
  // A deployment that serves nothing refuses every name, and says so.
  p = Parse(R"({"server_names":["git"]})", {});
  EXPECT_NE(p.detail.find("(available: none)"), std::string::npos) << p.detail;
}

TEST(AcquireRequestTest, DuplicatesAndAnEmptyListAreAccepted) {
  Parsed p = Parse(R"({"server_names":["git","git"]})");
  ASSERT_TRUE(p.request);
  EXPECT_EQ(p.request->server_names, (std::vector<std::string>{"git", "git"}));
  p = Parse(R"({"server_names":[]})");
  ASSERT_TRUE(p.request);
  EXPECT_TRUE(p.request->server_names.empty());
}

TEST(AcquireRequestTest, EveryOptionalFieldSet) {
  Parsed p = Parse(
      R"({"server_names":["canvas"],"benchmark":"MCP_Mark","test_account_email":"t@x.io","ttl_seconds":60,"extra":1})");
  ASSERT_TRUE(p.request) << p.detail;
  EXPECT_EQ(p.request->benchmark, "MCP_Mark");
  EXPECT_EQ(p.request->test_account_email, "t@x.io");
  EXPECT_EQ(p.request->ttl_seconds, 60);
}

TEST(AcquireRequestTest, NullOptionalsAreNull) {
  Parsed p = Parse(
      R"({"server_names":["git"],"benchmark":null,"test_account_email":null,"ttl_seconds":null})");
  ASSERT_TRUE(p.request) << p.detail;
  EXPECT_EQ(p.request->benchmark, std::nullopt);
  EXPECT_EQ(p.request->test_account_email, std::nullopt);
  EXPECT_EQ(p.request->ttl_seconds, std::nullopt);  // never expires
}

TEST(AcquireRequestTest, TtlInLaxIntegerForms) {
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":"120"})").request->ttl_seconds, 120);
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":120.0})").request->ttl_seconds, 120);
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":86400})").request->ttl_seconds, 86400);
}

TEST(AcquireRequestTest, NonObjectBodyIsModelAttributesType) {
  EXPECT_EQ(Parse("[]").detail,
            R"([{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":[]}])");
  EXPECT_EQ(Parse(R"("ALL")").detail,
            R"([{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":"ALL"}])");
  EXPECT_FALSE(Parse("null").request.has_value());
}

TEST(AcquireRequestTest, MissingServerNamesEchoesTheWholeBody) {
  EXPECT_EQ(Parse(R"({"ttl_seconds":120})").detail,
            R"([{"type":"missing","loc":["body","server_names"],"msg":"Field required","input":{"ttl_seconds":120}}])");
}

TEST(AcquireRequestTest, NonListServerNamesReportsBothUnionBranches) {
  Json expected = Json::array(
      {Json{{"type", "list_type"},
            {"loc", {"body", "server_names", "list[LocalSandboxMCPServer]"}},
            {"msg", "Input should be a valid list"},
            {"input", "all"}},
       LiteralAllError("all")});
  EXPECT_EQ(Parse(R"({"server_names":"all"})").detail, expected.dump());
  expected[0]["input"] = 5;
  expected[1]["input"] = 5;
  EXPECT_EQ(Parse(R"({"server_names":5})").detail, expected.dump());
}

TEST(AcquireRequestTest, UnknownServerNamesReportEachIndexThenTheLiteralBranch) {
  Json input = Json::parse(R"(["git","nope",3,"Git"])");
  Json expected = Json::array(
      {EnumError({"body", "server_names", "list[LocalSandboxMCPServer]", 1}, "nope"),
       EnumError({"body", "server_names", "list[LocalSandboxMCPServer]", 2}, 3),
       EnumError({"body", "server_names", "list[LocalSandboxMCPServer]", 3}, "Git"),
       LiteralAllError(input)});
  EXPECT_EQ(Parse(R"({"server_names":["git","nope",3,"Git"]})").detail, expected.dump());
}

TEST(AcquireRequestTest, BenchmarkEnum) {
  EXPECT_EQ(Parse(R"({"server_names":["git"],"benchmark":"mcp_atlas"})").detail,
            Compact(R"([{"type":"enum","loc":["body","benchmark"],"msg":"Input should be 'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'","input":"mcp_atlas","ctx":{"expected":"'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'"}}])"));
}

TEST(AcquireRequestTest, EmailMustBeAString) {
  EXPECT_EQ(Parse(R"({"server_names":["git"],"test_account_email":["a"]})").detail,
            R"([{"type":"string_type","loc":["body","test_account_email"],"msg":"Input should be a valid string","input":["a"]}])");
}

TEST(AcquireRequestTest, TtlBounds) {
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":59})").detail,
            R"([{"type":"greater_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be greater than or equal to 60","input":59,"ctx":{"ge":60}}])");
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":86401})").detail,
            R"([{"type":"less_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be less than or equal to 86400","input":86401,"ctx":{"le":86400}}])");
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":"30"})").detail,
            R"([{"type":"greater_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be greater than or equal to 60","input":"30","ctx":{"ge":60}}])");
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":true})").detail,
            R"([{"type":"greater_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be greater than or equal to 60","input":true,"ctx":{"ge":60}}])");
}

TEST(AcquireRequestTest, TtlTypeErrors) {
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":"2h"})").detail,
            R"([{"type":"int_parsing","loc":["body","ttl_seconds"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"2h"}])");
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":120.5})").detail,
            R"([{"type":"int_from_float","loc":["body","ttl_seconds"],"msg":"Input should be a valid integer, got a number with a fractional part","input":120.5}])");
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":[120]})").detail,
            R"([{"type":"int_type","loc":["body","ttl_seconds"],"msg":"Input should be a valid integer","input":[120]}])");
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":{}})").detail,
            R"([{"type":"int_type","loc":["body","ttl_seconds"],"msg":"Input should be a valid integer","input":{}}])");
}

TEST(AcquireRequestTest, HugeTtlIsOverTheBoundNotATypeError) {
  // BUG (src/api/validation.cc:47, ValidateInt): Python ints are unbounded, so
  // pydantic parses 18446744073709551615 fine and the le constraint rejects
  // it: less_than_equal {"le":86400}. sandboxd answers int_type.
  EXPECT_EQ(Parse(R"({"server_names":["git"],"ttl_seconds":18446744073709551615})").detail,
            R"([{"type":"less_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be less than or equal to 86400","input":18446744073709551615,"ctx":{"le":86400}}])");
}

TEST(AcquireRequestTest, EveryProblemIsListedInFieldOrder) {
  EXPECT_EQ(
      Parse(R"({"ttl_seconds":10,"test_account_email":1,"benchmark":"x"})").detail,
      Compact(R"([
        {"type":"missing","loc":["body","server_names"],"msg":"Field required","input":{"ttl_seconds":10,"test_account_email":1,"benchmark":"x"}},
        {"type":"enum","loc":["body","benchmark"],"msg":"Input should be 'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'","input":"x","ctx":{"expected":"'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'"}},
        {"type":"string_type","loc":["body","test_account_email"],"msg":"Input should be a valid string","input":1},
        {"type":"greater_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be greater than or equal to 60","input":10,"ctx":{"ge":60}}
      ])"));
}

}  // namespace
}  // namespace sbx::api
