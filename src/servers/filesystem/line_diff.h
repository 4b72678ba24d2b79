// Unified diffs exactly as the `diff` npm package (8.x) writes them with
// createTwoFilesPatch(name, name, old, new, oldHeader, newHeader): the same
// Myers line diff (jsdiff's variant, so ties resolve the same way), 4 lines
// of context, "Index:" and "====" headers, "\ No newline at end of file".
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "servers/filesystem/limits.h"

namespace sbx::servers::filesystem {

// Throws FsError when the diff needs more than `max_steps` steps (diagonals
// visited plus lines compared).
std::string CreateTwoFilesPatch(const std::string& old_name, const std::string& new_name,
                                const std::string& old_text, const std::string& new_text,
                                const std::string& old_header, const std::string& new_header,
                                std::uint64_t max_steps = kMaxDiffSteps);

}  // namespace sbx::servers::filesystem
