// References as GitPython reads them: it does not ask git but reads the
// ref files itself (loose file first, then packed-refs), checks names with
// its own rules and raises its own messages. The functions here do the same
// reads, confined to the workspace, so that upstream's error texts come out
// ("Reference at 'refs/heads/main' does not exist", …).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "servers/git/git_objects.h"
#include "servers/git/repository.h"

namespace sbx::servers::git {

// SymbolicReference._check_ref_name_valid: the ValueError text for an
// invalid name, nullopt for a valid one.
std::optional<std::string> RefNameProblem(const std::string& path);

// One step of _get_ref_info: either the sha the ref holds, the ref it points
// to ("ref: <path>"), or the ValueError text.
struct RefInfo {
  std::optional<std::string> sha, target, error;
};
RefInfo ReadRefInfo(const Repository& repo, const std::string& path);

// SymbolicReference.dereference_recursive: the sha at the end of the chain,
// or (error set) the ValueError text of the step that failed.
RefInfo DereferenceRecursive(const Repository& repo, const std::string& path);

// Object.new_from_sha for a 40-hex sha: its type from git (the all-zero sha
// is a commit without lookup, as in GitPython). Throws ToolFailure with
// GitPython's "SHA b'…' could not be resolved…" for a missing object.
ObjectHeader ObjectFromSha(const Repository& repo, const std::string& sha);

// SymbolicReference(path).commit. Throws ToolFailure with GitPython's text.
ObjectHeader RefCommit(const Repository& repo, const std::string& path);

// Where HEAD points: the ref path, or nullopt when detached (`sha` then).
struct HeadState {
  std::optional<std::string> branch;
  std::string sha;
};
HeadState ReadHead(const Repository& repo);

// repo.active_branch: the branch HEAD points to (its ref path). Throws
// ToolFailure "HEAD is a detached symbolic reference as it points to '…'".
std::string ActiveBranch(const Repository& repo);

// repo.references: every ref below refs/, sorted by path.
std::vector<std::string> ListReferences(const Repository& repo);

// Reference.name: the path without its first two components ("main" for
// refs/heads/main, "origin/main" for refs/remotes/origin/main).
std::string ReferenceName(const std::string& path);

}  // namespace sbx::servers::git
