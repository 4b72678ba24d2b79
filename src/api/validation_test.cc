#include "api/validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::api {
namespace {

// The "detail" list of the 422 response, as compact JSON text (key order
// included, so a comparison checks pydantic's field order too).
std::string Detail(const ValidationErrors& errors) {
  http::Response r = errors.ToResponse();
  EXPECT_EQ(r.status, 422u);
  EXPECT_EQ(r.content_type, "application/json");
  Json body = Json::parse(r.body);
  EXPECT_EQ(body.size(), 1u);
  return body["detail"].dump();
}

std::string Compact(const char* json) { return Json::parse(json).dump(); }

TEST(ValidationErrorsTest, EmptyAndOrderedItems) {
  ValidationErrors e;
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(Detail(e), "[]");
  e.Add("missing", Json::array({"body", "x"}), "Field required", Json::object());
  e.Add("enum", Json::array({"query", "y"}), "Input should be 'a'", "b", Json{{"expected", "'a'"}});
  EXPECT_FALSE(e.empty());
  EXPECT_EQ(Detail(e), Compact(R"([
    {"type":"missing","loc":["body","x"],"msg":"Field required","input":{}},
    {"type":"enum","loc":["query","y"],"msg":"Input should be 'a'","input":"b","ctx":{"expected":"'a'"}}
  ])"));
}

TEST(ParseJsonBodyTest, EmptyBodyIsMissing) {
  ValidationErrors e;
  EXPECT_EQ(ParseJsonBody("", e), std::nullopt);
  EXPECT_EQ(Detail(e), R"([{"type":"missing","loc":["body"],"msg":"Field required","input":null}])");
}

TEST(ParseJsonBodyTest, WhitespaceOnlyBodyIsInvalidJsonLikeFastApi) {
  // BUG (src/api/validation.cc:28-29, ParseJsonBody): FastAPI only treats an
  // *empty* body as missing; any non-empty body goes to json.loads, and
  // "  \n" fails with JSONDecodeError "Expecting value" at char 3, so the
  // reference answers json_invalid at ["body", 3]. sandboxd answers
  // `missing`.
  ValidationErrors e;
  EXPECT_EQ(ParseJsonBody("  \n", e), std::nullopt);
  Json detail = Json::parse(Detail(e));
  ASSERT_EQ(detail.size(), 1u);
  EXPECT_EQ(detail[0]["type"], "json_invalid");
  EXPECT_EQ(detail[0]["loc"].dump(), R"(["body",3])");
}

TEST(ParseJsonBodyTest, ValidJsonOfAnyShapeIsReturned) {
  ValidationErrors e;
  EXPECT_EQ(ParseJsonBody(R"({"b":1,"a":[true,null]})", e)->dump(), R"({"b":1,"a":[true,null]})");
  EXPECT_EQ(ParseJsonBody(" [] ", e)->dump(), "[]");
  EXPECT_EQ(ParseJsonBody("\"s\"", e)->dump(), "\"s\"");
  EXPECT_EQ(ParseJsonBody("0", e)->dump(), "0");
  EXPECT_TRUE(e.empty());
}

// The position is the one Python's json module reports (0-based), so a
// client sees the same loc as from the reference service.
struct InvalidCase {
  const char* body;
  int python_pos;
};

TEST(ParseJsonBodyTest, MalformedJsonIsJsonInvalidAtPythonsPosition) {
  for (const InvalidCase& c : std::vector<InvalidCase>{{"{", 1},
                                                       {R"({"a":})", 5},
                                                       {"[1,2", 4},
                                                       {"{} x", 3},
                                                       {R"({"a" 1})", 5},
                                                       {R"({"a":1,})", 7},
                                                       {"1 2", 2},
                                                       {"[1,,2]", 3},
                                                       {"  {", 3}}) {
    ValidationErrors e;
    EXPECT_EQ(ParseJsonBody(c.body, e), std::nullopt) << c.body;
    std::string pos = std::to_string(c.python_pos);
    EXPECT_EQ(Detail(e), R"([{"type":"json_invalid","loc":["body",)" + pos +
                             R"(],"msg":"JSON decode error","input":{},"ctx":{"error":"Invalid JSON at byte )" +
                             pos + R"("}}])")
        << c.body;
  }
}

TEST(ValidateIntTest, LaxIntegers) {
  ValidationErrors e;
  const Json loc = Json::array({"body", "n"});
  EXPECT_EQ(ValidateInt(120, loc, e), 120);
  EXPECT_EQ(ValidateInt(-5, loc, e), -5);
  EXPECT_EQ(ValidateInt(120.0, loc, e), 120);
  EXPECT_EQ(ValidateInt(-0.0, loc, e), 0);
  EXPECT_EQ(ValidateInt("120", loc, e), 120);
  EXPECT_EQ(ValidateInt("+7", loc, e), 7);
  EXPECT_EQ(ValidateInt("-7", loc, e), -7);
  EXPECT_EQ(ValidateInt(true, loc, e), 1);
  EXPECT_EQ(ValidateInt(false, loc, e), 0);
  EXPECT_EQ(ValidateInt(Json(9223372036854775807LL), loc, e), INT64_MAX);
  EXPECT_TRUE(e.empty()) << Detail(e);
}

