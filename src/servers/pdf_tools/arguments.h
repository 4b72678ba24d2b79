// FastMCP's argument handling for pdf-tools-mcp's tools (mcp 1.11 with
// pydantic 2.11.7): JSON-looking strings pre-parsed for non-string fields,
// lax coercion (an integral float or a numeric string for an int), defaults,
// and pydantic's error text for what does not validate, which FastMCP
// returns as "Error executing tool <name>: <errors>".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::servers::pdf_tools {

enum class Kind { kString, kInt, kStringList, kIntList };

struct Field {
  const char* name;
  Kind kind;
  std::optional<Json> fallback;  // the default; none: required
};

// The validated arguments (every field set), or the isError text.
struct Parsed {
  Json values = Json::object();
  std::optional<std::string> error;
};
Parsed ParseArguments(const std::string& tool, const std::vector<Field>& fields, const Json& arguments);

}  // namespace sbx::servers::pdf_tools
