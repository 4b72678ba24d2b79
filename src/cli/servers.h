// Client-side checks of what `acquire` sends, so that a typo is caught before
// a request (and a sandbox) is made, with the list of names that would work.
// The server validates again; these lists mirror the OpenAPI enums
// LocalSandboxMCPServer and BenchmarkEnum.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace sbx::cli {

// clang-format off
inline constexpr std::array<std::string_view, 16> kServerNames = {
    "filesystem", "git", "terminal", "desktop-commander", "arxiv", "excel", "word", "powerpoint",
    "code-executor", "code-runner", "pdf-tools", "google_cloud", "poste_email_toolathlon",
    "canvas", "localmemory", "playwright"};
// clang-format on

inline constexpr std::array<std::string_view, 3> kBenchmarks = {"MCP_Atlas", "Toolathlon",
                                                                "MCP_Mark"};

struct ServerSelection {
  bool all = false;                // "ALL": every server the service offers
  std::vector<std::string> names;  // otherwise, in the order given, without repeats

  // The request's "server_names" value: "ALL" or the array of names.
  Json ToJson() const;
};

// Parses the --servers value: comma-separated names (spaces around names are
// ignored, as are repeats), or ALL (any case) alone. Errors
// (kInvalidArgument) name the offending entry and list the valid names; a
// near miss ("google-cloud", "Git") gets a "did you mean" hint.
Result<ServerSelection> ParseServerList(std::string_view text);

// Parses the --ttl value: "none" (auto-release disabled, sent as null) or a
// whole number of seconds. The range (60..86400) is left to the server so that
// there is one authority for it.
Result<std::optional<long long>> ParseTtl(std::string_view text);

}  // namespace sbx::cli
