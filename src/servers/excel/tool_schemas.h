// The input schemas of upstream's 25 tools as FastMCP (MCP Python SDK
// 1.10.1, pydantic 2) derives them from the Python signatures, in upstream's
// order, plus the {result: string} outputSchema the SDK derives from `-> str`.
// Equal to shared/reference/tools/excel.json key for key, order included
// (tool_schemas_test.cc compares them byte for byte).
#pragma once

#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::servers::excel {

struct ToolSchema {
  std::string name;
  Json input;
  Json output;
};

// 0.1.7's tools, in server.py's order.
const std::vector<ToolSchema>& ToolSchemas();

// The {result: string} output schema FastMCP writes for a tool named `name`.
Json ResultOutputSchema(const std::string& name);

}  // namespace sbx::servers::excel
