// Internal to archive/: the lexical rules for names found in untrusted
// archives. These decide what may be extracted; extract.cc then creates what
// passed without following any link (the rules alone are not the defence
// against link tricks, openat2 is).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace sbx::archive::internal {

// A name relative to the extraction root, as its components. No component is
// empty, ".", or "..". No components at all means the root itself.
struct EntryPath {
  std::vector<std::string> parts;

  bool IsRoot() const { return parts.empty(); }
  std::string Joined() const;               // "a/b/c"; "" for the root
  std::string Prefix(std::size_t n) const;  // the first `n` components joined
};

// `name` double-quoted for an error message: quotes, backslashes, control
// bytes and bytes that are not valid UTF-8 are escaped (messages end up in
// JSON bodies, which must be UTF-8), and long names are cut short.
std::string Quote(std::string_view name);

// Normalises a member or hard-link-target name: components "" and "." are
// dropped (so leading "./", doubled and trailing slashes go away). Refuses an
// empty name, an absolute name and any ".." component (kInvalidArgument), and
// a name longer than `max_name_bytes` or with more than `max_depth`
// components (kTooLarge). `subject` starts every message, e.g.
// `archive entry "../x"`.
Result<EntryPath> NormalizeEntryName(std::string_view raw, std::size_t max_name_bytes,
                                     int max_depth, const std::string& subject);

enum class LinkTarget {
  kInside,  // stays within the tree when resolved lexically
  kEmpty,
  kAbsolute,
  kEscapes,  // a ".." climbs above the tree's root
};

// Classifies the target of a symlink stored at `link` (resolved relative to
// the directory holding the link, "." and ".." applied lexically).
LinkTarget ClassifySymlinkTarget(const EntryPath& link, std::string_view target);

}  // namespace sbx::archive::internal
