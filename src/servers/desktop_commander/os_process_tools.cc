// list_processes and kill_process: upstream's tools/process.ts. Inside the
// jail the process table is the sandbox's own pid namespace.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/utf8.h"
#include "js_text/number.h"
#include "js_text/string.h"
#include "servers/desktop_commander/server_state.h"
#include "servers/filesystem/node_errors.h"
#include "servers/process/process.h"

namespace sbx::servers::desktop_commander {
namespace {

// line.split(/\s+/)
std::vector<std::string> SplitOnSpaces(std::string_view line) {
  std::u16string u = utf8::ToUtf16(js::DecodeUtf8Lossy(line));
  std::vector<std::string> parts;
  std::u16string current;
  bool in_space = false;
  for (char16_t c : u) {
    if (js::IsWhitespace(c)) {
      if (!in_space) {
        parts.push_back(utf8::FromUtf16(current));
        current.clear();
      }
      in_space = true;
    } else {
      in_space = false;
      current.push_back(c);
    }
  }
  parts.push_back(utf8::FromUtf16(current));
  return parts;
}

// parseInt(s) (base 10): leading white space, a sign, then digits.
std::string ParseIntText(const std::string& s) {
  std::string_view t = js::TrimStart(s);
  std::size_t i = 0;
  std::string sign;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) sign = t[i++] == '-' ? "-" : "";
  std::size_t start = i;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  if (i == start) return "NaN";
  return js::NumberToString(std::strtod((sign + std::string(t.substr(start, i - start))).c_str(), nullptr));
}

// Whether `pid` is this process or one of its threads: signalling it would
// take the server (the sandbox's pid 1) down with it.
bool IsSelf(long long pid) {
  if (pid == ::getpid()) return true;
  struct stat st;
  return ::stat(("/proc/self/task/" + std::to_string(pid)).c_str(), &st) == 0;
}

}  // namespace

ToolResult ListProcesses(ServerState& state, const Json&, const ToolContext& ctx) {
  process::Spec spec;
  spec.argv = {"/bin/sh", "-c", "ps aux"};  // upstream: exec('ps aux')
  spec.env = process::DefaultEnvironment();
  spec.cwd = state.options.workspace;
  process::RunOptions run;
  run.timeout = std::chrono::seconds(30);
  run.max_output = 1u << 20;  // exec's maxBuffer
  run.cancelled = [&ctx] { return ctx.cancelled(); };
  auto result = process::Run(spec, run);
  if (!result) return ToolResult::Error("Error: Failed to list processes: " + result.error().message);
  if (result->truncated) return ToolResult::Error("Error: Failed to list processes: stdout maxBuffer length exceeded");
  if (result->exit.code != 0 || result->exit.signal != 0 || result->timed_out)
    return ToolResult::Error("Error: Failed to list processes: Command failed: ps aux\n" + result->err);
  std::string text;
  std::string_view out = result->out;
  bool header = true;
  for (std::size_t i = 0; i <= out.size();) {
    std::size_t j = out.find('\n', i);
    if (j == std::string_view::npos) j = out.size();
    std::string_view line = out.substr(i, j - i);
    i = j + 1;
    if (header) {
      header = false;
      continue;
    }
    if (line.empty()) continue;
    auto parts = SplitOnSpaces(line);
    auto part = [&](std::size_t k) { return k < parts.size() ? parts[k] : std::string("undefined"); };
    if (!text.empty()) text += '\n';
    text += "PID: " + ParseIntText(part(1)) + ", Command: " + parts.back() + ", CPU: " + part(2) +
            ", Memory: " + part(3);
  }
  return ToolResult::Text(text);
}

ToolResult KillProcess(ServerState&, const Json& args, const ToolContext&) {
  double pid = args.value("pid", 0.0);
  // Node's process.kill accepts only int32 values.
  if (!(pid == std::trunc(pid) && pid >= -2147483648.0 && pid <= 2147483647.0))
    return ToolResult::Error("Error: Failed to kill process: The \"pid\" argument must be of type number. Received type "
                             "number (" + js::NumberToString(pid) + ")");
  auto id = static_cast<long long>(pid);
  // 0 and negative pids mean process groups or everything; the server
  // itself must survive: answer as a refused kill(2) would.
  if (id <= 0 || IsSelf(id)) return ToolResult::Error("Error: Failed to kill process: kill EPERM");
  if (::kill(static_cast<pid_t>(id), SIGTERM) != 0)
    return ToolResult::Error("Error: Failed to kill process: kill " +
                             std::string(filesystem::ErrnoName(errno)));
  return ToolResult::Text("Successfully terminated process " + js::NumberToString(pid));
}

}  // namespace sbx::servers::desktop_commander
