// The MCP sessions an agent holds for sandboxd's gateway, and the running of
// their tool calls on worker threads.
//
// Wire (inside the agent protocol, see protocol.h): sandboxd sends requests
//   {"method":"mcp","params":{"server","session","create","message"}}
// and gets the reply frame of protocol.h's McpReplyFrame back (header line,
// then the JSON-RPC message or nothing), immediately or when a tool call
// finishes; a call's notifications on the way (progress) travel as
// McpNoteFrame. Errors of the request itself (no such session or server)
// are ordinary JSON-RPC error frames. "mcp.close" ends a session,
// "mcp.session" says whether one exists. Sessions live here, not in sandboxd, so they
// survive a sandboxd restart with the jail.
//
// Thread-safety: Message/Close/Probe are called from the agent's I/O thread;
// replies are sent from workers through the thread-safe `Reply` given.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "agent/workers.h"
#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::agent {

class McpHost {
 public:
  // Sends one frame's text to sandboxd on the connection the request came from.
  using Reply = std::function<void(const std::string& text)>;

  explicit McpHost(std::size_t max_sessions = 256, std::size_t max_workers = 32);

  // Handles an "mcp" request (id = sandboxd's request id). Errors (unknown
  // server or session, bad params) are answered through `reply` as well.
  void Message(const Json& id, const Json& params, const Reply& reply);
  Result<Json> Close(const Json& params);
  Result<Json> Probe(const Json& params);
  std::size_t sessions() const;

 private:
  struct Entry {
    std::shared_ptr<mcp::Session> session;
    std::list<std::string>::iterator lru;
  };
  Result<std::shared_ptr<mcp::Session>> Open(const Json& params);

  std::size_t max_sessions_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> sessions_;  // by server + '\n' + session id
  std::list<std::string> lru_;             // front = most recently used
  Workers workers_;                        // last: joined before the sessions go
};

}  // namespace sbx::agent