TEST(ValidateIntTest, ErrorsHaveThePydanticShapes) {
  ValidationErrors e;
  const Json loc = Json::array({"body", "n"});
  EXPECT_EQ(ValidateInt(1.5, loc, e), std::nullopt);
  EXPECT_EQ(ValidateInt("abc", loc, e), std::nullopt);
  EXPECT_EQ(ValidateInt("", loc, e), std::nullopt);
  EXPECT_EQ(ValidateInt("1.5", loc, e), std::nullopt);
  EXPECT_EQ(ValidateInt(nullptr, loc, e), std::nullopt);
  EXPECT_EQ(ValidateInt(Json::array(), loc, e), std::nullopt);
  EXPECT_EQ(ValidateInt(Json::object(), loc, e), std::nullopt);
  EXPECT_EQ(Detail(e), Compact(R"([
    {"type":"int_from_float","loc":["body","n"],"msg":"Input should be a valid integer, got a number with a fractional part","input":1.5},
    {"type":"int_parsing","loc":["body","n"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"},
    {"type":"int_parsing","loc":["body","n"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":""},
    {"type":"int_parsing","loc":["body","n"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"1.5"},
    {"type":"int_type","loc":["body","n"],"msg":"Input should be a valid integer","input":null},
    {"type":"int_type","loc":["body","n"],"msg":"Input should be a valid integer","input":[]},
    {"type":"int_type","loc":["body","n"],"msg":"Input should be a valid integer","input":{}}
  ])"));
}

TEST(ValidateIntTest, NumericStringsPydanticAccepts) {
  // BUG (src/api/validation.cc:62-72, ValidateInt string branch): pydantic-core's
  // str_as_int also accepts a string whose fraction is all zeros ("120.0",
  // "120.") and underscores between digits ("1_000"), as int("1_000") does;
  // sandboxd answers int_parsing for them.
  ValidationErrors e;
  const Json loc = Json::array({"body", "n"});
  EXPECT_EQ(ValidateInt("120.0", loc, e), 120);
  EXPECT_EQ(ValidateInt("120.", loc, e), 120);
  EXPECT_EQ(ValidateInt("1_000", loc, e), 1000);
  EXPECT_TRUE(e.empty()) << Detail(e);
}

TEST(ValidateRangeTest, BoundsAreInclusiveWithCtx) {
  ValidationErrors e;
  const Json loc = Json::array({"body", "ttl_seconds"});
  EXPECT_TRUE(ValidateRange(60, 60, loc, 60, 86400, e));
  EXPECT_TRUE(ValidateRange(86400, 86400, loc, 60, 86400, e));
  EXPECT_TRUE(e.empty());
  EXPECT_FALSE(ValidateRange(59, "59", loc, 60, 86400, e));
  EXPECT_FALSE(ValidateRange(86401, 86401.0, loc, 60, 86400, e));
  EXPECT_EQ(Detail(e), Compact(R"([
    {"type":"greater_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be greater than or equal to 60","input":"59","ctx":{"ge":60}},
    {"type":"less_than_equal","loc":["body","ttl_seconds"],"msg":"Input should be less than or equal to 86400","input":86401.0,"ctx":{"le":86400}}
  ])"));
}

TEST(ValidateOptionalStringTest, StringNullOrStringType) {
  ValidationErrors e;
  const Json loc = Json::array({"body", "s"});
  auto x = ValidateOptionalString("x", loc, e);
  ASSERT_TRUE(x.has_value());
  EXPECT_EQ(*x, std::optional<std::string>("x"));
  auto null = ValidateOptionalString(nullptr, loc, e);
  ASSERT_TRUE(null.has_value());  // valid...
  EXPECT_FALSE(null->has_value());  // ...and null
  EXPECT_TRUE(e.empty());
  EXPECT_FALSE(ValidateOptionalString(5, loc, e).has_value());
  EXPECT_FALSE(ValidateOptionalString(false, loc, e).has_value());
  EXPECT_EQ(Detail(e), Compact(R"([
    {"type":"string_type","loc":["body","s"],"msg":"Input should be a valid string","input":5},
    {"type":"string_type","loc":["body","s"],"msg":"Input should be a valid string","input":false}
  ])"));
}

TEST(ExpectedListTest, PydanticWording) {
  EXPECT_EQ(ExpectedList({}), "");
  EXPECT_EQ(ExpectedList({"a"}), "'a'");
  EXPECT_EQ(ExpectedList({"a", "b"}), "'a' or 'b'");
  EXPECT_EQ(ExpectedList({"us", "asia", "eu"}), "'us', 'asia' or 'eu'");
}

TEST(ValidateEnumTest, ExactMembersOnly) {
  ValidationErrors e;
  const Json loc = Json::array({"body", "benchmark"});
  const std::vector<std::string> allowed = {"MCP_Atlas", "Toolathlon", "MCP_Mark"};
  EXPECT_EQ(ValidateEnum("Toolathlon", allowed, loc, e), "Toolathlon");
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(ValidateEnum("toolathlon", allowed, loc, e), std::nullopt);
  EXPECT_EQ(ValidateEnum(1, allowed, loc, e), std::nullopt);
  const char* msg = "Input should be 'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'";
  const char* ctx = "'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'";
  Json expected = Json::array();
  for (Json input : {Json("toolathlon"), Json(1)})
    expected.push_back(Json{{"type", "enum"}, {"loc", loc}, {"msg", msg}, {"input", input},
                            {"ctx", {{"expected", ctx}}}});
  EXPECT_EQ(Detail(e), expected.dump());
}

TEST(QueryBoolTest, PydanticSpellingsInAnyCase) {
  for (const char* t : {"1", "on", "t", "true", "y", "yes", "TRUE", "Yes", "On", "T"}) {
    ValidationErrors e;
    EXPECT_EQ(QueryBool(http::QueryParams(std::string("is_ttl=") + t), "is_ttl", false, e), true) << t;
    EXPECT_TRUE(e.empty()) << t;
  }
  for (const char* f : {"0", "off", "f", "false", "n", "no", "FALSE", "No", "OFF"}) {
    ValidationErrors e;
    EXPECT_EQ(QueryBool(http::QueryParams(std::string("is_ttl=") + f), "is_ttl", true, e), false) << f;
    EXPECT_TRUE(e.empty()) << f;
  }
}

TEST(QueryBoolTest, AbsentIsTheDefaultAndTheLastValueWins) {
  ValidationErrors e;
  EXPECT_EQ(QueryBool(http::QueryParams("other=1"), "is_ttl", false, e), false);
  EXPECT_EQ(QueryBool(http::QueryParams(""), "is_ttl", true, e), true);
  EXPECT_EQ(QueryBool(http::QueryParams("is_ttl=false&is_ttl=true"), "is_ttl", false, e), true);
  EXPECT_TRUE(e.empty());
}

TEST(QueryBoolTest, OtherValuesAreBoolParsing) {
  ValidationErrors e;
  EXPECT_EQ(QueryBool(http::QueryParams("is_ttl=maybe"), "is_ttl", false, e), std::nullopt);
  EXPECT_EQ(QueryBool(http::QueryParams("is_ttl="), "is_ttl", false, e), std::nullopt);
  EXPECT_EQ(QueryBool(http::QueryParams("is_ttl=2"), "is_ttl", false, e), std::nullopt);
  EXPECT_EQ(QueryBool(http::QueryParams("is_ttl=tru%65+"), "is_ttl", false, e), std::nullopt);
  EXPECT_EQ(Detail(e), Compact(R"([
    {"type":"bool_parsing","loc":["query","is_ttl"],"msg":"Input should be a valid boolean, unable to interpret input","input":"maybe"},
    {"type":"bool_parsing","loc":["query","is_ttl"],"msg":"Input should be a valid boolean, unable to interpret input","input":""},
    {"type":"bool_parsing","loc":["query","is_ttl"],"msg":"Input should be a valid boolean, unable to interpret input","input":"2"},
    {"type":"bool_parsing","loc":["query","is_ttl"],"msg":"Input should be a valid boolean, unable to interpret input","input":"true "}
  ])"));
}

TEST(ValidateRegionTest, UsAsiaOrAbsent) {
  ValidationErrors e;
  ValidateRegion(http::QueryParams(""), e);
  ValidateRegion(http::QueryParams("region=us"), e);
  ValidateRegion(http::QueryParams("region=asia"), e);
  ValidateRegion(http::QueryParams("region=eu&region=us"), e);  // last wins
  EXPECT_TRUE(e.empty()) << Detail(e);
  ValidateRegion(http::QueryParams("region=US"), e);
  ValidateRegion(http::QueryParams("region="), e);
  EXPECT_EQ(Detail(e), Compact(R"([
    {"type":"enum","loc":["query","region"],"msg":"Input should be 'us' or 'asia'","input":"US","ctx":{"expected":"'us' or 'asia'"}},
    {"type":"enum","loc":["query","region"],"msg":"Input should be 'us' or 'asia'","input":"","ctx":{"expected":"'us' or 'asia'"}}
  ])"));
}

}  // namespace
}  // namespace sbx::api
