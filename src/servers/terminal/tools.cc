// The two tools and their texts. Schemas are upstream's (tools/list as
// captured in shared/reference/tools/terminal.json); descriptions are our
// own words, generated from the policy as upstream generates its own.
#include <string>

#include "servers/terminal/command_policy.h"
#include "servers/terminal/runner.h"
#include "servers/terminal/terminal.h"

namespace sbx::servers::terminal {
namespace {

std::string JoinSorted(const std::set<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string RunCommandDescription(const Options& o) {
  return "Runs one command line with " + o.allowed_dir +
         " as its working directory and returns its output and exit status.\n\n"
         "Commands accepted: " +
         (o.allow_all_commands ? std::string("any") : JoinSorted(o.allowed_commands)) +
         "\nFlags accepted: " + (o.allow_all_flags ? std::string("any") : JoinSorted(o.allowed_flags)) +
         "\nArguments that name paths must stay inside " + o.allowed_dir + ".\n\n" +
         "Shell operators (&&, ||, |, >, >>, <, <<, ;): " +
         (o.allow_shell_operators ? "accepted; a line that uses them runs under /bin/sh."
                                  : "refused in this deployment (setting allow_shell_operators).");
}

// Upstream's security report, character for character (sorted lists).
std::string SecurityRules(const Options& o) {
  std::string commands = o.allow_all_commands ? "All commands allowed" : JoinSorted(o.allowed_commands);
  std::string flags = o.allow_all_flags ? "All flags allowed" : JoinSorted(o.allowed_flags);
  return "Security Configuration:\n"
         "==================\n"
         "Working Directory: " +
         o.allowed_dir +
         "\n"
         "\nAllowed Commands:\n"
         "----------------\n" +
         commands +
         "\n"
         "\nAllowed Flags:\n"
         "-------------\n" +
         flags +
         "\n"
         "\nSecurity Limits:\n"
         "---------------\n"
         "Max Command Length: " +
         std::to_string(o.max_command_length) +
         " characters\n"
         "Command Timeout: " +
         std::to_string(o.command_timeout) + " seconds\n";
}

mcp::ToolResult Blocks(Json content) {
  // Upstream reports every failure inside the content (blocks marked
  // "error": true) and never sets isError.
  mcp::ToolResult r;
  r.content = std::move(content);
  return r;
}

}  // namespace

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options) {
  auto policy = std::make_shared<const CommandPolicy>(options);
  std::vector<mcp::Tool> tools;

  mcp::Tool run;
  run.name = "run_command";
  run.description = RunCommandDescription(options);
  run.input_schema = Json::parse(R"({"type":"object","properties":{"command":{"type":"string"}},"required":["command"]})");
  run.handler = [options, policy](const Json& args, const mcp::ToolContext& context) {
    auto command = args.find("command");
    if (command == args.end() || !command->is_string())
      return Blocks(Json::array({ErrorBlock("No command provided")}));
    auto plan = policy->Check(command->get<std::string>());
    if (!plan) return Blocks(Json::array({ErrorBlock("Security violation: " + plan.error().message)}));
    return Blocks(RunPlan(options, *plan, context));
  };
  tools.push_back(std::move(run));

  mcp::Tool rules;
  rules.name = "show_security_rules";
  rules.description =
      "Reports the rules run_command enforces here: the working directory, the accepted commands and flags, and "
      "the length and time limits.";
  rules.input_schema = Json::parse(R"({"type":"object","properties":{}})");
  rules.handler = [text = SecurityRules(options)](const Json&, const mcp::ToolContext&) {
    return mcp::ToolResult::Text(text);
  };
  tools.push_back(std::move(rules));

  // Upstream's initialize names itself "cli-mcp-server" 0.2.1 (its code
  // was not bumped with the package, 0.2.5).
  auto server = std::make_shared<mcp::ServerDefinition>(mcp::ServerInfo{"cli-mcp-server", "0.2.1", "", ""},
                                                       std::move(tools));
  // The Python SDK's low-level Server advertises what has handlers, with
  // an empty experimental object first and listChanged spelled out.
  server->SetCapabilities(Json{{"experimental", Json::object()}, {"tools", Json{{"listChanged", false}}}});
  return server;
}

}  // namespace sbx::servers::terminal
