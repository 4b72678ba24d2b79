// What one server instance (one sandbox) holds, shared by its tools, and
// the tool handlers that use it, one function per upstream tool.
//
// A handler returns upstream's result, or throws filesystem::FsError (an
// mcp::ToolError), which the server turns into upstream's generic failure
// "Error: <message>" (its handlers' createErrorResponse and its request
// handler's catch both produce that). Arguments have been checked against
// the tool's schema and defaults filled in before a handler runs.
#pragma once

#include <memory>

#include "core/json.h"
#include "mcp/tool.h"
#include "servers/desktop_commander/config_store.h"
#include "servers/desktop_commander/desktop_commander.h"
#include "servers/desktop_commander/paths.h"
#include "servers/desktop_commander/session_table.h"

namespace sbx::servers::desktop_commander {

struct ServerState {
  explicit ServerState(const Options& o)
      : options(o), config(o), paths(o.workspace, o.home), sessions(o) {}

  // upstream's validatePath with the current allowedDirectories.
  ValidPath Validate(std::string_view path) const { return paths.Validate(path, config.Value("allowedDirectories")); }

  const Options options;
  ConfigStore config;
  PathValidator paths;
  SessionTable sessions;
};

using mcp::ToolContext;
using mcp::ToolResult;

// config_tools.cc
ToolResult GetConfig(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult SetConfigValue(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult GetUsageStats(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult GiveFeedback(ServerState& state, const Json& args, const ToolContext& ctx);

// file_tools.cc
ToolResult ReadFile(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult ReadMultipleFiles(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult WriteFile(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult CreateDirectory(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult ListDirectory(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult MoveFile(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult GetFileInfo(ServerState& state, const Json& args, const ToolContext& ctx);

// search_tools.cc
ToolResult SearchFiles(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult SearchCode(ServerState& state, const Json& args, const ToolContext& ctx);

// edit_block.cc
ToolResult EditBlock(ServerState& state, const Json& args, const ToolContext& ctx);

// process_tools.cc
ToolResult StartProcess(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult ReadProcessOutput(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult InteractWithProcess(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult ForceTerminate(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult ListSessions(ServerState& state, const Json& args, const ToolContext& ctx);

// os_process_tools.cc
ToolResult ListProcesses(ServerState& state, const Json& args, const ToolContext& ctx);
ToolResult KillProcess(ServerState& state, const Json& args, const ToolContext& ctx);

}  // namespace sbx::servers::desktop_commander
