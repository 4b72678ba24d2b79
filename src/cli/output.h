// Plain-text rendering of API responses for people: aligned tables and
// "label  value" blocks. Kept free of I/O so it can be tested as strings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"

namespace sbx::cli {

// Columns separated by two spaces and padded to the widest cell (in UTF-8
// code points); the last column is not padded, so lines carry no trailing
// spaces.
std::string FormatColumns(const std::vector<std::vector<std::string>>& rows);

// FormatColumns with a header row first.
std::string FormatTable(const std::vector<std::string>& headers,
                        const std::vector<std::vector<std::string>>& rows);

// A member of `object` as display text: strings as is, null or missing as
// "-", booleans as "yes"/"no", anything else as compact JSON.
std::string Text(const Json& object, std::string_view key);

// A LocalSandboxInfo or AcquireLocalSandboxResponse as a block:
//   sandbox    <id>
//   status     occupied
//   ...
//   servers
//     filesystem  <mcp url>       (name and URL columns aligned)
std::string FormatSandbox(const Json& sandbox);

}  // namespace sbx::cli
