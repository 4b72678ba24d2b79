// GitPython's Diff._index_from_patch_format (git/diff.py): how it cuts the
// output of `git diff-tree -p` into one Diff per file with its header regex
// (re_header) and picks a_path / b_path. git_show prints each Diff as
// "\n--- <a_path>\n+++ <b_path>\n" followed by the bytes between one header
// match and the next, so the cut has to be exactly GitPython's.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sbx::servers::git {

struct PatchDiff {
  std::optional<std::string> a_path, b_path;  // decoded (UTF-8, errors replaced); nullopt = None
  std::string diff;                           // raw bytes after the header
};

std::vector<PatchDiff> ParsePatchIndex(const std::string& text);

}  // namespace sbx::servers::git
