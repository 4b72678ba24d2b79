// sandboxctl: the command-line client of sandboxd for people at a terminal.
// Global options are resolved here; the subcommands live in commands_*.cc.

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/url.h"
#include "core/fs.h"

namespace {

constexpr const char* kDefaultUrl = "http://127.0.0.1:8080";

std::string Trimmed(std::string text) {
  const char* space = " \t\r\n";
  text.erase(text.find_last_not_of(space) + 1);
  text.erase(0, text.find_first_not_of(space));
  return text;
}

// With no --key and no SANDBOXD_API_KEY, use the admin key a local sandboxd
// wrote into its data dir: on a single host this makes `sandboxctl` work
// right after `sandboxd` starts, with nothing to copy around.
std::string KeyFromDataDir() {
  std::vector<std::string> candidates;
  if (const char* dir = std::getenv("SANDBOXD_DATA_DIR"); dir != nullptr && *dir != '\0') {
    candidates.push_back(std::string(dir) + "/admin.key");
  }
  candidates.push_back("./sandboxd-data/admin.key");
  for (const auto& path : candidates) {
    auto content = sbx::fs::ReadFile(path, 4096);
    if (content.ok()) {
      std::string key = Trimmed(*content);
      if (!key.empty()) return key;
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace sbx::cli;

  CLI::App app{
      "sandboxctl: manage sandboxd sandboxes and API keys from a terminal.\n"
      "Speaks plain HTTP only (http:// URLs); reach an https deployment through an SSH "
      "tunnel or a local TLS-terminating proxy."};
  app.name("sandboxctl");
  // Global options are accepted after the subcommand too (`sandboxctl list --json`).
  app.fallthrough();
  app.require_subcommand(1);

  std::string url = kDefaultUrl;
  std::string key;
  bool json = false;
  app.add_option("--url", url, "sandboxd base URL, http:// only, may include a path prefix")
      ->envname("SANDBOXD_URL")
      ->capture_default_str();
  app.add_option("--key", key,
                 "API key; default: $SANDBOXD_DATA_DIR/admin.key or ./sandboxd-data/admin.key "
                 "when readable")
      ->envname("SANDBOXD_API_KEY");
  app.add_flag("--json", json, "Print the raw JSON responses instead of tables");

  Action selected;
  RegisterKeyCommands(app, selected);
  RegisterSandboxCommands(app, selected);
  RegisterTransferCommands(app, selected);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version are "errors" with status 0; everything else is a
    // usage error, reported by CLI11 and mapped to EX_USAGE.
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }

  auto base = ParseBaseUrl(url);
  if (!base.ok()) {
    std::cerr << "error: --url: " << base.error().message << "\n";
    return kExitUsage;
  }
  if (key.empty()) key = KeyFromDataDir();
  if (!selected) {
    std::cerr << "error: no command selected; run with --help\n";
    return kExitUsage;
  }
  Context ctx{ApiClient(std::move(base).value(), key), json, StderrIsTerminal()};
  return selected(ctx);
}
