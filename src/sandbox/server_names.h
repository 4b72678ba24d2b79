// The MCP servers a sandbox can hold: the reference's LocalSandboxMCPServer
// enum, in its order (which is also the order "ALL" expands to).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbx::sandbox {

const std::vector<std::string>& KnownServerNames();
bool IsKnownServerName(std::string_view name);

// The reference's benchmark enum (BenchmarkEnum).
const std::vector<std::string>& KnownBenchmarks();

}  // namespace sbx::sandbox
