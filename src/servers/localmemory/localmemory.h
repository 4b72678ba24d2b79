// The localmemory MCP server: a native implementation of
// @modelcontextprotocol/server-memory (2026.8.31, server "memory-server"
// 0.6.3), tool for tool: the same 9 tools, schemas, result texts, structured
// results and errors, over a knowledge graph kept in a JSON Lines file inside
// the workspace. The file is read on every call and rewritten (temp file +
// rename) after every mutation, as upstream does, so whatever the workspace
// holds — seeded by initialize, edited by other tools, discarded by reset —
// is what the tools see, and dump carries it.
//
// Thread-safety: the returned definition is immutable; its tools may run
// concurrently. Mutations are serialised by a mutex the definition owns
// (upstream interleaves them and can lose updates); reads need no lock
// because the file is only ever replaced whole.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::localmemory {

// MCP-Atlas runs upstream with MEMORY_FILE_PATH set to this file inside its
// /data tree, and its seed data ships one there; see README.md.
inline constexpr const char* kDefaultMemoryFile = "repos/memory_mcp_server/memories-for-mcp.json";
// The bound on the memory file, and the most a deployment may set. A whole
// graph comes back pretty-printed plus as structuredContent, then escaped
// once more into the agent's frame: up to about 6 bytes per byte of file
// for graphs of many tiny observations, so 8 MiB of file stays well inside
// the 64 MiB frame (agent/protocol.h).
inline constexpr std::uint64_t kDefaultMaxFileBytes = 8ull << 20;
inline constexpr std::uint64_t kMaxMaxFileBytes = 8ull << 20;

struct Options {
  // The tree the memory file is confined to (inside the jail: /data; in unit
  // tests a temporary directory). Trusted: never from a tool argument.
  std::string workspace = "/data";
  // The memory file, relative to `workspace`: plain names joined by '/',
  // no ".", ".." or empty components (OptionsFromSettings guarantees it).
  std::string memory_file = kDefaultMemoryFile;
  // Largest memory file read or written; a bigger one is a tool error and a
  // mutation that would grow the file past it changes nothing.
  std::uint64_t max_file_bytes = kDefaultMaxFileBytes;
  // Which surface to present: "" today's upstream, else one of variants.h.
  std::string variant = {};
};

// Settings (sandboxd --server-settings, key "localmemory"):
//   "memory_file_path": "/data/…" or a path relative to /data
//   "max_file_bytes":   1 … 8 MiB (the default)
// Unknown keys and bad values are kInvalidArgument with a clear message.
Result<Options> OptionsFromSettings(const Json& settings);

// The server. Touches no file: the memory file is opened by each call.
std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::localmemory
