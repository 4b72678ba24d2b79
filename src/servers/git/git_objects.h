// Git objects as GitPython sees them: looked up and read with
// `git cat-file --batch(-check)` / `git ls-tree`, and commits parsed the way
// GitPython's Commit._deserialize parses them (its actor regexes, its
// header loop, its codec calls), so that repr() of an author or message is
// what upstream prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "servers/git/python_text.h"
#include "servers/git/repository.h"

namespace sbx::servers::git {

struct ObjectHeader {
  std::string sha, type;  // type: commit, tree, blob, tag
};

// `git cat-file --batch-check` on each name (any name git resolves);
// nullopt for "missing" or "ambiguous".
std::vector<std::optional<ObjectHeader>> LookupObjects(const Repository& repo, const std::vector<std::string>& names);
std::optional<ObjectHeader> LookupObject(const Repository& repo, const std::string& name);

struct RawObject {
  std::string sha, type, content;
};
// `git cat-file --batch`: the named objects with their content. Throws
// ToolFailure when one is missing.
std::vector<RawObject> ReadObjects(const Repository& repo, const std::vector<std::string>& names);

// GitPython's Actor: name and email as its regexes split them.
struct Actor {
  std::string name;
  std::optional<std::string> email;
};
// repr(Actor): <git.Actor "name <email>">
std::string ActorRepr(const Actor& actor);

struct CommitInfo {
  std::string sha, tree;
  std::vector<std::string> parents;
  Actor author, committer;
  py::DateTime authored, committed;
  std::string encoding = "UTF-8";
  std::string message;  // decoded with the commit's encoding, errors replaced
};
CommitInfo ParseCommit(const std::string& sha, const std::string& raw);
// Reads and parses commits (one process for all).
std::vector<CommitInfo> ReadCommits(const Repository& repo, const std::vector<std::string>& shas);

// The target of an annotated tag object ("object <sha>" / "type <type>").
ObjectHeader TagTarget(const std::string& raw);

struct TreeEntry {
  std::string mode, type, sha, name;
};
std::vector<TreeEntry> ListTree(const Repository& repo, const std::string& tree_sha);

// GitPython's class name of an object of `type` (for repr: <git.Commit "sha">).
std::string ObjectClassName(const std::string& type);
std::string ObjectRepr(const ObjectHeader& object);

}  // namespace sbx::servers::git
