// The filesystem MCP server: a native implementation of
// @modelcontextprotocol/server-filesystem (2026.8.31, server "secure-
// filesystem-server" 0.2.0), tool for tool: the same 14 tools, schemas,
// result texts and error messages, confined to the allowed directories by
// descriptor-based resolution in the kernel (see resolver.h).
//
// Thread-safety: the returned definition is immutable; its tools may run
// concurrently (each call resolves its own paths; the file system is the
// only shared state, as for upstream).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mcp/server.h"

namespace sbx::servers::filesystem {

struct Options {
  // The directories the tools may reach (inside the jail: {"/data"}),
  // treated as upstream treats its command-line arguments.
  std::vector<std::string> allowed_directories;
  // Which surface to present: "" today's upstream, else one of variants.h.
  std::string variant = {};
};

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::filesystem
