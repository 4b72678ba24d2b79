// The open GET streams of MCP sessions, so that ending a session (DELETE)
// also ends its streams. A stream registers while it is open and is told to
// stop through its own executor.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "http/asio.h"

namespace sbx::gateway {

struct StreamState {
  explicit StreamState(asio::any_io_executor ex) : executor(ex), timer(ex) {}
  asio::any_io_executor executor;
  asio::steady_timer timer;  // the stream's idle wait; cancelled to wake it
  bool stop = false;         // touched only on `executor`
  std::deque<std::string> messages;  // to send, oldest first; touched only on `executor`
};

class Streams {
 public:
  void Add(const std::string& key, const std::shared_ptr<StreamState>& s);
  void Remove(const std::string& key, const std::shared_ptr<StreamState>& s);
  // Wakes every stream of `key` with stop set.
  void StopAll(const std::string& key);
  // Queues `message` (an MCP message's text) on every stream of `key` and
  // wakes them; with none open it is dropped, as the MCP SDKs drop a
  // message for a standalone stream no client holds.
  void Deliver(const std::string& key, const std::string& message);

 private:
  std::mutex mu_;
  std::map<std::string, std::set<std::shared_ptr<StreamState>>> open_;
};

}  // namespace sbx::gateway
