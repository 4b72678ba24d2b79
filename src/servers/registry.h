// The MCP servers a sandbox-agent can host, by the name the Local Sandbox
// API uses ("filesystem", "git", …), each built once per agent, on first use,
// from the deployment's settings for it.
//
// Settings: one JSON object per server name (sandboxd's --server-settings
// file, carried to the agent in its jail spec). A server without an entry
// gets its defaults. The key "variant" (any server) chooses which surface
// it presents: absent, today's upstream; else one of Variants(name), a
// pinned older version or fork of the upstream whose tools, schemas and
// result texts differ (shared/reference/tools/variants/). Each server's
// Options parser rejects unknown keys and bad values, so a typo in a
// deployment is an error at startup, not a silent default (sandboxd
// validates the whole object with ValidateSettings before starting any jail).
//
// Thread-safety: all functions may be called from any thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers {

// Replaces the settings later Find calls build from. Called by the agent
// once at startup, before any server is built.
void Configure(Json settings);

// The server called `name`, or null if this build has none by that name or
// its settings are invalid (the agent logs why).
std::shared_ptr<const mcp::ServerDefinition> Find(std::string_view name);

// The names of every server this build has (sorted). A deployment serves
// exactly these: sandboxd asks the agent binary at startup
// (`sandbox-agent --list-servers`) and refuses any other at acquire.
std::vector<std::string> Names();

// The variants the server `name` can present besides its default (empty
// for a server with none or a name this build lacks).
std::vector<std::string> Variants(std::string_view name);

// Checks `settings` ({name: {...}}) against every server's Options parser:
// unknown server names, unknown keys and bad values are errors.
sbx::Status ValidateSettings(const Json& settings);

// Builds every server this build has from the settings, hands each to `use`
// (may be empty) and drops it again; Find still builds its own. What a
// fresh process pays for its first build beyond the build itself (its code
// paged in, first-use initialisation) is paid then, so later builds are
// cheap. Servers whose settings are refused are skipped.
void WarmUp(const std::function<void(std::shared_ptr<const mcp::ServerDefinition>)>& use);

// The names Find has built and keeps (sorted).
std::vector<std::string> Built();

}  // namespace sbx::servers
