// The tool schemas as FastMCP (mcp 1.11, pydantic 2.11) writes them for
// pdf-tools-mcp's signatures, and as Klavis' copy spells them by hand.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::servers::pdf_tools {

// The parameter types pdf-tools-mcp's signatures use: str, int, List[str],
// List[int].
enum class Kind { kString, kInt, kStringList, kIntList };

struct Field {
  const char* name;
  Kind kind;
  std::optional<Json> fallback;  // the default; none: required
};

// {"properties": …, "required": …, "title": "<tool>Arguments", "type": "object"}
Json FastMcpInput(const std::string& tool, const std::vector<Field>& fields);
// {"properties": {"result": …}, "required": ["result"], "title": "<tool>Output", …}
Json FastMcpOutput(const std::string& tool);

}  // namespace sbx::servers::pdf_tools
