// One repository as a tool call sees it: `repo_path` confined to the
// workspace and opened the way GitPython's Repo(path) opens it (the same
// layouts accepted, the same errors), and git commands run on it through
// servers/process with the protective settings described in README.md.
//
// Thread-safety: a Repository belongs to one tool call (one thread).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/unique_fd.h"
#include "servers/git/git.h"
#include "servers/git/workspace.h"

namespace sbx::servers::git {

// What a finished git command left.
struct GitOutput {
  int status = 0;    // exit code, or -signal
  std::string out;   // stdout, complete (bounded by max_output_bytes)
  std::string err;   // stderr
  bool truncated = false;
};

// One entry of `git config --list` (scope "local", "global", "command", …).
struct ConfigEntry {
  std::string scope, key;
  std::optional<std::string> value;  // nullopt for a key without "="
};

class Repository {
 public:
  // Confines and opens `repo_path`. Throws ToolFailure with upstream's text:
  // "Repository path '…' is outside the allowed repository '…'",
  // "Invalid path: …", NoSuchPathError / InvalidGitRepositoryError (the path).
  Repository(const Options& options, const std::string& repo_path, std::function<bool()> cancelled);

  const Options& options() const { return options_; }
  const Workspace& workspace() const { return *workspace_; }
  // GitPython's git_dir and working_tree_dir (real paths); no work tree for
  // a bare repository.
  const std::string& git_dir() const { return git_dir_; }
  const std::optional<std::string>& working_tree() const { return working_tree_; }
  // The directory holding the shared refs (differs from git_dir in a linked
  // work tree).
  const std::string& common_dir() const { return common_dir_; }

  // Runs `git <protective options> <args>` (every filter driver disarmed);
  // `input` goes to stdin.
  // Throws ToolFailure on a timeout, a cancelled call or a failed start.
  GitOutput Run(const std::vector<std::string>& args, const std::string& input = "") const;

  // Runs a command whose failure upstream reports as GitPython's
  // GitCommandError: on a non-zero exit throws ToolFailure with
  // "Cmd('git') failed due to: exit code(N)\n  cmdline: git <shown>…".
  // Returns stdout without its last newline (GitPython strips one).
  // `shown` is the argument list upstream passes (empty: `args`).
  std::string Call(const std::vector<std::string>& args, const std::vector<std::string>& shown = {},
                   const std::string& input = "") const;

  // The merged configuration (system config excluded), read once.
  const std::vector<ConfigEntry>& Config() const;
  // The last value of `key` (lower-case section and name), if set.
  std::optional<std::string> ConfigValue(const std::string& key) const;


  // A file inside the git dir (e.g. "HEAD", "logs/refs/heads/main"), read
  // without leaving the workspace; nullopt when absent.
  std::optional<std::string> ReadGitFile(const std::string& relative, bool common = false) const;

 private:
  void Discover(const std::string& epath);
  std::vector<std::string> Environment() const;

  Options options_;
  std::function<bool()> cancelled_;
  std::unique_ptr<Workspace> workspace_;
  // GitPython's spellings (shown in messages) and the real paths (used).
  std::string git_dir_, common_dir_, git_dir_real_, common_dir_real_, working_tree_real_;
  std::optional<std::string> working_tree_;
  UniqueFd cwd_fd_;  // the work tree, or the git dir when bare
  // Before the first command other than the config listing itself: every
  // configured filter driver (clean/smudge/process) is overridden, so that
  // repository content cannot run programs through .gitattributes.
  void DisarmFilters() const;

  mutable std::vector<std::pair<std::string, std::string>> extra_config_;  // via GIT_CONFIG_KEY_n
  mutable bool filters_disarmed_ = false;
  mutable std::optional<std::vector<ConfigEntry>> config_;
};

// Runs `git <protective options> <args>` in the directory `dir_fd` (checked
// by the caller) with no repository named: for git init, which makes one
// there. Throws ToolFailure as Repository::Run does.
GitOutput RunGitInDirectory(const Options& options, int dir_fd, const std::vector<std::string>& args,
                            const std::function<bool()>& cancelled);

// GitCommandError's text for a failed command (exposed for tests).
std::string GitCommandErrorText(const std::vector<std::string>& cmdline, int status, const std::string& out,
                                const std::string& err);

}  // namespace sbx::servers::git
