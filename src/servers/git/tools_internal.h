// The tool bodies, each the counterpart of one function in upstream's
// server.py (named in its comment). Arguments arrive validated against the
// input schema with defaults filled in; each returns the result text or
// throws ToolFailure with upstream's error text.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "servers/git/repository.h"

namespace sbx::servers::git::tools {

// Inspection (tools_inspect.cc).
std::string Status(Repository& repo, const Json& args);
std::string DiffUnstaged(Repository& repo, const Json& args);
std::string DiffStaged(Repository& repo, const Json& args);
std::string Diff(Repository& repo, const Json& args);
std::string Log(Repository& repo, const Json& args);
std::string Show(Repository& repo, const Json& args);
std::string Branch(Repository& repo, const Json& args);

// Changes (tools_change.cc).
std::string Commit(Repository& repo, const Json& args);
std::string Add(Repository& repo, const Json& args);
std::string Reset(Repository& repo, const Json& args);
std::string CreateBranch(Repository& repo, const Json& args);
std::string Checkout(Repository& repo, const Json& args);

// git_init (2025.7.1, init.cc): no repository is opened first.
std::string Init(const Options& options, const std::string& repo_path, const std::function<bool()>& cancelled);

// GitPython's IndexFile.add(files) as releases before 2025.12.29 call it
// (index_add.cc).
void IndexAdd(Repository& repo, const std::vector<std::string>& files);

// An argument as Python's f"{value}" prints it (int, float, str, None).
std::string PyFormat(const Json& value);
// A string argument, or nullopt for null / absent.
std::optional<std::string> OptionalString(const Json& args, const char* key);
// str(BadName("Invalid <what>: '<value>' - cannot start with '-'")) when
// `value` starts with '-' (upstream's guard against option injection).
void RefuseDash(const std::string& what, const std::string& value, bool bad_name = true);

}  // namespace sbx::servers::git::tools
