#include "servers/registry.h"

#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "servers/filesystem/filesystem.h"
#include "servers/code_runner/code_runner.h"
#include "servers/terminal/terminal.h"
#include "servers/localmemory/localmemory.h"
#include "servers/git/git.h"
#include "servers/desktop_commander/desktop_commander.h"
#include "servers/code_executor/code_executor.h"
#include "servers/arxiv/arxiv.h"

namespace sbx::servers {
namespace {

using Definition = std::shared_ptr<const mcp::ServerDefinition>;
// Parses a server's settings object and builds the server from it.
using Builder = std::function<Result<Definition>(const Json& settings)>;

// Inside the jail the workspace is always /data (DESIGN.md).
Result<Definition> BuildFilesystem(const Json& settings) {
  if (!settings.empty())
    return MakeError(ErrorCode::kInvalidArgument, "filesystem: takes no settings (its root is always /data)");
  return filesystem::MakeServer(filesystem::Options{{"/data"}});
}

// A server built from its Options parser and its factory.
template <auto Parse, auto Make>
Result<Definition> BuildWith(const Json& settings) {
  auto options = Parse(settings);
  if (!options) return options.error();
  return Make(*options);
}

const std::map<std::string, Builder, std::less<>>& Builders() {
  static const std::map<std::string, Builder, std::less<>> builders = {
      {"filesystem", BuildFilesystem},
      {"code-runner", BuildWith<code_runner::OptionsFromSettings, code_runner::MakeServer>},
      {"terminal", BuildWith<terminal::OptionsFromSettings, terminal::MakeServer>},
      {"localmemory", BuildWith<localmemory::OptionsFromSettings, localmemory::MakeServer>},
      {"git", BuildWith<git::OptionsFromSettings, git::MakeServer>},
      {"desktop-commander", BuildWith<desktop_commander::OptionsFromSettings, desktop_commander::MakeServer>},
      {"code-executor", BuildWith<code_executor::OptionsFromSettings, code_executor::MakeServer>},
      {"arxiv", BuildWith<arxiv::OptionsFromSettings, arxiv::MakeServer>},
  };
  return builders;
}

struct State {
  std::mutex mu;
  Json settings = Json::object();
  std::map<std::string, Definition, std::less<>> built;
};

State& GlobalState() {
  static State state;
  return state;
}

Json SettingsFor(const Json& all, std::string_view name) {
  auto it = all.find(std::string(name));
  return it == all.end() ? Json::object() : *it;
}

}  // namespace

void Configure(Json settings) {
  State& s = GlobalState();
  std::lock_guard lock(s.mu);
  s.settings = settings.is_object() ? std::move(settings) : Json::object();
  s.built.clear();
}

std::shared_ptr<const mcp::ServerDefinition> Find(std::string_view name) {
  State& s = GlobalState();
  std::lock_guard lock(s.mu);
  if (auto it = s.built.find(name); it != s.built.end()) return it->second;
  auto builder = Builders().find(name);
  if (builder == Builders().end()) return nullptr;
  auto server = builder->second(SettingsFor(s.settings, name));
  if (!server) {
    std::fprintf(stderr, "sandbox-agent: server %.*s: %s\n", static_cast<int>(name.size()), name.data(),
                 server.error().message.c_str());
    return nullptr;
  }
  s.built.emplace(std::string(name), *server);
  return *server;
}

std::vector<std::string> Names() {
  std::vector<std::string> names;
  for (const auto& [name, _] : Builders()) names.push_back(name);
  return names;
}

sbx::Status ValidateSettings(const Json& settings) {
  if (!settings.is_object()) return MakeError(ErrorCode::kInvalidArgument, "server settings: expected a JSON object");
  for (const auto& [name, value] : settings.items()) {
    auto builder = Builders().find(name);
    if (builder == Builders().end())
      return MakeError(ErrorCode::kInvalidArgument, "server settings: no server named '" + name + "'");
    if (!value.is_object())
      return MakeError(ErrorCode::kInvalidArgument, "server settings: '" + name + "' must be a JSON object");
    if (auto built = builder->second(value); !built) return built.error();
  }
  return Ok();
}

void WarmUp(const std::function<void(std::shared_ptr<const mcp::ServerDefinition>)>& use) {
  Json settings;
  {
    State& s = GlobalState();
    std::lock_guard lock(s.mu);
    settings = s.settings;
  }
  for (const auto& [name, builder] : Builders()) {
    auto server = builder(SettingsFor(settings, name));
    if (server && use) use(std::move(*server));
  }
}

std::vector<std::string> Built() {
  State& s = GlobalState();
  std::lock_guard lock(s.mu);
  std::vector<std::string> names;
  for (const auto& [name, _] : s.built) names.push_back(name);
  return names;
}

}  // namespace sbx::servers
