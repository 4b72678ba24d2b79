// acquire, list, get, release, reset, initialize: the sandbox lifecycle calls
// of /local-sandbox, plus the shared helpers declared in commands.h.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/servers.h"
#include "cli/url.h"

namespace sbx::cli {

int Fail(const Error& error) {
  std::cerr << "error: " << error.message << "\n";
  return ExitCodeFor(error);
}

void PrintJson(const Json& value) { std::cout << value.dump(2) << "\n"; }

void PrintStatusAnswer(const Context& ctx, const Json& answer) {
  if (ctx.json) {
    PrintJson(answer);
    return;
  }
  std::cout << FormatColumns({{"sandbox", Text(answer, "sandbox_id")},
                              {"status", Text(answer, "status")},
                              {"message", Text(answer, "message")}});
}

std::string SandboxPath(std::string_view id, std::string_view suffix) {
  return "/local-sandbox/" + EncodePathSegment(id) + std::string(suffix);
}

namespace {

struct AcquireOptions {
  std::string servers;
  std::string benchmark;
  std::string ttl;
  std::string email;
};

// CLI11 validators run at parse time, so a bad --servers or --ttl is a usage
// error (exit 64) reported before any request is made.
template <class Parse>
CLI::Validator Checked(Parse parse, std::string description) {
  return CLI::Validator(
      [parse](std::string& value) -> std::string {
        auto parsed = parse(value);
        return parsed.ok() ? std::string() : parsed.error().message;
      },
      std::move(description));
}

int RunAcquire(const Context& ctx, const AcquireOptions& opts) {
  Json body = {{"server_names", ParseServerList(opts.servers).value().ToJson()}};
  if (!opts.benchmark.empty()) body["benchmark"] = opts.benchmark;
  if (!opts.email.empty()) body["test_account_email"] = opts.email;
  if (!opts.ttl.empty()) {
    // Only sent when given, so the server's default (7200 s) applies otherwise.
    auto ttl = ParseTtl(opts.ttl).value();
    body["ttl_seconds"] = ttl ? Json(*ttl) : Json(nullptr);
  }
  auto acquired = ctx.api.Call(Method::kPost, "/local-sandbox", &body);
  if (!acquired.ok()) return Fail(acquired.error());
  if (ctx.json) {
    PrintJson(*acquired);
  } else {
    std::cout << FormatSandbox(*acquired);
  }
  return kExitOk;
}

int RunList(const Context& ctx) {
  auto listed = ctx.api.Call(Method::kGet, "/local-sandbox");
  if (!listed.ok()) return Fail(listed.error());
  if (ctx.json) {
    PrintJson(*listed);
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows;
  if (auto all = listed->find("local_sandboxes"); all != listed->end() && all->is_array()) {
    for (const auto& sandbox : *all) {
      std::string servers;
      if (auto list = sandbox.find("servers"); list != sandbox.end() && list->is_array()) {
        for (const auto& server : *list) {
          servers += (servers.empty() ? "" : ",") + Text(server, "server_name");
        }
      }
      rows.push_back({Text(sandbox, "local_sandbox_id"), Text(sandbox, "status"),
                      Text(sandbox, "benchmark"), Text(sandbox, "created_at"),
                      servers.empty() ? "-" : servers});
    }
  }
  if (rows.empty()) {
    std::cout << "no sandboxes\n";
    return kExitOk;
  }
  std::cout << FormatTable({"ID", "STATUS", "BENCHMARK", "CREATED", "SERVERS"}, rows);
  return kExitOk;
}

int RunGet(const Context& ctx, const std::string& id) {
  auto info = ctx.api.Call(Method::kGet, SandboxPath(id));
  if (!info.ok()) return Fail(info.error());
  if (ctx.json) {
    PrintJson(*info);
  } else {
    std::cout << FormatSandbox(*info);
  }
  return kExitOk;
}

int RunRelease(const Context& ctx, const std::string& id) {
  auto released = ctx.api.Call(Method::kDelete, SandboxPath(id));
  if (!released.ok()) return Fail(released.error());
  if (ctx.json) {
    PrintJson(*released);
  } else {
    std::cout << Text(*released, "message") << "\n";
  }
  return kExitOk;
}

// reset and initialize answer {"sandbox_id","status","message"}.
int RunStateChange(const Context& ctx, const std::string& id, std::string_view action) {
  auto answer = ctx.api.Call(Method::kPost, SandboxPath(id, action));
  if (!answer.ok()) return Fail(answer.error());
  PrintStatusAnswer(ctx, *answer);
  return kExitOk;
}

// Adds a subcommand taking one sandbox ID whose work is `run(ctx, id)`.
template <class Run>
void AddIdCommand(CLI::App& app, Action& selected, const std::string& name,
                  const std::string& description, Run run) {
  auto id = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("ID", *id, "Sandbox id (local_sandbox_id)")->required();
  sub->callback(
      [&selected, id, run] { selected = [id, run](const Context& ctx) { return run(ctx, *id); }; });
}

}  // namespace

void RegisterSandboxCommands(CLI::App& app, Action& selected) {
  auto opts = std::make_shared<AcquireOptions>();
  CLI::App* acquire = app.add_subcommand("acquire", "Acquire a sandbox with a set of MCP servers");
  acquire
      ->add_option("--servers", opts->servers,
                   "Comma-separated server names (e.g. filesystem,git,terminal) or ALL")
      ->required()
      ->check(Checked(ParseServerList, "NAMES|ALL"));
  std::vector<std::string> benchmarks(kBenchmarks.begin(), kBenchmarks.end());
  acquire->add_option("--benchmark", opts->benchmark, "Benchmark environment to configure")
      ->check(CLI::IsMember(benchmarks));
  acquire
      ->add_option("--ttl", opts->ttl,
                   "Auto-release after SECONDS (60-86400, server default 7200), or 'none'")
      ->check(Checked(ParseTtl, "SECONDS|none"));
  acquire->add_option("--email", opts->email, "Test account email (test_account_email)");
  acquire->callback([&selected, opts] {
    selected = [opts](const Context& ctx) { return RunAcquire(ctx, *opts); };
  });

  CLI::App* list = app.add_subcommand("list", "List your sandboxes");
  list->callback([&selected] { selected = RunList; });

  AddIdCommand(app, selected, "get", "Show a sandbox and its MCP server URLs", RunGet);
  AddIdCommand(app, selected, "release", "Release a sandbox (asynchronously)", RunRelease);
  AddIdCommand(
      app, selected, "reset", "Reset the workspace to its state after the last initialize",
      [](const Context& ctx, const std::string& id) { return RunStateChange(ctx, id, "/reset"); });
  AddIdCommand(app, selected, "initialize", "Extract the last uploaded archive into the workspace",
               [](const Context& ctx, const std::string& id) {
                 return RunStateChange(ctx, id, "/initialize");
               });
}

}  // namespace sbx::cli
