// The directory-reading tools: list_directory, list_directory_with_sizes,
// directory_tree and search_files, producing upstream's exact text. Every
// directory is read through descriptors from a validated Target (see
// resolver.h); symbolic links met on the way are listed, never entered, and
// are only followed (for a size or a search match) after validation.
#pragma once

#include <string>
#include <vector>

#include "mcp/tool.h"
#include "servers/filesystem/resolver.h"

namespace sbx::servers::filesystem {

// upstream's formatSize: "0 B", "512 B", "1.50 KB", … "3.00 TB".
std::string FormatSize(double bytes);

std::string ListDirectory(const PathPolicy& policy, const std::string& path);
std::string ListDirectoryWithSizes(const PathPolicy& policy, const std::string& path,
                                   bool sort_by_size);
std::string DirectoryTree(const PathPolicy& policy, const std::string& path,
                          const std::vector<std::string>& excludes,
                          const mcp::ToolContext& context);
// How search_files matches: today's glob on the path relative to the start,
// or the 2025.7.1 variant's case-insensitive substring of the entry name (its
// exclude patterns without '*' then stand for "**/<pattern>/**").
enum class SearchMatch { kGlob, kNameSubstring };
std::string SearchFiles(const PathPolicy& policy, const std::string& path,
                        const std::string& pattern, const std::vector<std::string>& excludes,
                        const mcp::ToolContext& context, SearchMatch match = SearchMatch::kGlob);

}  // namespace sbx::servers::filesystem
