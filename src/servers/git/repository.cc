#include "servers/git/repository.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "servers/git/failure.h"
#include "servers/git/python_text.h"
#include "servers/process/process.h"

namespace sbx::servers::git {
namespace {

// Settings that keep repository content (its config, hooks, attributes) and
// the global config from making git run programs or reach the network. See
// README.md for each one.
const std::vector<std::string> kProtectiveOptions = {
    "--no-pager",
    "-c", "core.hooksPath=/dev/null",
    "-c", "core.fsmonitor=false",
    "-c", "protocol.allow=never",
    "-c", "diff.external=",
    "-c", "log.showSignature=false",
    "-c", "commit.gpgSign=false",
    "-c", "gc.auto=0",
    "-c", "maintenance.auto=false",
    "-c", "credential.helper=",
};

std::string FormatSeconds(std::chrono::milliseconds ms) {
  std::string s = std::to_string(ms.count() / 1000);
  if (long long frac = ms.count() % 1000) {
    char buf[8];
    std::snprintf(buf, sizeof buf, ".%03lld", frac);
    s += buf;
    while (s.back() == '0') s.pop_back();
  }
  return s;
}

// Whether the git command may read or write work-tree files, and so run a
// filter driver. Plumbing that only reads the object database and refs
// (and the config listing, which the disarming itself needs) cannot.
bool ReadsWorkTree(const std::vector<std::string>& args) {
  static const std::set<std::string, std::less<>> kObjectsOnly = {
      "cat-file", "config", "diff-tree", "for-each-ref", "hash-object", "log", "ls-tree", "rev-list", "update-ref",
  };
  std::size_t i = 0;
  while (i + 1 < args.size() && args[i] == "-c") i += 2;
  if (i >= args.size()) return true;
  if (args[i] == "hash-object") return std::find(args.begin(), args.end(), "--stdin") == args.end();
  if (args[i] == "branch") return false;  // listing only (no names to create)
  return kObjectsOnly.count(args[i]) == 0;
}

std::string StripOneNewline(std::string s) {
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string Trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Dirname(const std::string& p) {
  std::size_t slash = p.rfind('/');
  if (slash == std::string::npos) return "";
  std::string head = p.substr(0, slash + 1);
  // os.path.dirname keeps a root of slashes, drops trailing ones otherwise.
  if (head.find_first_not_of('/') != std::string::npos)
    while (!head.empty() && head.back() == '/') head.pop_back();
  return head;
}

// GitPython reads core.bare with configparser's getboolean from the
// repository's own config file; an unreadable value counts as not bare.
bool ConfigSaysBare(const std::string& text) {
  std::string section;
  bool bare = false;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t nl = text.find('\n', i);
    if (nl == std::string::npos) nl = text.size();
    std::string line = Trim(std::string_view(text).substr(i, nl - i));
    i = nl + 1;
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line[0] == '[') {
      std::size_t close = line.find(']');
      section = Lower(Trim(line.substr(1, close == std::string::npos ? std::string::npos : close - 1)));
      continue;
    }
    std::size_t eq = line.find('=');
    if (section != "core" || eq == std::string::npos || Lower(Trim(line.substr(0, eq))) != "bare") continue;
    std::string v = Lower(Trim(line.substr(eq + 1)));
    if (v == "1" || v == "yes" || v == "true" || v == "on") bare = true;
    if (v == "0" || v == "no" || v == "false" || v == "off") bare = false;
  }
  return bare;
}

}  // namespace

std::string GitCommandErrorText(const std::vector<std::string>& cmdline, int status, const std::string& out,
                                const std::string& err) {
  std::string text = "Cmd('git') failed due to: exit code(" + std::to_string(status) + ")\n  cmdline: git";
  for (const auto& a : cmdline) text += " " + a;
  std::string o = py::DecodeUtf8Replace(out), e = py::DecodeUtf8Replace(err);
  if (!o.empty()) text += "\n  stdout: '" + o + "'";
  if (!e.empty()) text += "\n  stderr: '" + e + "'";
  return text;
}

