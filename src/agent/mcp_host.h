// The MCP sessions an agent holds for sandboxd's gateway.
//
// Wire (inside the agent protocol, see protocol.h): sandboxd sends requests
//   {"method":"mcp","params":{"server","session","create","message"}}
// and gets the reply frame of protocol.h's McpReplyFrame back (header line,
// then the JSON-RPC message or nothing), immediately or when a tool call
// finishes; a call's notifications on the way (progress) travel as
// McpNoteFrame. Errors of the request itself (no such session or server)
// are ordinary JSON-RPC error frames. "mcp.close" ends a session,
// "mcp.session" says whether one exists. Sessions live here, not in sandboxd, so they
// survive a sandboxd restart with the jail. "mcp.prepare" {"servers": [...]}
// (sandboxd sends it as it hands the sandbox over) builds those servers
// ahead of their first session; "mcp.warm" (sent to a pooled agent) makes
// that building cheap.
//
// Thread-safety: every method may be called from any thread; replies go
// through the thread-safe `Reply` given.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::agent {

class McpHost {
 public:
  // Sends one frame's text to sandboxd on the connection the request came from.
  using Reply = std::function<void(const std::string& text)>;

  explicit McpHost(std::size_t max_sessions = 256);

  // A tool call to run; it answers through the Reply it was made with.
  using Call = std::function<void()>;

  // Handles an "mcp" request (id = sandboxd's request id). Errors (unknown
  // server or session, bad params) are answered through `reply` as well.
  // A tools/call comes back as a Call for the caller to run, on the thread
  // of its choice (the agent loop runs it on the thread that read it).
  Call Message(const Json& id, const Json& params, const Reply& reply);
  // Handles "mcp.prepare": a Call that builds the servers named in
  // params.servers (at most kMaxPrepared) and runs each through an
  // initialize on a session of its own that nobody sees, so that the
  // client's first initialize finds the server built and its code warm.
  // Names this agent has no server for are skipped (their initialize says
  // why).
  static constexpr std::size_t kMaxPrepared = 64;
  Result<Call> Prepare(const Json& params);
  // Handles "mcp.warm": a Call that builds every server this agent has,
  // initializes each as Prepare does and drops it again (a pooled agent does
  // not know yet which it will serve): Prepare then finds the code paged in
  // and builds cheaply, while the idle agent keeps no server's heap.
  Call Warm();
  bool warmed() const { return warmed_.load(); }
  Result<Json> Close(const Json& params);
  Result<Json> Probe(const Json& params);
  std::size_t sessions() const;

 private:
  struct Entry {
    std::shared_ptr<mcp::Session> session;
    std::list<std::string>::iterator lru;
  };
  Result<std::shared_ptr<mcp::Session>> Open(const Json& params);
  // Sends notifications/resources/updated for `uri` to the sessions of
  // `server` that subscribed to it (through `reply`'s connection: sandboxd
  // routes it to the session's GET stream).
  void NotifySubscribers(const std::string& server, const std::string& uri, const Reply& reply);

  std::size_t max_sessions_;
  std::atomic<bool> warmed_{false};
  mutable std::mutex mu_;
  std::map<std::string, Entry> sessions_;  // by server + '\n' + session id
  std::list<std::string> lru_;             // front = most recently used
};

}  // namespace sbx::agent
