// The arxiv MCP server: a native implementation of blazickjp/arxiv-mcp-server
// 0.2.11 (server "arxiv-mcp-server"), tool for tool: search_papers,
// download_paper, list_papers and read_paper with the reference schemas and
// upstream's result JSON, byte for byte where the data allow.
//
// The jail has no network, so arXiv is replaced by the deployment's paper
// store (paper_store.h): searches run over a local index of it, downloads
// copy a paper's PDF (converted with poppler) or its markdown from it into
// the sandbox's storage directory in the workspace (storage.h).
//
// Thread-safety: the definition is immutable; its tools may run
// concurrently (shared state — conversion statuses, the cached index — is
// guarded inside).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::arxiv {

struct Options {
  // The workspace (inside the jail: /data). Not a setting.
  std::string workspace = "/data";
  // Upstream's --storage-path, below the workspace: a relative path, or an
  // absolute one inside the workspace. Toolathlon's choice
  // (<workspace>/arxiv_local_storage) is the default.
  std::string storage_path = "arxiv_local_storage";
  // The paper store, read-only (see paper_store.h and README.md for how a
  // deployment provides it).
  std::string store_dir = "/opt/arxiv-store";
  // Bounds on what one download reads and writes.
  std::uint64_t max_pdf_bytes = 100ull << 20;
  int max_pdf_pages = 2000;
  // Largest markdown written by a download or returned by read_paper; 8 MiB
  // keeps the worst-case escaped result under the agent's 64 MiB frame.
  std::uint64_t max_markdown_bytes = 8ull << 20;
  // Most papers indexed from the store, and most .md files listed.
  std::size_t max_store_papers = 500'000;
  // Time for conversion timestamps and dateutil's "today"; null: the wall
  // clock. Tests set a fixed one.
  std::shared_ptr<const Clock> clock;
};

// Settings keys (all optional): "store_dir" (absolute path), "storage_path"
// (string, inside /data), "max_pdf_bytes", "max_pdf_pages",
// "max_markdown_bytes" (positive integers; markdown at most 8 MiB),
// "live_api" (false only: this build has no egress mode). Unknown keys and
// bad values are kInvalidArgument.
Result<Options> OptionsFromSettings(const Json& settings);

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::arxiv
