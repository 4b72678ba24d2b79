// GitPython's Repo.rev_parse (git/repo/fun.py, 3.1.54), which upstream uses
// to check every revision a tool receives (git_diff's target, git_checkout's
// branch, git_show's revision) before git sees it. GitPython parses the
// revision itself, so what it accepts, what it resolves a name to and what
// it says when it fails differ from `git rev-parse`; this reproduces its
// grammar (names, ~N, ^N, ^{type}, ^{/regex}, :path, :N:path, :/regex,
// @{N}, @{-N}, @{upstream}, @{date}) and its exception texts, reading the
// objects with git.
//
// Deliberate limits: regexes are ECMAScript (std::regex), not Python's re;
// @{date} takes git's internal "<epoch> <tz>" and ISO 8601 dates only.
#pragma once

#include <string>

#include "servers/git/git_objects.h"
#include "servers/git/repository.h"

namespace sbx::servers::git {

// The object `rev` names, or ToolFailure with the text of the exception
// GitPython raises (str(BadName) is "Ref '…' did not resolve to an object").
ObjectHeader RevParse(const Repository& repo, const std::string& rev);

// name_to_object(repo, name): hex shas, ref names (GitPython's six lookup
// rules, read from the ref files) and describe output.
ObjectHeader NameToObject(const Repository& repo, const std::string& name);

// str(BadName(text)).
std::string BadNameText(const std::string& text);

}  // namespace sbx::servers::git
