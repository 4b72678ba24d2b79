#include "servers/terminal/runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/utf8.h"
#include "servers/process/process.h"
#include "servers/terminal/python_text.h"

namespace sbx::servers::terminal {
namespace {

Json TextBlock(std::string text) { return Json{{"type", "text"}, {"text", std::move(text)}}; }

Json Failed(const std::string& why) { return Json::array({ErrorBlock("Error: Command execution failed: " + why)}); }

std::string PathOf(const std::vector<std::string>& env) {
  for (const auto& e : env)
    if (e.rfind("PATH=", 0) == 0) return e.substr(5);
  return "";
}

// What execve(2) would say about `file`, as far as stat and access can
// tell: 0 when it looks runnable.
int ExecError(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EACCES;
  if (::access(file.c_str(), X_OK) != 0) return errno;
  return 0;
}

struct Executable {
  std::string file;  // absolute; empty when none was found
  int error = 0;     // why not, as Python reports it
};

// The executable search of CPython's subprocess (done in the child after
// chdir(cwd)): a name with a '/' is used as it is, relative to cwd; any
// other is tried in each PATH directory in turn. When none runs, the first
// error other than ENOENT/ENOTDIR is reported, else the last one.
Executable FindLikePython(const std::string& name, const std::string& cwd, const std::string& path) {
  std::vector<std::string> candidates;
  if (name.find('/') != std::string::npos) {
    candidates.push_back(name);
  } else {
    std::size_t start = 0;
    for (;;) {
      std::size_t end = path.find(':', start);
      std::string dir = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
      candidates.push_back(dir.empty() ? name : dir.back() == '/' ? dir + name : dir + "/" + name);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  int first = 0, last = ENOENT;
  for (const auto& candidate : candidates) {
    std::string file = candidate[0] == '/' ? candidate : cwd + "/" + candidate;
    int error = ExecError(file);
    if (error == 0) return {file, 0};
    if (first == 0 && error != ENOENT && error != ENOTDIR) first = error;
    last = error;
  }
  return {"", first ? first : last};
}

// process::Spawn reports a failed exec as "<argv0>: <strerror>"; Python
// reports the errno itself.
std::string SpawnFailure(const Error& error, const std::string& argv0) {
  if (error.code == ErrorCode::kUnavailable) return py::OsErrorText(EAGAIN, std::nullopt);
  std::string prefix = argv0 + ": ";
  if (error.message.rfind(prefix, 0) == 0) {
    std::string reason = error.message.substr(prefix.size());
    for (int e = 1; e < 256; ++e)
      if (reason == std::strerror(e)) return py::OsErrorText(e, argv0);
  }
  return error.message;
}
}  // namespace

Json ErrorBlock(std::string text) { return Json{{"type", "text"}, {"text", std::move(text)}, {"error", true}}; }

Json RunPlan(const Options& options, const Plan& plan, const mcp::ToolContext& context) {
  // The order of Python's own failures: arguments are encoded in the parent
  // (a NUL fails there), then the child changes directory, then searches
  // for the executable.
  for (const auto& arg : plan.argv)
    if (arg.find('\0') != std::string::npos) return Failed("embedded null byte");
  struct stat st {};
  if (::stat(options.allowed_dir.c_str(), &st) != 0) return Failed(py::OsErrorText(errno, options.allowed_dir));
  if (!S_ISDIR(st.st_mode)) return Failed(py::OsErrorText(ENOTDIR, options.allowed_dir));

  process::Spec spec;
  spec.argv = plan.argv;
  spec.env = process::DefaultEnvironment();
  spec.cwd = options.allowed_dir;
  Executable found = FindLikePython(plan.argv[0], options.allowed_dir, PathOf(spec.env));
  if (found.file.empty()) return Failed(py::OsErrorText(found.error, plan.argv[0]));
  spec.executable = found.file;

  process::RunOptions run;
  run.timeout = std::chrono::seconds(options.command_timeout);
  run.max_output = kMaxOutputBytes;
  run.cancelled = [&context] { return context.cancelled(); };
  auto result = process::Run(spec, run);
  if (!result) return Failed(SpawnFailure(result.error(), plan.argv[0]));
  if (result->timed_out)
    return Json::array(
        {ErrorBlock("Error: Command timed out after " + std::to_string(options.command_timeout) + " seconds")});
  if (result->truncated) {
    // Output cut at the size bound may end inside a character: drop that
    // partial character rather than report a decoding error upstream would
    // not have seen.
    if (result->out.size() >= kMaxOutputBytes) utf8::DropIncompleteTail(result->out);
    if (result->err.size() >= kMaxOutputBytes) utf8::DropIncompleteTail(result->err);
  }
  // Text mode decodes stdout, then stderr, strictly.
  for (const std::string* stream : {&result->out, &result->err})
    if (auto bad = py::Utf8DecodeError(*stream)) return Failed(*bad);

  Json blocks = Json::array();
  if (!result->out.empty()) blocks.push_back(TextBlock(py::TranslateNewlines(result->out)));
  if (!result->err.empty()) blocks.push_back(ErrorBlock(py::TranslateNewlines(result->err)));
  int code = result->exit.signal ? -result->exit.signal : result->exit.code;
  blocks.push_back(TextBlock("\nCommand completed with return code: " + std::to_string(code)));
  return blocks;
}

}  // namespace sbx::servers::terminal
