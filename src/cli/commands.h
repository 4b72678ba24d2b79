// The sandboxctl subcommands, grouped by concern:
//   commands_keys.cc      key create | list | revoke     (admin API keys)
//   commands_sandbox.cc   acquire, list, get, release, reset, initialize
//   commands_transfer.cc  upload, dump                    (archives, progress)
// main.cc parses the global options, lets each group add its subcommands, and
// runs the one action the command line selected.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "cli/api_client.h"
#include "core/json.h"
#include "core/result.h"

namespace CLI {
class App;
}  // namespace CLI

namespace sbx::cli {

// Process exit statuses (the usage one is sysexits' EX_USAGE, which CLI11
// errors are mapped to in main).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUnreachable = 2;
inline constexpr int kExitUsage = 64;

// What every command needs once the global options are resolved.
struct Context {
  ApiClient api;
  bool json = false;         // --json: print the raw response JSON
  bool interactive = false;  // stderr is a terminal (progress bars redrawn)
};

// The selected subcommand's work. It returns the exit status.
using Action = std::function<int(const Context&)>;

// Each adds its subcommands to `app`. When one is selected on the command
// line, its CLI11 callback stores the work to do in `selected` (main runs it
// after parsing, outside CLI11, so command failures are not parse errors).
void RegisterKeyCommands(CLI::App& app, Action& selected);
void RegisterSandboxCommands(CLI::App& app, Action& selected);
void RegisterTransferCommands(CLI::App& app, Action& selected);

// Prints "error: <message>" on stderr and returns the exit status for it.
int Fail(const Error& error);

// Prints a response for --json: indented, keys in the server's order.
void PrintJson(const Json& value);

// Prints a {"sandbox_id","status","message"} answer (reset, initialize):
// raw with --json, else as aligned "label  value" lines.
void PrintStatusAnswer(const Context& ctx, const Json& answer);

// "/local-sandbox/<id><suffix>" with the id percent-encoded.
std::string SandboxPath(std::string_view id, std::string_view suffix = "");

}  // namespace sbx::cli
