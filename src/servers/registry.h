// The MCP servers a sandbox-agent can host, by the name the Local Sandbox
// API uses ("filesystem", "git", …). Built once per agent, on first use.
#pragma once

#include <memory>
#include <string_view>

#include "mcp/server.h"

namespace sbx::servers {

// The server called `name`, or null if this build has none by that name.
std::shared_ptr<const mcp::ServerDefinition> Find(std::string_view name);

}  // namespace sbx::servers
