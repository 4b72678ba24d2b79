// The wire between sandboxd and a sandbox-agent: a unix stream socket
// carrying frames of [4-byte big-endian length][JSON text]. A frame may carry
// file descriptors (SCM_RIGHTS, sent with the frame's first bytes); its JSON
// then has "fds": <count> and the receiver takes that many from the queue of
// descriptors that arrived with or before it.
//
// Payloads are JSON-RPC 2.0 objects tagged with the MCP server and session
// they belong to ("server", "session"); control calls use server "agent".
//
// Thread-safety: a Channel is used by one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/unique_fd.h"
#include "core/result.h"

namespace sbx::agent {

inline constexpr std::uint32_t kMaxFrameBytes = 64u << 20;
inline constexpr std::size_t kMaxFdsPerFrame = 8;

// A descriptor received with a message; closed unless released.
using OwnedFd = sbx::UniqueFd;

struct Message {
  Json body;
  std::vector<OwnedFd> fds;
};

class Channel {
 public:
  explicit Channel(int fd);  // takes ownership of the connected socket
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  int fd() const { return fd_; }

  // Writes one whole frame (blocking).
  Status Send(const Json& body, const std::vector<int>& fds = {});
  // Writes one whole frame whose text is already encoded (see
  // McpReplyFrame), without descriptors.
  Status SendText(const std::string& text);
  // Reads what the socket has now (one recvmsg). False once the peer closed.
  Result<bool> Fill();
  // The next complete frame, if one has arrived. A malformed frame is an
  // error and the channel is unusable afterwards.
  Result<std::optional<Message>> Next();
  // Blocks until a whole frame arrives or `timeout` passes (kUnavailable).
  Result<Message> Receive(std::chrono::milliseconds timeout);

 private:
  int fd_;
  std::string buffer_;
  std::deque<OwnedFd> fds_;
};

// A whole frame for `text`: the 4-byte big-endian length, then the text.
std::string EncodeFrame(const std::string& text);

// MCP traffic from the agent skips a parse and a re-serialization in
// sandboxd: its frames are a one-line JSON header, '\n', then the MCP
// message exactly as it goes to the client (serialized JSON never holds a
// raw newline, so the first '\n' ends the header). Headers:
//   {"id":<request id>,"result":<whether the message is a result>}  the answer
//       to an "mcp" request; an empty message means none (a notification)
//   {"method":"mcp.notify","call":<request id>}  a message a tool call sends
//       on the way (progress)
std::string McpReplyFrame(const Json& id, const Json* message);
std::string McpNoteFrame(const Json& call, const Json& message);
// A session's MCP message outside any call (a resource it subscribed to
// changed): sandboxd sends it on the session's standalone GET stream.
std::string McpEventFrame(const std::string& server, const std::string& session, const Json& message);
// The MCP message as the client gets it (invalid UTF-8 replaced).
std::string DumpMessage(const Json& message);

// JSON-RPC helpers. A Notification is a request that wants no answer.
Json Request(std::int64_t id, const std::string& method, Json params);
Json Notification(const std::string& method, Json params);
Json ResultResponse(const Json& id, Json result);
Json ErrorResponse(const Json& id, int code, const std::string& message);

}  // namespace sbx::agent
