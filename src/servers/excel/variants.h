// The older upstream version the excel server can also present
// (Options::variant; shared/reference/tools/variants/excel@0.1.4.json):
//   "0.1.4" — excel-mcp-server 0.1.4 on MCP Python SDK 1.9.1: 20 tools (no
//             get_merged_cells, insert_rows, insert_columns,
//             delete_sheet_rows, delete_sheet_columns); optional parameters
//             written `x: str = None`, so their schemas are the plain type
//             with a null default instead of anyOf [type, null]; no
//             outputSchema (before SDK 1.10), so results carry no
//             structuredContent.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::servers::excel {

inline constexpr const char* kVariant0_1_4 = "0.1.4";

// Whether `tool` is part of `variant`'s surface ("" = today's: all).
bool InVariant(const std::string& variant, const std::string& tool);
// `input` (today's schema) as `variant` writes it.
Json VariantInputSchema(const std::string& variant, const Json& input);
// Whether `variant`'s tools declare an outputSchema (and so send
// structuredContent).
bool VariantHasOutputSchema(const std::string& variant);

}  // namespace sbx::servers::excel
