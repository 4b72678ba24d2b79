// cli-mcp-server's command policy (CommandExecutor.validate_command and
// the checks execute() makes before running): the length limit, the shell
// operator rule, the allowed commands and flags, and path arguments kept
// in the allowed directory. What passes becomes a Plan: an argv run
// without a shell (path arguments replaced by their real paths, as upstream
// does) or, with shell operators, the whole line for /bin/sh -c.
//
// Deliberate differences from upstream, each where upstream lets something
// through that its own rules mean to stop:
// - the inside test is component-wise and done in the kernel (confine/realpath_by_name.h):
//   "/data2/x" is not inside "/data";
// - a bare ".." argument is a path (upstream checks "." and "../x" but
//   passes ".." untouched, so "ls .." listed the parent);
// - with shell operators on and a restricted command list, a line holding
//   a backquote, "$(", a newline or a single '&' is refused: each would run
//   a command the per-part check never saw.
//
// Thread-safety: a CommandPolicy is immutable; Check may run concurrently.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "servers/terminal/terminal.h"

namespace sbx::servers::terminal {

struct Plan {
  bool use_shell = false;
  // Without a shell: the command and its checked arguments. With one:
  // {"/bin/sh", "-c", line}, what subprocess.run(shell=True) executes.
  std::vector<std::string> argv;
};

class CommandPolicy {
 public:
  explicit CommandPolicy(const Options& options) : options_(options) {}

  // The Plan for `line`, or kInvalidArgument whose message is the text of
  // upstream's CommandSecurityError (the tool prefixes "Security
  // violation: ").
  Result<Plan> Check(const std::string& line) const;

 private:
  // _validate_single_command: the words of one command, paths resolved.
  Result<std::vector<std::string>> CheckSingle(std::string_view command) const;
  // _validate_command_with_operators (the line itself is what runs).
  Status CheckWithOperators(const std::string& line) const;
  // _normalize_path: the real path of a path argument inside the allowed
  // directory.
  Result<std::string> NormalizePath(const std::string& arg) const;

  Options options_;
};

// The shell operators upstream knows, in the order it reports them.
inline constexpr std::string_view kShellOperators[] = {"&&", "||", "|", ">", ">>", "<", "<<", ";"};

}  // namespace sbx::servers::terminal
