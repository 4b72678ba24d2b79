// MCP over Streamable HTTP for every sandbox:
//   POST|GET|DELETE /{server_name}/mcp[/]?local_sandbox_id=…&token=…
//
// sandboxd checks Host/Origin, the credential (the URL's token, or the
// owner's bearer key), the sandbox and the server, then relays JSON-RPC
// messages to the sandbox-agent, which runs the server inside the jail.
// POST answers application/json, or text/event-stream when the client only
// takes that or asked for progress; GET opens a stream for server-initiated
// messages; DELETE ends a session. Sessions are created at initialize
// (Mcp-Session-Id) and held by the agent, so they outlive a sandboxd restart
// and vanish with the sandbox.
//
// Thread-safety: one Gateway serves all connections; its parts lock inside.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "gateway/access.h"
#include "gateway/agent_link.h"
#include "gateway/sandbox_cache.h"
#include "gateway/streams.h"
#include "http/router.h"
#include "sandbox/manager.h"

namespace sbx::gateway {

// The owner of the request's bearer key (kUnauthenticated if none or bad).
using BearerAuth = std::function<Result<std::string>(const http::Exchange&)>;

struct GatewayOptions {
  // Bounds one POST; tool arguments as large as a whole file (write_file)
  // must fit, and the agent wire takes frames up to 64 MiB.
  std::uint64_t max_body_bytes = 32u << 20;
  std::chrono::seconds keepalive{15};  // comment lines on idle GET streams
};

class Gateway : private sandbox::HandOverListener {
 public:
  Gateway(asio::any_io_executor executor, sandbox::Manager& manager, BearerAuth bearer, GatewayOptions options = {});
  ~Gateway() override;  // stops listening to the manager
  void Register(http::Router& router);
  // From now on, gets each sandbox ready for its first request off that
  // request's path: connects to the agent of every jail the manager starts
  // on each of `contexts` (the io threads' io_contexts) as it starts, and
  // remembers each sandbox handed over for the token check. Without it both
  // happen on first use.
  void ConnectAhead(std::vector<asio::any_io_executor> contexts);

 private:
  void JailStarted(const std::string& id) override;
  void HandedOver(const store::SandboxRecord& record, std::uint64_t epoch) override;

  struct Target;
  Task<void> Serve(http::Exchange& ex);
  // The link on the caller's io_context (see AgentLinks).
  Task<Result<std::shared_ptr<AgentLink>>> LinkFor(const Target& target);
  Task<void> Post(http::Exchange& ex, const Target& target);
  Task<void> Get(http::Exchange& ex, const Target& target);
  Task<void> Delete(http::Exchange& ex, const Target& target);

  sandbox::Manager& manager_;
  BearerAuth bearer_;
  GatewayOptions options_;
  OriginPolicy origins_;
  AgentLinks links_;
  SandboxCache sandboxes_;
  Streams streams_;
  std::vector<asio::any_io_executor> contexts_;  // set before the manager calls
};

}  // namespace sbx::gateway
