// MCP client steps for the servers' unit tests: tools are called through a
// real mcp::Session, so argument validation and defaults apply exactly as
// they do for a client on the wire.
#pragma once

#include <string>
#include <utility>

#include "core/json.h"
#include "mcp/server.h"

namespace sbx::servers::test_support {

// The initialize request (and, with `send_initialized`, the initialized
// notification clients send after it); returns the initialize reply.
inline Json Initialize(mcp::Session& session, bool send_initialized = true) {
  Json init = {{"jsonrpc", "2.0"},
               {"id", 0},
               {"method", "initialize"},
               {"params",
                {{"protocolVersion", "2025-06-18"},
                 {"capabilities", Json::object()},
                 {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
  Json reply = *session.Handle(init).reply;
  if (send_initialized) session.Handle(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  return reply;
}

// tools/call `tool` with `args` as request `id`; the whole JSON-RPC reply,
// whether the session answered at once or handed back a call to run.
inline Json CallTool(mcp::Session& session, int id, const std::string& tool, Json args) {
  Json req = {{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "tools/call"},
              {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
  auto outcome = session.Handle(req);
  if (outcome.reply) return *outcome.reply;
  return outcome.call->Run([](Json) {});
}

}  // namespace sbx::servers::test_support
