// The memory server's graph file lives in the workspace, where any tool
// process can write anything into it. Parsing must accept or refuse it
// cleanly, and what it accepts must survive a write and a re-read unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "servers/localmemory/graph_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto graph = sbx::servers::localmemory::ParseGraphFile(text, "/data/memory.jsonl");
  if (!graph) return 0;
  std::string written = sbx::servers::localmemory::SerializeGraph(*graph);
  auto again = sbx::servers::localmemory::ParseGraphFile(written, "/data/memory.jsonl");
  if (!again) std::abort();
  if (sbx::servers::localmemory::SerializeGraph(*again) != written) std::abort();
  return 0;
}
