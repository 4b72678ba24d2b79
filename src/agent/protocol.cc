#include "agent/protocol.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "core/json_text.h"

namespace sbx::agent {
namespace {

Error SysError(const std::string& what) {
  return MakeError(ErrorCode::kInternal, "agent channel: " + what + ": " + std::strerror(errno));
}

// A frame's first 4 bytes: the text's length, big-endian.
std::array<char, 4> LengthPrefix(std::size_t size) {
  auto n = static_cast<std::uint32_t>(size);
  return {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8), static_cast<char>(n)};
}

}  // namespace

Channel::Channel(int fd) : fd_(fd) {}

Channel::~Channel() {
  if (fd_ >= 0) ::close(fd_);
}

std::string EncodeFrame(const std::string& text) {
  auto prefix = LengthPrefix(text.size());
  std::string frame(prefix.data(), prefix.size());
  frame += text;
  return frame;
}

std::string DumpMessage(const Json& message) {
  std::string text;
  AppendJson(text, message);
  return text;
}

std::string McpReplyFrame(const Json& id, const Json* message) {
  bool result = message && message->is_object() && message->contains("result");
  std::string text = Json{{"id", id}, {"result", result}}.dump();
  text += '\n';
  if (message && !message->is_null()) AppendJson(text, *message);
  return text;
}

std::string McpNoteFrame(const Json& call, const Json& message) {
  std::string text = Json{{"method", "mcp.notify"}, {"call", call}}.dump();
  text += '\n';
  AppendJson(text, message);
  return text;
}

std::string McpEventFrame(const std::string& server, const std::string& session, const Json& message) {
  std::string text = Json{{"method", "mcp.event"}, {"server", server}, {"session", session}}.dump();
  text += '\n';
  AppendJson(text, message);
  return text;
}

Status Channel::SendText(const std::string& text) {
  if (text.size() > kMaxFrameBytes) return MakeError(ErrorCode::kTooLarge, "message over the frame limit");
  // The length and the text go out in one sendmsg of two pieces: a reply
  // (a listing, a file) is not copied once more just to put 4 bytes before it.
  auto head = LengthPrefix(text.size());
  const std::size_t total = head.size() + text.size();
  std::size_t off = 0;
  while (off < total) {
    struct iovec iov[2];
    std::size_t pieces = 0;
    if (off < head.size()) iov[pieces++] = {head.data() + off, head.size() - off};
    const std::size_t from = off < head.size() ? 0 : off - head.size();
    iov[pieces++] = {const_cast<char*>(text.data()) + from, text.size() - from};
    struct msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = pieces;
    ssize_t sent = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        struct pollfd p{fd_, POLLOUT, 0};
        ::poll(&p, 1, 1000);
        continue;
      }
      return SysError("send");
    }
    off += static_cast<std::size_t>(sent);
  }
  return Ok();
}

Status Channel::Send(const Json& body_in, const std::vector<int>& fds) {
  if (fds.size() > kMaxFdsPerFrame) return MakeError(ErrorCode::kInvalidArgument, "too many descriptors");
  Json body = body_in;
  if (!fds.empty()) body["fds"] = fds.size();
  std::string text = body.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > kMaxFrameBytes) return MakeError(ErrorCode::kTooLarge, "message over the frame limit");
  std::string frame = EncodeFrame(text);
  std::size_t off = 0;
  bool fds_sent = fds.empty();
  while (off < frame.size()) {
    struct iovec iov{frame.data() + off, frame.size() - off};
    struct msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFdsPerFrame)];
    if (!fds_sent) {
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t sent = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        struct pollfd p{fd_, POLLOUT, 0};
        ::poll(&p, 1, 1000);
        continue;
      }
      return SysError("send");
    }
    fds_sent = true;
    off += static_cast<std::size_t>(sent);
  }
  return Ok();
}

Result<bool> Channel::Fill() {
  char data[64 * 1024];
  struct iovec iov{data, sizeof data};
  alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFdsPerFrame)];
  struct msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do {
    n = ::recvmsg(fd_, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    if (errno == EAGAIN) return true;
    return SysError("receive");
  }
  for (struct cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      fds_.emplace_back(fd);
    }
  }
  if (msg.msg_flags & MSG_CTRUNC) return MakeError(ErrorCode::kInvalidArgument, "too many descriptors in one frame");
  if (n == 0) return false;
  buffer_.append(data, static_cast<std::size_t>(n));
  return true;
}

Result<std::optional<Message>> Channel::Next() {
  if (buffer_.size() < 4) return std::optional<Message>();
  const auto* b = reinterpret_cast<const unsigned char*>(buffer_.data());
  std::uint32_t n = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
  if (n > kMaxFrameBytes) return MakeError(ErrorCode::kTooLarge, "frame over the limit");
  if (buffer_.size() < 4 + std::size_t{n}) return std::optional<Message>();
  Message m;
  m.body = Json::parse(buffer_.begin() + 4, buffer_.begin() + 4 + n, nullptr, false);
  buffer_.erase(0, 4 + std::size_t{n});
  if (m.body.is_discarded() || !m.body.is_object())
    return MakeError(ErrorCode::kInvalidArgument, "frame is not a JSON object");
  if (auto it = m.body.find("fds"); it != m.body.end()) {
    if (!it->is_number_unsigned() || it->get<std::size_t>() > fds_.size() ||
        it->get<std::size_t>() > kMaxFdsPerFrame)
      return MakeError(ErrorCode::kInvalidArgument, "frame announces descriptors that did not arrive");
    for (std::size_t i = it->get<std::size_t>(); i > 0; --i) {
      m.fds.push_back(std::move(fds_.front()));
      fds_.pop_front();
    }
    m.body.erase(it);
  }
  return std::optional<Message>(std::move(m));
}

Result<Message> Channel::Receive(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto next = Next();
    if (!next) return next.error();
    if (*next) return std::move(**next);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return MakeError(ErrorCode::kUnavailable, "the sandbox agent did not answer in time");
    struct pollfd p{fd_, POLLIN, 0};
    int rc = ::poll(&p, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno != EINTR) return SysError("poll");
    if (rc <= 0) continue;
    auto filled = Fill();
    if (!filled) return filled.error();
    if (!*filled) return MakeError(ErrorCode::kUnavailable, "the sandbox agent closed the connection");
  }
}

Json Request(std::int64_t id, const std::string& method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)},
              {"server", "agent"}, {"session", nullptr}};
}

Json Notification(const std::string& method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}, {"server", "agent"},
              {"session", nullptr}};
}

Json ResultResponse(const Json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json ErrorResponse(const Json& id, int code, const std::string& message) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

}  // namespace sbx::agent
