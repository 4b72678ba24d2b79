#include "servers/terminal/command_policy.h"

#include <sys/stat.h>

#include <optional>

#include "confine/realpath_by_name.h"
#include "servers/terminal/python_text.h"
#include "servers/terminal/shlex_split.h"

namespace sbx::servers::terminal {
namespace {

Error Violation(std::string message) { return MakeError(ErrorCode::kInvalidArgument, std::move(message)); }

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// os.path.join(a, b) for two components.
std::string JoinPath(const std::string& a, const std::string& b) {
  if (StartsWith(b, "/")) return b;
  if (a.empty() || a.back() == '/') return a + b;
  return a + "/" + b;
}

// os.path.exists(path): stat(2) succeeds (false for a NUL in the path).
bool PathExists(const std::string& path) {
  if (path.find('\0') != std::string::npos) return false;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// The operator re.split(r"(&&|\|\||\||>|>>|<|<<|;)") matches at `i`, if
// any: alternatives are tried in that order, so ">>" and "<<" come out as
// two single operators.
std::string_view OperatorAt(std::string_view line, std::size_t i) {
  for (std::string_view op : {"&&", "||", "|", ">", "<", ";"})
    if (line.substr(i, op.size()) == op) return op;
  return {};
}

struct Part {
  std::string text;
  bool is_operator;
};

// The line cut at its operators, each piece stripped, empty ones dropped
// (re.split, then [p.strip() for p in parts if p.strip()]).
std::vector<Part> SplitAtOperators(std::string_view line) {
  std::vector<Part> parts;
  auto add_text = [&](std::string_view text) {
    std::string_view stripped = py::Strip(text);
    if (!stripped.empty()) parts.push_back({std::string(stripped), false});
  };
  std::size_t start = 0;
  for (std::size_t i = 0; i < line.size();) {
    std::string_view op = OperatorAt(line, i);
    if (op.empty()) {
      ++i;
      continue;
    }
    add_text(line.substr(start, i - start));
    parts.push_back({std::string(op), true});
    i += op.size();
    start = i;
  }
  add_text(line.substr(start));
  return parts;
}

// The first piece of shell syntax that runs a command of its own, which
// the per-part check cannot see: `…`, $(…), a newline, a single '&'.
std::optional<std::string> UncheckedCommandSyntax(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '`') return "'`'";
    if (c == '$' && i + 1 < line.size() && line[i + 1] == '(') return "'$('";
    if (c == '\n') return "'\\n'";
    if (c == '&') {
      if (i + 1 < line.size() && line[i + 1] == '&') {
        ++i;  // "&&", matched left to right as the operator split does
        continue;
      }
      return "'&'";
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Plan> CommandPolicy::Check(const std::string& line) const {
  if (static_cast<long long>(py::Length(line)) > options_.max_command_length)
    return Violation("Command exceeds maximum length of " + std::to_string(options_.max_command_length));
  bool has_operator = false;
  for (std::string_view op : kShellOperators) {
    if (line.find(op) == std::string::npos) continue;
    has_operator = true;
    if (!options_.allow_shell_operators)
      return Violation("Shell operator '" + std::string(op) +
                       "' is not supported. Set ALLOW_SHELL_OPERATORS=true to enable.");
  }
  if (!has_operator) {
    auto words = CheckSingle(line);
    if (!words) return words.error();
    return Plan{false, std::move(*words)};
  }
  if (auto s = CheckWithOperators(line); !s) return s.error();
  if (!options_.allow_all_commands) {
    if (auto syntax = UncheckedCommandSyntax(line))
      return Violation("Shell syntax " + *syntax +
                       " is not supported with a restricted command list: it would run commands that are not "
                       "checked");
  }
  return Plan{true, {"/bin/sh", "-c", line}};
}

Status CommandPolicy::CheckWithOperators(const std::string& line) const {
  std::vector<Part> parts = SplitAtOperators(line);
  // Upstream's grouping: a piece followed by an operator is a command (even
  // when it is an operator itself, as in "a ; | b"); a last piece is one
  // unless it is an operator.
  std::vector<std::string> commands;
  for (std::size_t i = 0; i < parts.size();) {
    if (i + 1 < parts.size() && parts[i + 1].is_operator) {
      commands.push_back(parts[i].text);
      i += 2;
    } else {
      if (!parts[i].is_operator) commands.push_back(parts[i].text);
      i += 1;
    }
  }
  for (const auto& command : commands) {
    if (auto words = CheckSingle(command); !words)
      return Violation("Invalid command part '" + command + "': " + words.error().message);
  }
  return Ok();
}

Result<std::vector<std::string>> CommandPolicy::CheckSingle(std::string_view command) const {
  auto words = ShlexSplit(command);
  if (!words) return Violation("Invalid command format: " + words.error().message);
  if (words->empty()) return Violation("Empty command");
  const std::string& name = (*words)[0];
  if (!options_.allow_all_commands && !options_.allowed_commands.count(name))
    return Violation("Command '" + name + "' is not allowed");
  std::vector<std::string> argv{name};
  for (std::size_t i = 1; i < words->size(); ++i) {
    const std::string& arg = (*words)[i];
    bool explicit_path = ((StartsWith(arg, "./") || StartsWith(arg, "../") || StartsWith(arg, "/")) &&
                          !StartsWith(arg, "//")) ||
                         arg == "." || arg == "..";
    if (StartsWith(arg, "-")) {
      if (!options_.allow_all_flags && !options_.allowed_flags.count(arg))
        return Violation("Flag '" + arg + "' is not allowed");
      argv.push_back(arg);
      continue;
    }
    bool path_like = explicit_path || (arg.find('/') != std::string::npos &&
                                       PathExists(JoinPath(options_.allowed_dir, arg)));
    if (!path_like || StartsWith(arg, "http://") || StartsWith(arg, "https://")) {
      argv.push_back(arg);
      continue;
    }
    auto real = NormalizePath(arg);
    if (!real) return real.error();
    argv.push_back(std::move(*real));
  }
  return argv;
}

Result<std::string> CommandPolicy::NormalizePath(const std::string& arg) const {
  // RealpathByName fails only on a NUL byte, where CPython's lstat raises
  // this ValueError.
  auto real = confine::RealpathByName(JoinPath(options_.allowed_dir, arg));
  if (!real) return Violation("Invalid path '" + arg + "': lstat: embedded null character in path");
  auto root = confine::RealpathByName(options_.allowed_dir);
  if (!root || !confine::ResolvedBeneath(*real, *root))
    return Violation("Path '" + arg + "' is outside of allowed directory: " + options_.allowed_dir);
  return *real;
}

}  // namespace sbx::servers::terminal