Repository::Repository(const Options& options, const std::string& repo_path, std::function<bool()> cancelled)
    : options_(options), cancelled_(std::move(cancelled)) {
  workspace_ = std::make_unique<Workspace>(options_.workspace_root);
  // pathlib refuses NUL before anything else.
  if (repo_path.find('\0') != std::string::npos) Fail("embedded null byte");
  const std::string shown = py::PurePathStr(repo_path);
  const std::string epath = py::NormPath(JoinPath(workspace_->root(), repo_path));
  Location loc = workspace_->Resolve(epath);
  switch (loc.kind) {
    case Location::Kind::kOutside:
      Fail("Repository path '" + shown + "' is outside the allowed repository '" +
           py::PurePathStr(options_.workspace_root) + "'");
    case Location::Kind::kLoop:
      Fail("Invalid path: " + shown);
    case Location::Kind::kMissing:
    case Location::Kind::kError:
      Fail(epath);  // NoSuchPathError(epath)
    case Location::Kind::kFound:
      break;
  }
  if (!loc.is_dir) Fail(epath);  // InvalidGitRepositoryError(epath)
  Discover(epath);
}

void Repository::Discover(const std::string& epath) {
  const Workspace& ws = *workspace_;
  auto is_file = [&](const std::string& p) {
    Location l = ws.Resolve(p);
    return l.kind == Location::Kind::kFound && l.is_file;
  };
  auto is_dir = [&](const std::string& p) {
    Location l = ws.Resolve(p);
    return l.kind == Location::Kind::kFound && l.is_dir;
  };
  // GitPython's is_git_dir (repo/fun.py).
  auto is_git_dir = [&](const std::string& d) {
    if (!is_dir(d)) return false;
    if (is_dir(d + "/objects") && is_dir(d + "/refs")) return is_file(d + "/HEAD");
    if (is_file(d + "/gitdir") && is_file(d + "/commondir") && is_file(d + "/gitfile"))
      Fail(d);  // WorkTreeRepositoryUnsupported(d)
    return false;
  };
  // find_submodule_git_dir: a git dir, or a "gitdir: <path>" file (chains allowed).
  std::function<std::optional<std::string>(const std::string&, int)> submodule_git_dir =
      [&](const std::string& d, int depth) -> std::optional<std::string> {
    if (is_git_dir(d)) return d;
    if (depth > 10) return std::nullopt;
    auto content = ws.ReadFile(d);
    if (!content) return std::nullopt;
    std::string text = *content;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    if (text.rfind("gitdir: ", 0) != 0) return std::nullopt;
    std::string path = text.substr(8);
    if (path.empty() || path[0] != '/') path = py::NormPath(JoinPath(Dirname(d), path));
    return submodule_git_dir(path, depth + 1);
  };
  // find_worktree_git_dir: "key: value" lines of a .git file.
  auto worktree_git_dir = [&](const std::string& dotgit) -> std::optional<std::string> {
    auto content = ws.ReadFile(dotgit);
    if (!content) return std::nullopt;
    std::optional<std::string> found;
    std::size_t i = 0;
    while (i < content->size()) {
      std::size_t nl = content->find('\n', i);
      if (nl == std::string::npos) nl = content->size();
      std::string line = Trim(std::string_view(*content).substr(i, nl - i));
      i = nl + 1;
      std::size_t sep = line.find(": ");
      if (sep == std::string::npos || line.find(": ", sep + 2) != std::string::npos) return std::nullopt;
      if (!found && line.substr(0, sep) == "gitdir") found = line.substr(sep + 2);
    }
    return found;
  };

  std::string git_dir;
  std::optional<std::string> work_tree;
  if (is_file(epath + "/gitdir") && is_file(epath + "/commondir") && is_file(epath + "/HEAD")) {
    git_dir = epath;  // a linked work tree's administrative directory
    std::string gitfile = Trim(ws.ReadFile(epath + "/gitdir").value_or(""));
    if (gitfile.empty() || gitfile[0] != '/') gitfile = py::NormPath(JoinPath(git_dir, gitfile));
    work_tree = Dirname(gitfile);
  } else if (is_git_dir(epath)) {
    git_dir = epath;
    work_tree = Dirname(epath);
  } else {
    const std::string dotgit = epath + "/.git";
    auto found = submodule_git_dir(dotgit, 0);
    if (!found) found = worktree_git_dir(dotgit);
    if (!found) Fail(epath);  // InvalidGitRepositoryError(epath)
    git_dir = py::NormPath(JoinPath(epath, *found));
    work_tree = epath;
  }

  const std::string outside = "Repository path '" + epath + "' is outside the allowed repository '" +
                              py::PurePathStr(options_.workspace_root) + "'";
  Location gd = ws.Resolve(git_dir);
  if (gd.kind == Location::Kind::kOutside) Fail(outside);
  if (gd.kind != Location::Kind::kFound || !gd.is_dir) Fail(epath);
  git_dir_ = git_dir;
  git_dir_real_ = gd.real;

  if (ConfigSaysBare(ws.ReadFile(git_dir_real_ + "/config").value_or(""))) work_tree.reset();
  common_dir_ = git_dir_;
  common_dir_real_ = git_dir_real_;
  if (auto common = ws.ReadFile(git_dir_real_ + "/commondir")) {
    std::string first = Trim(common->substr(0, common->find('\n')));
    common_dir_ = JoinPath(git_dir_, first);
    Location cd = ws.Resolve(common_dir_);
    if (cd.kind == Location::Kind::kOutside) Fail(outside);
    if (cd.kind == Location::Kind::kFound) common_dir_real_ = cd.real;
  }

  if (work_tree) {
    Location wt = ws.Resolve(*work_tree);
    if (wt.kind == Location::Kind::kOutside) Fail(outside);
    if (wt.kind != Location::Kind::kFound || !wt.is_dir) Fail(epath);
    working_tree_ = *work_tree;
    working_tree_real_ = wt.real;
    cwd_fd_ = std::move(wt.fd);
  } else {
    cwd_fd_ = std::move(gd.fd);
  }
}

