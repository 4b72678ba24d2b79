// The older upstream versions and forks the filesystem server can also
// present (Options::variant; shared/reference/tools/variants/filesystem@*):
//   "2025.7.1" — Toolathlon's pin of @modelcontextprotocol/server-filesystem:
//                12 tools (no read_text_file/read_media_file), closed
//                draft-07 input schemas, no outputSchema or annotations,
//                plain text results, errors as "Error: <message>",
//                arguments parsed by each handler (zod3_issues.h), unknown
//                tools an "Error: Unknown tool: <name>" result;
//   "klavis"   — Klavis' copy of a 2025 upstream: every tool named
//                "filesystem_<name>", annotations without openWorldHint
//                (move_file not destructive), read_media_file answering one
//                {type: image|audio|blob, data, mimeType} block.
// The behaviour differences inside handlers (2025.7.1's search_files,
// directory_tree, move_file and head/tail) are branches in tools.cc, its path
// validation the PathPolicy rules below; this file changes what surrounds
// them: names, schemas and the shape of results.
#pragma once

#include <string>
#include <vector>

#include "mcp/server.h"
#include "servers/filesystem/resolver.h"

namespace sbx::servers::filesystem {

inline constexpr const char* kVariant2025_7_1 = "2025.7.1";
inline constexpr const char* kVariantKlavis = "klavis";

// 2025.7.1's validatePath: exact names only, a missing path taken below an
// existing parent and reported as typed, Windows drive paths taken as
// relative names (resolver.h).
PathPolicy::Rules Rules2025_7_1();

// Rewrites today's 14 tools into `variant`'s ("" leaves them as they are).
void PresentVariant(const std::string& variant, std::vector<mcp::Tool>& tools);
// What `variant`'s server answers beyond its tools: capabilities, unknown tools.
void ConfigureVariant(const std::string& variant, mcp::ServerDefinition& server);

}  // namespace sbx::servers::filesystem
