// The server definition: the 21 tools in upstream's order, our own
// descriptions, and the wrapper every call goes through (failures in
// upstream's "Error: <message>" form, then the usage counters upstream
// updates after each call).
#include <functional>

#include "servers/desktop_commander/desktop_commander.h"
#include "servers/desktop_commander/server_state.h"
#include "servers/desktop_commander/tool_schemas.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::desktop_commander {
namespace {

using Handler = ToolResult (*)(ServerState&, const Json&, const ToolContext&);

struct ToolSpec {
  const char* name;
  const char* description;
  Handler handler;
};

// Descriptions are the project's own; names and behaviour are upstream's.
const ToolSpec kTools[] = {
    {"get_config",
     "Show this server's configuration as JSON: blockedCommands, defaultShell, allowedDirectories, "
     "fileReadLineLimit, fileWriteLineLimit, telemetryEnabled, version, usage counters and system information.",
     GetConfig},
    {"set_config_value",
     "Change one configuration key (blockedCommands, defaultShell, allowedDirectories, fileReadLineLimit, "
     "fileWriteLineLimit, telemetryEnabled, …). Arrays may be given as JSON text. allowedDirectories can only "
     "narrow access inside the workspace; an empty list means the whole workspace.",
     SetConfigValue},
    {"read_file",
     "Read a text file as lines, or an image (PNG, JPEG, GIF, WebP) as an image. offset is the first line "
     "(0-based); a negative offset reads that many lines from the end. length is the most lines to read "
     "(default 1000). The text starts with a status line giving the lines read, the total and the rest. "
     "Binary files are not returned. Use absolute paths inside the allowed directories.",
     ReadFile},
    {"read_multiple_files",
     "Read several files at once: a summary line per path, then each text file's content (with a status "
     "line, at most fileReadLineLimit lines) and each image. A path that fails does not stop the others.",
     ReadMultipleFiles},
    {"write_file",
     "Write text to a file, replacing it (mode 'rewrite', the default) or adding to its end (mode 'append'). "
     "Write long files in chunks of 25-30 lines: the first with rewrite, the rest with append. Only inside "
     "the allowed directories.",
     WriteFile},
    {"create_directory", "Create a directory, with any missing parents; fine if it already exists.",
     CreateDirectory},
    {"list_directory", "List a directory's entries, each marked [DIR] or [FILE].", ListDirectory},
    {"move_file", "Move or rename a file or directory; both paths must be inside the allowed directories.",
     MoveFile},
    {"search_files",
     "Find files and directories whose name contains the pattern (case-insensitive), anywhere below the given "
     "path; one full path per line. timeoutMs bounds the search (default 30 seconds).",
     SearchFiles},
    {"search_code",
     "Search file contents with ripgrep: a regular expression (case-insensitive unless ignoreCase is false), "
     "optional glob filePattern, maxResults, includeHidden, contextLines and timeoutMs. Results are grouped "
     "by file as '  <line>: <match>'.",
     SearchCode},
    {"get_file_info",
     "Show a file's or directory's metadata: size, times, type, permissions, and for text files the line "
     "count.",
     GetFileInfo},
    {"edit_block",
     "Replace old_string with new_string in a file. old_string must occur exactly expected_replacements times "
     "(default 1); otherwise the file is left alone and the answer says how many occurrences there are, or, "
     "when there are none, shows the closest match and how it differs. Keep edits small and old_string unique.",
     EditBlock},
    {"start_process",
     "Start a shell command in the sandbox and return its first output, waiting at most timeout_ms or until it "
     "ends or shows a prompt. Returns its PID for read_process_output, interact_with_process and "
     "force_terminate; interactive programs (python3 -i, node, bash) keep running as sessions.",
     StartProcess},
    {"read_process_output",
     "Read the output a started process produced since the last read, waiting up to timeout_ms (default 5000) "
     "for some; says when it waits for input or has finished.",
     ReadProcessOutput},
    {"interact_with_process",
     "Send a line of input to a started process (a REPL, a shell, a prompt) and return its answer, waiting up "
     "to timeout_ms (default 8000) for it to finish or prompt again; wait_for_prompt false returns at once.",
     InteractWithProcess},
    {"force_terminate", "Stop a process started with start_process (interrupt, then kill after a second).",
     ForceTerminate},
    {"list_sessions",
     "List the processes started with start_process that still run: PID, whether it is blocked (waiting for "
     "input or past its timeout) and its runtime.",
     ListSessions},
    {"list_processes", "List the sandbox's processes: PID, command, CPU and memory use.", ListProcesses},
    {"kill_process", "Send SIGTERM to a process of the sandbox by PID.", KillProcess},
    {"get_usage_stats", "Summarise this server's tool usage: calls, successes, failures and the most used tools.",
     GetUsageStats},
    {"give_feedback_to_desktop_commander",
     "Give the address of Desktop Commander's feedback form (a sandbox cannot open a browser).", GiveFeedback},
};

}  // namespace

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options) {
  // The state lives as long as the definition (the tools hold it); its
  // destructor ends every process still running.
  auto state = std::make_shared<ServerState>(options);
  std::vector<mcp::Tool> tools;
  for (const auto& spec : kTools) {
    mcp::Tool t;
    t.name = spec.name;
    t.description = spec.description;
    t.input_schema = ToolSchemas().at(spec.name);
    t.handler = [state, handler = spec.handler, name = std::string(spec.name)](const Json& args,
                                                                                const ToolContext& ctx) {
      ToolResult result;
      try {
        result = handler(*state, args, ctx);
      } catch (const filesystem::FsError& e) {
        result = ToolResult::Error("Error: " + e.message());
      } catch (const std::exception& e) {
        result = ToolResult::Error(std::string("Error: ") + e.what());
      }
      state->config.TrackCall(name, result.is_error);
      return result;
    };
    tools.push_back(std::move(t));
  }
  auto server = std::make_shared<mcp::ServerDefinition>(mcp::ServerInfo{"desktop-commander", kUpstreamVersion, "", ""},
                                                        std::move(tools));
  // Upstream 0.2.7 declares empty resources, prompts and logging
  // capabilities and answers resources/list and prompts/list with empty
  // lists; every other method of those features is unknown to it (its SDK,
  // 1.8.0, registers no logging/setLevel handler of its own).
  server->SetCapabilities(Json{{"tools", Json::object()},
                               {"resources", Json::object()},
                               {"prompts", Json::object()},
                               {"logging", Json::object()}});
  server->SetFixedAnswers({{"resources/list", Json{{"resources", Json::array()}}},
                           {"prompts/list", Json{{"prompts", Json::array()}}}});
  return server;
}

}  // namespace sbx::servers::desktop_commander
