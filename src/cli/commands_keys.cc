// key create | list | revoke: the admin API of /admin/keys.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/url.h"

namespace sbx::cli {
namespace {

struct CreateOptions {
  std::string owner;
  bool admin = false;
};

int RunCreate(const Context& ctx, const CreateOptions& opts) {
  Json body = {{"owner", opts.owner}, {"admin", opts.admin}};
  auto created = ctx.api.Call(Method::kPost, "/admin/keys", &body);
  if (!created.ok()) return Fail(created.error());
  if (ctx.json) {
    PrintJson(*created);
    return kExitOk;
  }
  // The key is only ever shown here (the server stores a hash), so it gets a
  // line of its own that is easy to spot and to copy.
  std::cout << "Created " << (Text(*created, "admin") == "yes" ? "admin " : "") << "API key "
            << Text(*created, "id") << " for owner '" << Text(*created, "owner") << "'.\n\n"
            << "    " << Text(*created, "key") << "\n\n"
            << "Store it now: it is shown only once and cannot be retrieved later.\n";
  return kExitOk;
}

int RunList(const Context& ctx) {
  auto listed = ctx.api.Call(Method::kGet, "/admin/keys");
  if (!listed.ok()) return Fail(listed.error());
  if (ctx.json) {
    PrintJson(*listed);
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows;
  if (auto keys = listed->find("keys"); keys != listed->end() && keys->is_array()) {
    for (const auto& key : *keys) {
      rows.push_back({Text(key, "id"), Text(key, "owner"), Text(key, "admin"), Text(key, "prefix"),
                      Text(key, "created_at"), Text(key, "revoked_at")});
    }
  }
  if (rows.empty()) {
    std::cout << "no API keys\n";
    return kExitOk;
  }
  std::cout << FormatTable({"ID", "OWNER", "ADMIN", "PREFIX", "CREATED", "REVOKED"}, rows);
  return kExitOk;
}

int RunRevoke(const Context& ctx, const std::string& id) {
  auto revoked = ctx.api.Call(Method::kDelete, "/admin/keys/" + EncodePathSegment(id));
  if (!revoked.ok()) return Fail(revoked.error());
  if (ctx.json) {
    PrintJson(*revoked);
    return kExitOk;
  }
  std::cout << "Revoked API key " << Text(*revoked, "id") << " at " << Text(*revoked, "revoked_at")
            << ".\n";
  return kExitOk;
}

}  // namespace

void RegisterKeyCommands(CLI::App& app, Action& selected) {
  CLI::App* key = app.add_subcommand("key", "Manage API keys (needs an admin key)");
  key->require_subcommand(1);

  auto create_opts = std::make_shared<CreateOptions>();
  CLI::App* create = key->add_subcommand("create", "Create an API key; the key is printed once");
  create->add_option("--owner", create_opts->owner, "Who the key is for (a name or team)")
      ->required();
  create->add_flag("--admin", create_opts->admin, "Allow the key to manage API keys");
  create->callback([&selected, create_opts] {
    selected = [create_opts](const Context& ctx) { return RunCreate(ctx, *create_opts); };
  });

  CLI::App* list = key->add_subcommand("list", "List API keys, revoked ones included");
  list->callback([&selected] { selected = RunList; });

  auto revoke_id = std::make_shared<std::string>();
  CLI::App* revoke = key->add_subcommand("revoke", "Revoke an API key (it stops working at once)");
  revoke->add_option("ID", *revoke_id, "Key id, as shown by `key list`")->required();
  revoke->callback([&selected, revoke_id] {
    selected = [revoke_id](const Context& ctx) { return RunRevoke(ctx, *revoke_id); };
  });
}

}  // namespace sbx::cli
