// sandboxd's connections to sandbox-agents for MCP traffic: one unix socket
// per sandbox, kept open and shared by every session of that sandbox, with
// calls multiplexed by request id (the execution API keeps its own blocking
// AgentClient; MCP calls may run for minutes and must not hold a thread).
//
// Thread-safety: AgentLink runs on its own strand; Call may be awaited from
// any coroutine, and resumes on that coroutine's executor. AgentLinks is a
// mutex-guarded map.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "http/asio.h"

namespace sbx::gateway {

// What the agent answered: for an "mcp" request, the MCP message text as the
// client gets it (passed through without a parse: agent/protocol.h's
// McpReplyFrame), empty when there is none, and `result` is that frame's
// header; for other requests `result` is the JSON-RPC result object.
struct AgentAnswer {
  Json result;
  std::string message;
};

class AgentLink : public std::enable_shared_from_this<AgentLink> {
 public:
  // Called, on the caller's executor, with the text of each MCP message the
  // agent sends about this call on the way (progress of a tool call).
  using NoteSink = std::function<Task<void>(std::string)>;
  // Called on the link's strand with an MCP message the agent sends a
  // session outside any call (notifications/resources/updated): the
  // server, the session, and the message text.
  using EventSink = std::function<void(const std::string& server, const std::string& session, std::string message)>;

  // Connects to the agent socket at `path`; `on_close` runs once the link is
  // broken (so the registry forgets it).
  static Result<std::shared_ptr<AgentLink>> Connect(asio::any_io_executor executor, const std::string& path,
                                                    std::function<void(AgentLink*)> on_close,
                                                    EventSink on_event = nullptr);
  ~AgentLink();

  // One request to the agent; its result object, or the agent's error
  // (kUnavailable when the link breaks first).
  // `method` is a literal; `notes` (may be null) must outlive the call.
  Task<Result<AgentAnswer>> Call(const char* method, Json params, const NoteSink* notes = nullptr);
  void Close();

 private:
  struct Pending;
  AgentLink(asio::any_io_executor executor, int fd, std::function<void(AgentLink*)> on_close, EventSink on_event);
  void Start(std::shared_ptr<Pending> pending, const char* method, Json params);
  void WriteNext();
  Task<void> ReadLoop();
  void Deliver(const Json& frame);
  void DeliverMcp(const Json& header, std::string message);
  void Fail(const std::string& why);

  asio::strand<asio::any_io_executor> strand_;
  asio::local::stream_protocol::socket socket_;
  std::function<void(AgentLink*)> on_close_;
  EventSink on_event_;
  std::map<std::int64_t, std::shared_ptr<Pending>> pending_;
  std::deque<std::string> writes_;
  std::string writing_;
  bool closed_ = false;
  std::int64_t next_id_ = 1;
};

// The live links, by sandbox id and io_context. sandboxd runs one
// io_context per thread; a call through a link of the caller's own context
// never leaves the caller's thread (handing each call to another thread and
// back cost more than the rest of a small call).
class AgentLinks {
 public:
  // A session's message outside any call, from the agent of `sandbox_id`.
  using EventSink = std::function<void(const std::string& sandbox_id, const std::string& server,
                                       const std::string& session, std::string message)>;
  // `fallback` serves callers whose executor is not an io_context's.
  explicit AgentLinks(asio::any_io_executor fallback, EventSink on_event = nullptr)
      : fallback_(std::move(fallback)), on_event_(std::move(on_event)) {}
  // The sandbox's link for the io_context of `caller`, connecting to
  // `socket_path` if there is none.
  Result<std::shared_ptr<AgentLink>> Get(const asio::any_io_executor& caller, const std::string& sandbox_id,
                                         const std::string& socket_path);
  // Connects the sandbox's link on each of `contexts` (io_context executors)
  // that has none yet, ahead of its first request; one that cannot connect
  // is left to Get. Returns how many could not.
  std::size_t ConnectAhead(const std::vector<asio::any_io_executor>& contexts, const std::string& sandbox_id,
                           const std::string& socket_path);
  // Forgets `link` if it is still listed (a newer one stays).
  void Drop(const std::string& sandbox_id, const AgentLink* link);

 private:
  using Key = std::pair<std::string, std::uintptr_t>;  // sandbox id, io_context's address
  asio::any_io_executor fallback_;
  EventSink on_event_;
  std::mutex mu_;
  std::map<Key, std::shared_ptr<AgentLink>> links_;
};

}  // namespace sbx::gateway
