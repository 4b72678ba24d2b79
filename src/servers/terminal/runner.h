// Runs a checked command the way cli-mcp-server's subprocess.run call does
// (text=True, capture_output=True, timeout=COMMAND_TIMEOUT,
// cwd=ALLOWED_DIR) and turns the outcome into upstream's content blocks:
//   stdout (when not empty), stderr (when not empty, marked "error": true),
//   "\nCommand completed with return code: N" (negative N: killed by -N);
// or one error block: "Error: Command timed out after N seconds",
// "Error: Command execution failed: [Errno 2] No such file or directory:
// 'x'" (Python's OSError text), or the UnicodeDecodeError text for output
// that is not UTF-8.
//
// Children go through servers/process (the agent is pid 1 and reaps by
// pid): each leads its own process group, and both a timeout and the end of
// the command kill that whole group (upstream kills only the child on a
// timeout and waits for grandchildren holding its pipes). stdin is
// /dev/null (upstream's children inherit the server's stdin, the MCP stdio
// stream itself).
//
// Thread-safety: Run may be called concurrently.
#pragma once

#include "core/json.h"
#include "mcp/tool.h"
#include "servers/terminal/command_policy.h"
#include "servers/terminal/terminal.h"

namespace sbx::servers::terminal {

// Output kept per stream; the rest is read and dropped (upstream keeps all).
inline constexpr std::size_t kMaxOutputBytes = 8u << 20;

// A text block with upstream's non-standard "error": true marker.
Json ErrorBlock(std::string text);

// The content blocks of running `plan`.
Json RunPlan(const Options& options, const Plan& plan, const mcp::ToolContext& context);

}  // namespace sbx::servers::terminal
