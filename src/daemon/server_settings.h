// The deployment's MCP server settings (--server-settings FILE): read, parsed
// and checked once at startup so that a typo stops sandboxd with a message
// instead of leaving every sandbox with a silently defaulted server.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace sbx::daemon {

// Reads `path` (a JSON object, at most 1 MiB) and has the sandbox-agent at
// `agent_path` check it (`sandbox-agent --check-server-settings`): the
// servers' own option parsers live in the agent, which sandboxd does not
// link. Returns the settings, or an error naming the file and the problem.
Result<Json> LoadServerSettings(const std::string& path, const std::string& agent_path);

// The servers the sandbox-agent at `agent_path` has (`sandbox-agent
// --list-servers`), as it names them; an error names --agent-path.
Result<std::vector<std::string>> ListAgentServers(const std::string& agent_path);

}  // namespace sbx::daemon
