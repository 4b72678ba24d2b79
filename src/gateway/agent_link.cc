#include "gateway/agent_link.h"

#include <unistd.h>

#include <chrono>
#include <optional>

#include "agent/client.h"
#include "agent/protocol.h"

namespace sbx::gateway {

// A call in flight. Lives on the caller's executor: the link posts results
// and notifications there, and the waiting coroutine checks the state before
// each wait, so a wake-up cannot be lost.
struct AgentLink::Pending {
  explicit Pending(asio::any_io_executor caller) : executor(caller), timer(caller) {}
  asio::any_io_executor executor;
  asio::steady_timer timer;
  std::optional<Result<AgentAnswer>> result;
  std::deque<std::string> notes;
};

Result<std::shared_ptr<AgentLink>> AgentLink::Connect(asio::any_io_executor executor, const std::string& path,
                                                      std::function<void(AgentLink*)> on_close, EventSink on_event) {
  auto fd = agent::ConnectTo(path);
  if (!fd) return fd.error();
  std::shared_ptr<AgentLink> link(new AgentLink(std::move(executor), *fd, std::move(on_close), std::move(on_event)));
  asio::co_spawn(link->strand_, link->ReadLoop(), asio::detached);
  return link;
}

AgentLink::AgentLink(asio::any_io_executor executor, int fd, std::function<void(AgentLink*)> on_close,
                     EventSink on_event)
    : strand_(asio::make_strand(executor)),
      socket_(strand_),
      on_close_(std::move(on_close)),
      on_event_(std::move(on_event)) {
  socket_.assign(asio::local::stream_protocol(), fd);
}

AgentLink::~AgentLink() = default;

void AgentLink::Close() {
  asio::post(strand_, [self = shared_from_this()] { self->Fail("the gateway closed the link"); });
}

Task<Result<AgentAnswer>> AgentLink::Call(const char* method, Json params, const NoteSink* notes) {
  auto caller = co_await asio::this_coro::executor;
  auto pending = std::make_shared<Pending>(caller);
  asio::post(strand_, [self = shared_from_this(), pending, method, params = std::move(params)]() mutable {
    self->Start(std::move(pending), method, std::move(params));
  });
  for (;;) {
    while (!pending->notes.empty()) {
      std::string note = std::move(pending->notes.front());
      pending->notes.pop_front();
      if (notes) co_await (*notes)(std::move(note));
    }
    if (pending->result) break;
    pending->timer.expires_at(asio::steady_timer::time_point::max());
    beast::error_code ec;
    co_await pending->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return std::move(*pending->result);
}

void AgentLink::Start(std::shared_ptr<Pending> pending, const char* method, Json params) {
  if (closed_) {
    asio::post(pending->executor, [pending] {
      pending->result = MakeError(ErrorCode::kUnavailable, "the sandbox's agent cannot be reached");
      pending->timer.cancel();
    });
    return;
  }
  std::int64_t id = next_id_++;
  pending_.emplace(id, std::move(pending));
  writes_.push_back(agent::EncodeFrame(
      agent::Request(id, method, std::move(params)).dump(-1, ' ', false, Json::error_handler_t::replace)));
  if (writing_.empty()) WriteNext();
}

void AgentLink::WriteNext() {
  // Everything queued goes out in one write.
  writing_.clear();
  while (!writes_.empty()) {
    writing_ += writes_.front();
    writes_.pop_front();
  }
  if (writing_.empty()) return;
  asio::async_write(socket_, asio::buffer(writing_),
                    asio::bind_executor(strand_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) return self->Fail("the sandbox's agent went away: " + ec.message());
                      self->WriteNext();
                    }));
}

Task<void> AgentLink::ReadLoop() {
  auto self = shared_from_this();
  std::string body;
  for (;;) {
    unsigned char head[4];
    beast::error_code ec;
    co_await asio::async_read(socket_, asio::buffer(head), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) break;
    std::uint32_t n = (std::uint32_t(head[0]) << 24) | (std::uint32_t(head[1]) << 16) |
                      (std::uint32_t(head[2]) << 8) | std::uint32_t(head[3]);
    if (n > agent::kMaxFrameBytes) break;
    body.resize(n);
    co_await asio::async_read(socket_, asio::buffer(body), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) break;
    if (auto newline = body.find('\n'); newline != std::string::npos) {
      // An MCP frame: only the header is parsed; the message passes through.
      Json header = Json::parse(std::string_view(body).substr(0, newline), nullptr, false);
      if (header.is_discarded() || !header.is_object()) break;
      DeliverMcp(header, body.substr(newline + 1));
      continue;
    }
    Json frame = Json::parse(body, nullptr, false);
    if (frame.is_discarded() || !frame.is_object()) break;
    Deliver(frame);
  }
  Fail("the sandbox's agent closed the connection");
}

