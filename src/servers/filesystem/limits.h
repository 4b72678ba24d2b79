// Bounds this server adds to upstream, where a hostile input could otherwise
// exhaust memory or time. Each produces a clear error instead of a result;
// none is reached by ordinary workspaces. README.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sbx::servers::filesystem {

// Largest file read whole (read_text_file/read_file without head or tail,
// each file of read_multiple_files, read_media_file, edit_file), and the
// most head/tail will scan.
inline constexpr std::uint64_t kMaxReadBytes = 64ull << 20;
// Most bytes one read_multiple_files call returns in total.
inline constexpr std::uint64_t kMaxMultiReadBytes = 128ull << 20;
// Most entries read from one directory.
inline constexpr std::size_t kMaxDirectoryEntries = 1'000'000;
// Most entries directory_tree reports.
inline constexpr std::size_t kMaxTreeEntries = 200'000;
// Most entries search_files examines, and most matches it returns.
inline constexpr std::size_t kMaxSearchVisits = 2'000'000;
inline constexpr std::size_t kMaxSearchResults = 200'000;
// Most steps the glob patterns of one search_files or directory_tree call
// may take in total (each segment test is also capped, at 20M steps).
inline constexpr std::uint64_t kMaxGlobSteps = 200'000'000;
// Most steps edit_file's line diff may take (diagonals visited plus lines
// compared), and most line comparisons its whitespace-tolerant matching may
// make; about a second of work each. An ordinary edit of a 500,000-line
// file takes about a million.
inline constexpr std::uint64_t kMaxDiffSteps = 50'000'000;

}  // namespace sbx::servers::filesystem