namespace {

// The environment of every git command but the repository's location.
std::vector<std::string> BaseEnvironment(const Options& options_) {
  std::vector<std::string> env;
  for (auto& e : process::DefaultEnvironment())
    if (e.rfind("HOME=", 0) != 0) env.push_back(e);
  env.push_back("HOME=" + options_.home);
  // GitPython runs git in the C locale so that messages are English.
  env.push_back("LANGUAGE=C");
  env.push_back("LC_ALL=C");
  env.push_back("GIT_TERMINAL_PROMPT=0");
  env.push_back("GIT_CONFIG_NOSYSTEM=1");
  env.push_back("GIT_ATTR_NOSYSTEM=1");
  env.push_back("GIT_TRACE2=0");
  env.push_back("GIT_TRACE2_EVENT=0");
  env.push_back("GIT_TRACE2_PERF=0");
  env.push_back("GIT_PAGER=cat");
  env.push_back("GIT_EDITOR=:");
  return env;
}

// Runs git with the protective options in the directory `cwd_fd`.
GitOutput RunGit(const Options& options_, int cwd_fd, const std::vector<std::string>& args,
                 std::vector<std::string> env, const std::string& input, const std::function<bool()>& cancelled) {
  process::Spec spec;
  spec.argv.push_back(options_.git_binary);
  spec.argv.insert(spec.argv.end(), kProtectiveOptions.begin(), kProtectiveOptions.end());
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = std::move(env);
  // The directory checked by the caller, by descriptor: a path swapped for
  // a link after the check cannot redirect git.
  spec.cwd = "/proc/self/fd/" + std::to_string(cwd_fd);
  process::RunOptions run;
  run.input = input;
  run.timeout = options_.timeout;
  run.max_output = options_.max_output_bytes;
  run.cancelled = cancelled;
  auto result = process::Run(spec, run);
  if (!result) Fail("git could not be started: " + result.error().message);
  const std::string what = "git " + (args.empty() ? std::string() : args[0]);
  if (result->cancelled) Fail(what + " was cancelled");
  if (result->timed_out)
    Fail(what + " did not finish within " + FormatSeconds(options_.timeout) +
         " seconds (the server's timeout_seconds setting) and was stopped");
  GitOutput out;
  out.status = result->exit.signal ? -result->exit.signal : result->exit.code;
  out.out = std::move(result->out);
  out.err = std::move(result->err);
  out.truncated = result->truncated;
  return out;
}

}  // namespace