void AgentLink::DeliverMcp(const Json& header, std::string message) {
  if (header.value("method", "") == "mcp.event") {
    // A session's message outside any call; the agent names the session.
    auto server = header.find("server");
    auto session = header.find("session");
    if (on_event_ && server != header.end() && server->is_string() && session != header.end() && session->is_string())
      on_event_(server->get<std::string>(), session->get<std::string>(), std::move(message));
    return;
  }
  const Json* call = header.contains("call") ? &header["call"] : header.contains("id") ? &header["id"] : nullptr;
  if (!call || !call->is_number_integer()) return;
  auto it = pending_.find(call->get<std::int64_t>());
  if (it == pending_.end()) return;
  if (header.contains("method")) {
    if (header["method"] != "mcp.notify") return;
    asio::post(it->second->executor, [pending = it->second, message = std::move(message)]() mutable {
      pending->notes.push_back(std::move(message));
      pending->timer.cancel();
    });
    return;
  }
  auto pending = std::move(it->second);
  pending_.erase(it);
  asio::post(pending->executor, [pending, answer = AgentAnswer{header, std::move(message)}]() mutable {
    pending->result = std::move(answer);
    pending->timer.cancel();
  });
}

void AgentLink::Deliver(const Json& frame) {
  if (!frame.contains("id") || !frame["id"].is_number_integer()) return;
  auto it = pending_.find(frame["id"].get<std::int64_t>());
  if (it == pending_.end()) return;
  auto pending = std::move(it->second);
  pending_.erase(it);
  Result<AgentAnswer> result = frame.contains("error")
                                   ? Result<AgentAnswer>(agent::ErrorFromReply(frame["error"]))
                                   : Result<AgentAnswer>(AgentAnswer{frame.value("result", Json::object()), {}});
  asio::post(pending->executor, [pending, result = std::move(result)]() mutable {
    pending->result = std::move(result);
    pending->timer.cancel();
  });
}

void AgentLink::Fail(const std::string& why) {
  if (closed_) return;
  closed_ = true;
  beast::error_code ignored;
  socket_.close(ignored);
  for (auto& [_, pending] : pending_) {
    asio::post(pending->executor, [pending, why] {
      pending->result = MakeError(ErrorCode::kUnavailable, why);
      pending->timer.cancel();
    });
  }
  pending_.clear();
  if (on_close_) on_close_(this);
}

Result<std::shared_ptr<AgentLink>> AgentLinks::Get(const asio::any_io_executor& caller, const std::string& sandbox_id,
                                                   const std::string& socket_path) {
  // The caller's io_context: its executor, or the strand of a connection.
  std::optional<asio::io_context::executor_type> io;
  if (auto* strand = caller.target<asio::strand<asio::io_context::executor_type>>())
    io = strand->get_inner_executor();
  else if (auto* plain = caller.target<asio::io_context::executor_type>())
    io = *plain;
  Key key{sandbox_id, io ? reinterpret_cast<std::uintptr_t>(&io->context()) : 0};
  std::lock_guard lock(mu_);
  if (auto it = links_.find(key); it != links_.end()) return it->second;
  AgentLink::EventSink on_event;
  if (on_event_)
    on_event = [sink = on_event_, sandbox_id](const std::string& server, const std::string& session, std::string m) {
      sink(sandbox_id, server, session, std::move(m));
    };
  auto link = AgentLink::Connect(io ? asio::any_io_executor(*io) : fallback_, socket_path,
                                 [this, sandbox_id](AgentLink* gone) { Drop(sandbox_id, gone); }, std::move(on_event));
  if (!link) return link.error();
  links_.emplace(std::move(key), *link);
  return *link;
}

std::size_t AgentLinks::ConnectAhead(const std::vector<asio::any_io_executor>& contexts,
                                     const std::string& sandbox_id, const std::string& socket_path) {
  std::size_t failed = 0;
  for (const auto& context : contexts) failed += !Get(context, sandbox_id, socket_path);
  return failed;
}

void AgentLinks::Drop(const std::string& sandbox_id, const AgentLink* link) {
  std::lock_guard lock(mu_);
  for (auto it = links_.lower_bound(Key{sandbox_id, 0}); it != links_.end() && it->first.first == sandbox_id;
       ++it) {
    if (it->second.get() == link) {
      links_.erase(it);
      return;
    }
  }
}

}  // namespace sbx::gateway
