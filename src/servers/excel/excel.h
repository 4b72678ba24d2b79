// The excel MCP server: a native implementation of haris-musa's
// excel-mcp-server (0.1.7, FastMCP server "excel-mcp"), tool for tool: the
// same 25 tools, schemas, result texts and error texts, over .xlsx files in
// the workspace, and the 20-tool surface of 0.1.4 (variants.h). Each call
// opens the workbook, changes it and writes it back whole (temp file +
// rename), as upstream's openpyxl load/save does, so a failed call leaves
// the file as it was.
//
// Thread-safety: the returned definition is immutable; its tools may run
// concurrently. Calls that write serialise on a mutex the definition owns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::excel {

// The largest workbook file read or written (bytes on disk). Toolathlon's
// workbooks are kilobytes to a few MiB.
inline constexpr std::uint64_t kDefaultMaxFileBytes = 32ull << 20;
inline constexpr std::uint64_t kMaxMaxFileBytes = 256ull << 20;
// The most cells one workbook may hold once loaded (all sheets), and the
// most a deployment may set: a bound on memory and on the text of a read.
inline constexpr std::uint64_t kDefaultMaxCells = 2'000'000;
inline constexpr std::uint64_t kMaxMaxCells = 20'000'000;

// The most bytes a workbook's parts may inflate to, all together (zip
// bombs stop here), and the most a deployment may set.
inline constexpr std::uint64_t kDefaultMaxUnzippedBytes = 256ull << 20;
inline constexpr std::uint64_t kMaxMaxUnzippedBytes = 1024ull << 20;

struct Options {
  // The tree every path is confined to (inside the jail: /data; in unit
  // tests a temporary directory). Trusted: never from a tool argument.
  std::string workspace = "/data";
  std::uint64_t max_file_bytes = kDefaultMaxFileBytes;
  std::uint64_t max_cells = kDefaultMaxCells;
  std::uint64_t max_unzipped_bytes = kDefaultMaxUnzippedBytes;
  // Which surface to present: "" today's upstream, else one of variants.h.
  std::string variant = {};
};

// Settings (sandboxd --server-settings, key "excel"):
//   "max_file_bytes": 1 … 256 MiB (default 32 MiB)
//   "max_cells":      1 … 20,000,000 (default 2,000,000)
//   "max_unzipped_bytes": 1 … 1 GiB (default 256 MiB)
// Unknown keys and bad values are kInvalidArgument with a clear message.
Result<Options> OptionsFromSettings(const Json& settings);

// The server. Touches no file: each call opens its workbook.
std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::excel
