#include "servers/code_runner/run_code.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "core/fs.h"
#include "core/unique_fd.h"
#include "js_text/string.h"
#include "servers/filesystem/node_errors.h"
#include "servers/process/process.h"

namespace sbx::servers::code_runner {
namespace {

using js::DecodeUtf8Lossy;
using filesystem::NodeErrorMessage;

// Node's exec runs every command with this shell (spawn's shell: true on
// Unix); its error texts ("/bin/sh: 1: php: not found") come from it.
constexpr const char* kShell = "/bin/sh";

std::string PathOf(const std::vector<std::string>& env) {
  for (const auto& entry : env)
    if (entry.rfind("PATH=", 0) == 0) return entry.substr(5);
  return "";
}

// The call's own directory, removed with whatever the code left in it.
class CallDirectory {
 public:
  explicit CallDirectory(std::string temp_dir) {
    while (temp_dir.size() > 1 && temp_dir.back() == '/') temp_dir.pop_back();
    std::string pattern = (temp_dir == "/" ? "" : temp_dir) + "/code-runner-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) throw mcp::ToolError(NodeErrorMessage(errno, "mkdtemp", pattern));
    path_ = pattern;
  }
  ~CallDirectory() { (void)fs::RemoveTree(path_); }
  CallDirectory(const CallDirectory&) = delete;
  CallDirectory& operator=(const CallDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void WriteCodeFile(const std::string& path, const std::string& code) {
  // O_EXCL | O_NOFOLLOW: the directory is new and ours; nothing may be there.
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!fd.valid()) throw mcp::ToolError(NodeErrorMessage(errno, "open", path));
  std::size_t done = 0;
  while (done < code.size()) {
    ssize_t n = ::write(fd.get(), code.data() + done, code.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw mcp::ToolError(NodeErrorMessage(errno, "write"));
    done += static_cast<std::size_t>(n);
  }
}

// Node's text for a spawn that failed: "spawn /bin/sh EAGAIN".
std::string SpawnFailure(const Error& error) {
  std::string what = std::string("spawn ") + kShell + " ";
  if (error.code == ErrorCode::kNotFound) return what + "ENOENT";
  if (error.code == ErrorCode::kUnavailable) return what + "EAGAIN";
  return what + error.message;
}

}  // namespace

std::string CommandFor(const Options& options, const Language& language, const std::string& path) {
  if (auto it = options.commands.find(language.id); it != options.commands.end()) return it->second;
  std::string command(language.command);
  if (language.fallback.empty() || process::FindExecutable(ProgramOf(command), path)) return command;
  if (process::FindExecutable(ProgramOf(language.fallback), path)) return std::string(language.fallback);
  return command;  // neither: the shell reports upstream's program missing
}

mcp::ToolResult RunCode(const Options& options, const Language& language, const std::string& code,
                        const mcp::ToolContext& context) {
  // Upstream tests the string's truthiness.
  if (code.empty()) throw mcp::ToolError("Code is required.");

  std::vector<std::string> env = process::DefaultEnvironment();
  CallDirectory directory(options.temp_dir);
  const std::string file = directory.path() + "/tmp." + std::string(language.extension);
  WriteCodeFile(file, code);
  const std::string command = CommandFor(options, language, PathOf(env)) + " \"" + file + "\"";

  process::Spec spec;
  spec.argv = {kShell, "-c", command};
  spec.env = std::move(env);
  spec.cwd = options.working_directory;
  process::RunOptions run;
  run.timeout = options.timeout;
  run.max_output = options.max_output_bytes;
  run.kill_on_overflow = true;
  run.cancelled = [&context] { return context.cancelled(); };
  auto result = process::Run(spec, run);

  // Upstream's texts: its handler prefixes exec's error message with
  // "Error: " and a clean exit's stderr with "Stderr: ".
  if (!result) return mcp::ToolResult::Error("Error: " + SpawnFailure(result.error()));
  const std::string err = js::DecodeUtf8Lossy(result->err);
  if (result->cancelled) return mcp::ToolResult::Error("Error: Command cancelled: " + command + "\n" + err);
  if (result->timed_out)
    return mcp::ToolResult::Error("Error: Command timed out after " + std::to_string(options.timeout.count()) +
                                  " ms: " + command + "\n" + err);
  if (result->overflowed)
    return mcp::ToolResult::Error("Error: " + std::string(result->overflowed) + " maxBuffer length exceeded");
  if (result->exit.code != 0 || result->exit.signal != 0)
    return mcp::ToolResult::Error("Error: Command failed: " + command + "\n" + err);
  if (!err.empty()) return mcp::ToolResult::Error("Stderr: " + err);
  return mcp::ToolResult::Text(js::DecodeUtf8Lossy(result->out));
}

}  // namespace sbx::servers::code_runner
