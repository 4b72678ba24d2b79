// The handlers of the four tools (search_tool.cc, paper_tools.cc) and their
// schemas (tools.cc). Every handler answers the way upstream's does: a
// single text block, never isError — upstream returns its failures as
// "Error: …" text or as {"status": "error", …} JSON, and so do these.
#pragma once

#include "core/json.h"
#include "mcp/tool.h"
#include "servers/arxiv/server_state.h"

namespace sbx::servers::arxiv {

// Upstream's settings.MAX_RESULTS: the most papers one search returns.
inline constexpr int kMaxSearchResults = 50;

mcp::ToolResult SearchPapers(ServerState& state, const Json& args, const mcp::ToolContext& ctx);
mcp::ToolResult DownloadPaper(ServerState& state, const Json& args, const mcp::ToolContext& ctx);
mcp::ToolResult ListPapers(ServerState& state, const Json& args, const mcp::ToolContext& ctx);
mcp::ToolResult ReadPaper(ServerState& state, const Json& args, const mcp::ToolContext& ctx);

// The reference input schemas, in upstream's tool order, keyed by name.
const Json& InputSchemas();

}  // namespace sbx::servers::arxiv
