// search_code's engine: upstream's searchTextInFiles (tools/search.ts):
// ripgrep with --json, and, when ripgrep fails (an invalid pattern, a
// pattern it takes for an option), upstream's own fallback walk with a
// JavaScript regular expression per line.
//
// ripgrep runs through servers/process, as a child in the sandbox, with its
// working directory set to the validated directory's descriptor (so the
// root it searches is the one validated, whatever is renamed meanwhile) and
// --sort=path, which makes the order of files deterministic (upstream's
// order is whatever ripgrep's threads finish first). The fallback walks
// through validated descriptors and uses std::regex (ECMAScript grammar),
// the closest standard engine to JavaScript's; it skips lines over 4 KiB.
//
// Thread-safety: Search may run concurrently.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "mcp/tool.h"
#include "servers/desktop_commander/paths.h"

namespace sbx::servers::desktop_commander {

struct CodeMatch {
  std::string file;   // "undefined" when ripgrep reported the path as bytes
  std::string line;   // the line number as upstream prints it
  std::string match;  // the matched text, or a context line (trimmed)
};

struct CodeSearch {
  std::string root;  // as given (upstream validates it)
  std::string pattern;
  std::optional<std::string> file_pattern;
  bool ignore_case = true;
  double max_results = 2000;
  bool include_hidden = false;
  double context_lines = 0;
};

// The matches, or nullopt where upstream's promise rejects (which its
// handler turns into "no matches"). `validate` is upstream's validatePath.
std::optional<std::vector<CodeMatch>> SearchText(const CodeSearch& search,
                                                 const std::function<ValidPath(std::string_view)>& validate,
                                                 const std::string& ripgrep,
                                                 std::chrono::steady_clock::time_point deadline,
                                                 const mcp::ToolContext& ctx);

}  // namespace sbx::servers::desktop_commander
