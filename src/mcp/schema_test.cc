#include "mcp/schema.h"

#include <gtest/gtest.h>

namespace sbx::mcp {
namespace {

// The filesystem server's edit_file schema: nested objects, arrays, defaults.
const Json kEditSchema = Json::parse(R"({
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "edits": {"type": "array", "items": {"type": "object",
      "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
      "required": ["oldText", "newText"]}},
    "dryRun": {"default": false, "type": "boolean"},
    "sortBy": {"default": "name", "type": "string", "enum": ["name", "size"]},
    "paths": {"minItems": 1, "type": "array", "items": {"type": "string"}}
  },
  "required": ["path", "edits"]
})");

std::string Issues(const Json& args) { return FormatIssues(Validate(kEditSchema, args)); }

TEST(Schema, ValidArgumentsHaveNoIssues) {
  EXPECT_EQ(Issues(Json::parse(R"({"path":"a","edits":[{"oldText":"x","newText":"y"}]})")), "");
}

TEST(Schema, UnknownPropertiesAreIgnoredLikeZod) {
  EXPECT_EQ(Issues(Json::parse(R"({"path":"a","edits":[],"whatever":1})")), "");
}

TEST(Schema, MissingRequiredInSchemaOrder) {
  EXPECT_EQ(Issues(Json::object()),
            "Invalid input: expected string, received undefined at path\n"
            "Invalid input: expected array, received undefined at edits");
}

TEST(Schema, WrongTypesNameWhatWasReceived) {
  EXPECT_EQ(Issues(Json::parse(R"({"path":1,"edits":{}})")),
            "Invalid input: expected string, received number at path\n"
            "Invalid input: expected array, received object at edits");
  EXPECT_EQ(Issues(Json::parse(R"({"path":null,"edits":[],"dryRun":"yes"})")),
            "Invalid input: expected string, received null at path\n"
            "Invalid input: expected boolean, received string at dryRun");
}

TEST(Schema, NestedPathsUseDotsAndBrackets) {
  EXPECT_EQ(Issues(Json::parse(R"({"path":"a","edits":[{"oldText":"x","newText":"y"},{"oldText":"a"}]})")),
            "Invalid input: expected string, received undefined at edits[1].newText");
  EXPECT_EQ(Issues(Json::parse(R"({"path":"a","edits":[],"paths":[1]})")),
            "Invalid input: expected string, received number at paths[0]");
}

TEST(Schema, EnumAndMinItems) {
  EXPECT_EQ(Issues(Json::parse(R"({"path":"a","edits":[],"sortBy":"x"})")),
            "Invalid option: expected one of \"name\"|\"size\" at sortBy");
  EXPECT_EQ(Issues(Json::parse(R"({"path":"a","edits":[],"paths":[]})")),
            "Too small: expected array to have >=1 items at paths");
}

TEST(Schema, NumbersIntegersAndBounds) {
  Json schema = Json::parse(R"({"type":"object","properties":{
      "n":{"type":"integer","minimum":1,"maximum":5},"s":{"type":"string","minLength":2}}})");
  EXPECT_EQ(FormatIssues(Validate(schema, Json::parse(R"({"n":1.5})"))), "Invalid input: expected int, received number at n");
  EXPECT_EQ(FormatIssues(Validate(schema, Json::parse(R"({"n":0})"))), "Too small: expected number to be >=1 at n");
  EXPECT_EQ(FormatIssues(Validate(schema, Json::parse(R"({"n":6})"))), "Too big: expected number to be <=5 at n");
  EXPECT_EQ(FormatIssues(Validate(schema, Json::parse(R"({"n":3.0,"s":"é"})"))),
            "Too small: expected string to have >=2 characters at s");
}

TEST(Schema, AnyOfConstAndClosedObjects) {
  Json schema = Json::parse(R"({"type":"object","additionalProperties":false,"properties":{
      "v":{"anyOf":[{"type":"string"},{"type":"number"}]},"k":{"const":"x"}}})");
  EXPECT_EQ(FormatIssues(Validate(schema, Json::parse(R"({"v":true})"))), "Invalid input at v");
  EXPECT_EQ(FormatIssues(Validate(schema, Json::parse(R"({"k":"y"})"))), "Invalid input: expected \"x\" at k");
  EXPECT_EQ(FormatIssues(Validate(schema, Json::parse(R"({"z":1})"))), "Unrecognized key: \"z\"");
}

TEST(Schema, ArgumentsMustBeAnObject) {
  EXPECT_EQ(FormatIssues(Validate(kEditSchema, Json::array())), "Invalid input: expected object, received array");
}

TEST(Schema, DefaultsFillAbsentProperties) {
  Json filled = WithDefaults(kEditSchema, Json::parse(R"({"path":"a","dryRun":true})"));
  EXPECT_EQ(filled.dump(), R"({"path":"a","dryRun":true,"sortBy":"name"})");
}

}  // namespace
}  // namespace sbx::mcp