GitOutput RunGitInDirectory(const Options& options, int dir_fd, const std::vector<std::string>& args,
                            const std::function<bool()>& cancelled) {
  return RunGit(options, dir_fd, args, BaseEnvironment(options), "", cancelled);
}

std::vector<std::string> Repository::Environment() const {
  std::vector<std::string> env = BaseEnvironment(options_);
  // The repository found above, explicitly: no discovery, no core.worktree
  // redirecting the work tree, no .git file pointing elsewhere.
  if (working_tree_) {
    env.push_back(git_dir_real_ == working_tree_real_ + "/.git" ? "GIT_DIR=.git" : "GIT_DIR=" + git_dir_real_);
    env.push_back("GIT_WORK_TREE=.");
  } else {
    env.push_back("GIT_DIR=.");
  }
  if (!extra_config_.empty()) {
    env.push_back("GIT_CONFIG_COUNT=" + std::to_string(extra_config_.size()));
    for (std::size_t i = 0; i < extra_config_.size(); ++i) {
      env.push_back("GIT_CONFIG_KEY_" + std::to_string(i) + "=" + extra_config_[i].first);
      env.push_back("GIT_CONFIG_VALUE_" + std::to_string(i) + "=" + extra_config_[i].second);
    }
  }
  return env;
}

GitOutput Repository::Run(const std::vector<std::string>& args, const std::string& input) const {
  if (!filters_disarmed_ && ReadsWorkTree(args)) DisarmFilters();
  return RunGit(options_, cwd_fd_.get(), args, Environment(), input, cancelled_);
}

std::string Repository::Call(const std::vector<std::string>& args, const std::vector<std::string>& shown,
                             const std::string& input) const {
  GitOutput r = Run(args, input);
  if (r.status != 0)
    Fail(GitCommandErrorText(shown.empty() ? args : shown, r.status, StripOneNewline(r.out), StripOneNewline(r.err)));
  std::string text = py::DecodeUtf8Replace(StripOneNewline(std::move(r.out)));
  if (r.truncated)
    text += "\n[output truncated: git printed more than " + std::to_string(options_.max_output_bytes) +
            " bytes (the server's max_output_bytes setting)]";
  return text;
}

const std::vector<ConfigEntry>& Repository::Config() const {
  if (config_) return *config_;
  config_.emplace();
  GitOutput r = Run({"config", "--show-scope", "-z", "--list"});
  if (r.status != 0) return *config_;
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < r.out.size()) {
    std::size_t z = r.out.find('\0', i);
    if (z == std::string::npos) z = r.out.size();
    tokens.push_back(r.out.substr(i, z - i));
    i = z + 1;
  }
  for (std::size_t t = 0; t + 1 < tokens.size(); t += 2) {
    ConfigEntry e;
    e.scope = tokens[t];
    std::size_t nl = tokens[t + 1].find('\n');
    e.key = tokens[t + 1].substr(0, nl);
    if (nl != std::string::npos) e.value = tokens[t + 1].substr(nl + 1);
    if (e.scope != "command") config_->push_back(std::move(e));
  }
  return *config_;
}

std::optional<std::string> Repository::ConfigValue(const std::string& key) const {
  std::optional<std::string> found;
  for (const auto& e : Config())
    if (e.key == key) found = e.value.value_or("");
  return found;
}

void Repository::DisarmFilters() const {
  filters_disarmed_ = true;
  std::set<std::string> drivers;
  for (const auto& e : Config()) {
    if (e.key.rfind("filter.", 0) != 0) continue;
    std::size_t dot = e.key.rfind('.');
    if (dot <= 7) continue;
    drivers.insert(e.key.substr(7, dot - 7));
  }
  for (const auto& d : drivers) {
    for (const char* k : {"clean", "smudge", "process"}) extra_config_.emplace_back("filter." + d + "." + k, "");
    extra_config_.emplace_back("filter." + d + ".required", "false");
  }
}

std::optional<std::string> Repository::ReadGitFile(const std::string& relative, bool common) const {
  return workspace_->ReadFile(JoinPath(common ? common_dir_real_ : git_dir_real_, relative));
}

}  // namespace sbx::servers::git
