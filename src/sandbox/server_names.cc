#include "sandbox/server_names.h"

#include <algorithm>

namespace sbx::sandbox {

const std::vector<std::string>& KnownServerNames() {
  static const std::vector<std::string> kNames = {
      "filesystem", "git",          "terminal",   "desktop-commander",
      "arxiv",      "excel",        "word",       "powerpoint",
      "code-executor", "code-runner", "pdf-tools", "google_cloud",
      "poste_email_toolathlon", "canvas", "localmemory", "playwright"};
  return kNames;
}

bool IsKnownServerName(std::string_view name) {
  const auto& names = KnownServerNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

const std::vector<std::string>& KnownBenchmarks() {
  static const std::vector<std::string> kBenchmarks = {"MCP_Atlas", "Toolathlon", "MCP_Mark"};
  return kBenchmarks;
}

}  // namespace sbx::sandbox
