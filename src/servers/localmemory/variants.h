// The older upstream versions the localmemory server can also present
// (Options::variant; shared/reference/tools/variants/localmemory@*):
//   "2025.8.4" — MCP-Atlas' pin of @modelcontextprotocol/server-memory
//                (2025.4.25, Toolathlon's pin, behaves the same), written on
//                the SDK's low-level Server: input schemas without "$schema",
//                no outputSchema, annotations or titles, no resource, plain
//                text results; a failing call is a JSON-RPC error (-32603),
//                not an isError result; search_nodes/open_nodes return only
//                the relations with both ends among the entities found; and
//                the graph it prints holds entities and relations as read
//                from the file, their "type" key included.
#pragma once

#include <string>
#include <vector>

#include "mcp/server.h"
#include "mcp/tool.h"

namespace sbx::servers::localmemory {

inline constexpr const char* kVariant2025_8_4 = "2025.8.4";

// Rewrites today's 9 tools into `variant`'s ("" leaves them as they are).
void PresentVariant(const std::string& variant, std::vector<mcp::Tool>& tools);
// What `variant`'s server answers beyond its tools: capabilities, protocol
// versions (2024-11-05 to anything newer), unknown tools.
void ConfigureVariant(const std::string& variant, mcp::ServerDefinition& server);

}  // namespace sbx::servers::localmemory
