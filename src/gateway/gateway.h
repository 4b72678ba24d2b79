// The MCP endpoints of sandboxes: /{server_name}/mcp[/]?local_sandbox_id=…&token=…
//
// This build checks the sandbox, the server and the token, then answers 503:
// the MCP servers run inside the jail's sandbox-agent, which a later issue
// adds (Streamable HTTP sessions, SSE, Origin checks).
#pragma once

#include "http/router.h"
#include "sandbox/manager.h"

namespace sbx::gateway {

void RegisterMcpRoutes(http::Router& router, sandbox::Manager& manager);

}  // namespace sbx::gateway
