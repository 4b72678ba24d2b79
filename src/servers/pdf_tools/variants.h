// The variant the pdf-tools server can also present (Options::variant;
// shared/reference/tools/variants/pdf-tools@klavis.json):
//   "klavis" — Klavis' rewrite (mcp_servers/local/pdf-tools, 669e95d): a
//              low-level Server "pdf-tools-mcp-server" (mcp 1.23.2) with 3
//              tools — pdf_tools_read_pdf, pdf_tools_get_pdf_info,
//              pdf_tools_extract_pages — whose results are json.dumps(…,
//              indent=2) objects, failures as {"error": …}; paths are joined
//              to the workspace, arguments checked against the input schema
//              by the SDK ("Input validation error: …"), no outputSchema.
#pragma once

#include <string>

#include "mcp/server.h"

namespace sbx::servers::pdf_tools {

inline constexpr const char* kVariantKlavis = "klavis";

}  // namespace sbx::servers::pdf_tools
