// The pdf-tools MCP server: a native implementation of lockon-n's
// pdf-tools-mcp 0.1.4 (FastMCP "pdf-tools", mcp 1.11), tool for tool: the 9
// tools with the reference schemas, {"result": text} structured results and
// upstream's result and error texts; and Klavis' 3-tool rewrite as the
// variant "klavis" (variants.h).
//
// Every PDF is parsed in the sandbox-pdf helper process (src/pdf): the
// server resolves and opens paths itself (kernel-confined beneath the
// workspace), hands the descriptors over and writes output files whole
// (confine's ReplaceFile), so poppler and qpdf never run in the agent.
//
// Thread-safety: the definition is immutable; search sessions are guarded
// inside it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"
#include "pdf/client.h"

namespace sbx::servers::pdf_tools {

struct Options {
  // The workspace (upstream's --workspace_path; inside the jail /data). Not
  // a setting.
  std::string workspace = "/data";
  // "" for pdf-tools-mcp 0.1.4, or "klavis".
  std::string variant;
  // Largest input PDF read, and largest PDF written.
  std::uint64_t max_file_bytes = 100ull << 20;
  // The helper's bounds per call (memory, CPU, wall clock); text it returns
  // is bounded by max_text_bytes.
  std::uint64_t helper_memory_bytes = 512ull << 20;
  int helper_cpu_seconds = 30;
  int helper_timeout_seconds = 60;
  std::uint64_t max_text_bytes = 8ull << 20;
  // Upstream's MAX_CACHE_AGE_MINUTES (30).
  int search_ttl_seconds = 30 * 60;
  // Time for session ages and "Last accessed"; null: the wall clock.
  std::shared_ptr<const Clock> clock;
};

// Settings keys (all optional; "variant" is taken by the registry):
// "max_file_bytes" (1 B … 1 GiB), "helper_memory_bytes" (64 MiB … 16 GiB),
// "helper_cpu_seconds" (1 … 600), "helper_timeout_seconds" (1 … 600),
// "max_text_bytes" (1 KiB … 8 MiB), "search_ttl_seconds" (1 … 86400).
// Unknown keys and bad values are kInvalidArgument naming the key.
Result<Options> OptionsFromSettings(const Json& settings);

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

// The helper bounds `options` asks for.
pdf::Limits HelperLimits(const Options& options);

}  // namespace sbx::servers::pdf_tools
