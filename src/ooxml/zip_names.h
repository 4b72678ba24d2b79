// Internal: the raw entry names of a zip's central directory, read by hand.
// libzip turns a NUL inside a name into a space, so the one rule it hides
// from us (no NUL in a part name) is checked on the raw bytes here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx::ooxml::internal {

// The names in central-directory order, or nullopt when the directory cannot
// be walked (no end record, zip64, out of bounds): libzip then decides.
std::optional<std::vector<std::string>> RawEntryNames(std::string_view zip, std::size_t max_entries);

}  // namespace sbx::ooxml::internal
