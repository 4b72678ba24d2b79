// Pieces of the rev_parse emulation shared by rev_parse.cc (the grammar)
// and rev_parse_search.cc (reflog selectors and message searches).
#pragma once

#include <optional>
#include <string>

#include "servers/git/git_objects.h"
#include "servers/git/repository.h"

namespace sbx::servers::git::revparse {

// to_commit: tags dereferenced; anything but a commit is a ValueError.
ObjectHeader ToCommit(const Repository& repo, ObjectHeader obj);

// _apply_reflog(repo, ref, content): `ref` is the ref path the selector
// follows directly ("main@{1}"), or nullopt for "@{…}" alone.
ObjectHeader ApplyReflog(const Repository& repo, const std::optional<std::string>& ref, std::string content);

// _find_commit_by_message: the first commit (newest committer date first)
// whose message matches; `start` nullopt searches from every ref and HEAD.
ObjectHeader FindCommitByMessage(const Repository& repo, const std::optional<ObjectHeader>& start,
                                 std::string pattern, bool braced);

// _current_reflog_ref: the branch HEAD points to, or "HEAD" when detached.
std::string CurrentReflogRef(const Repository& repo);

}  // namespace sbx::servers::git::revparse
