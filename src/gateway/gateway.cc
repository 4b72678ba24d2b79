#include "gateway/gateway.h"

#include <algorithm>

#include "core/json.h"
#include "sandbox/server_names.h"

namespace sbx::gateway {
namespace {

Task<void> Serve(sandbox::Manager& manager, http::Exchange& ex) {
  const std::string& server = ex.param("server");
  if (!sandbox::IsKnownServerName(server)) {
    co_await ex.Send(http::JsonError(404, "Not Found"));
    co_return;
  }
  std::string id = ex.query().Get("local_sandbox_id").value_or("");
  auto sandbox = manager.GetWithToken(id, ex.query().Get("token").value_or(""));
  if (!sandbox) {
    unsigned status = sandbox.error().code == ErrorCode::kUnauthenticated ? 401 : 404;
    co_await ex.Send(http::JsonError(status, sandbox.error().message));
    co_return;
  }
  bool held = std::any_of(sandbox->servers.begin(), sandbox->servers.end(),
                          [&](const store::ServerRecord& s) { return s.name == server; });
  if (!held) {
    co_await ex.Send(http::JsonError(
        404, "Local sandbox " + id + " has no '" + server + "' server; acquire one that lists it"));
    co_return;
  }
  co_await ex.Send(http::JsonError(
      503, "The '" + server + "' MCP server is not available in this sandboxd build yet"));
}

}  // namespace

void RegisterMcpRoutes(http::Router& router, sandbox::Manager& manager) {
  for (const char* pattern : {"/{server}/mcp", "/{server}/mcp/"})
    for (auto method : {bhttp::verb::get, bhttp::verb::post, bhttp::verb::delete_})
      router.Add(method, pattern, [&manager](http::Exchange& ex) { return Serve(manager, ex); });
}

}  // namespace sbx::gateway
