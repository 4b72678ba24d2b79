// upstream's test for binary files (the npm package isbinaryfile 5.0.7,
// which read_file consults before reading a file as text): a verdict from
// the file's first 515 bytes. Pure function, thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

namespace sbx::servers::desktop_commander {

// How many leading bytes the verdict needs (512 scanned plus 3 kept so a
// UTF-8 sequence at the boundary is not cut).
inline constexpr std::size_t kBinaryProbeBytes = 515;

// isBinaryCheck(buffer, bytesRead) on the first bytes of a file.
bool LooksBinary(std::string_view head);

}  // namespace sbx::servers::desktop_commander
