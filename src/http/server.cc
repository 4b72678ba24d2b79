#include "http/server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <limits>
#include <vector>

#include <spdlog/spdlog.h>

namespace sbx::http {

Server::Server(asio::io_context& io, ServerOptions options, Handler handler)
    : Server(io, {&io}, std::move(options), std::move(handler)) {}

Server::Server(asio::io_context& io, std::vector<asio::io_context*> connection_ios, ServerOptions options,
               Handler handler)
    : io_(io),
      connection_ios_(std::move(connection_ios)),
      options_(std::move(options)),
      handler_(std::move(handler)),
      acceptor_(io) {
  if (connection_ios_.empty()) connection_ios_.push_back(&io_);
}

Server::~Server() { Stop(); }

Result<asio::ip::tcp::endpoint> Server::Listen() {
  beast::error_code ec;
  auto address = asio::ip::make_address(options_.host, ec);
  if (ec) return MakeError(ErrorCode::kInvalidArgument, "invalid listen address '" + options_.host + "'");
  asio::ip::tcp::endpoint endpoint{address, options_.port};
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return MakeError(ErrorCode::kUnavailable, "cannot listen on " + options_.host + ":" +
                                                  std::to_string(options_.port) + ": " + ec.message());
  }
  return acceptor_.local_endpoint();
}

void Server::Start() {
  asio::co_spawn(acceptor_.get_executor(), AcceptLoop(), asio::detached);
}

void Server::Stop() {
  std::lock_guard lock(connections_->mu);
  if (connections_->stopping) return;
  connections_->stopping = true;
  asio::post(acceptor_.get_executor(), [this] {
    beast::error_code ec;
    acceptor_.close(ec);
  });
  for (auto& [raw, weak] : connections_->streams) {
    auto stream = weak.lock();
    if (!stream) continue;
    // Closing must happen on the stream's own strand; the shared_ptr keeps
    // the stream alive until then.
    asio::post(stream->get_executor(), [stream] {
      beast::error_code ec;
      stream->socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
      stream->close();
    });
  }
}

Task<void> Server::AcceptLoop() {
  for (;;) {
    beast::error_code ec;
    asio::io_context& serving = *connection_ios_[next_io_++ % connection_ios_.size()];
    asio::ip::tcp::socket socket = co_await acceptor_.async_accept(
        asio::make_strand(serving), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
      spdlog::warn("accept failed: {}", ec.message());
      continue;
    }
    auto executor = socket.get_executor();
    asio::co_spawn(executor, Serve(std::move(socket)), [](std::exception_ptr e) {
      if (!e) return;
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        spdlog::error("connection failed: {}", ex.what());
      }
    });
  }
}

Task<void> Server::Serve(asio::ip::tcp::socket socket) {
  auto shared = std::make_shared<beast::tcp_stream>(std::move(socket));
  beast::tcp_stream& stream = *shared;
  auto connections = connections_;
  {
    std::lock_guard lock(connections->mu);
    if (connections->stopping) co_return;
    connections->streams.emplace(&stream, shared);
  }
  struct Untrack {
    std::shared_ptr<Connections> connections;
    beast::tcp_stream* stream;
    ~Untrack() {
      std::lock_guard lock(connections->mu);
      connections->streams.erase(stream);
    }
  } untrack{connections, &stream};

  beast::flat_buffer buffer;
  for (;;) {
    Exchange::Parser parser;
    parser.header_limit(options_.header_limit);
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());  // handlers bound bodies
    beast::error_code ec;
    stream.expires_after(options_.header_timeout);
    co_await bhttp::async_read_header(stream, buffer, parser,
                                      asio::redirect_error(asio::use_awaitable, ec));
    // With buffer_body, body bytes that arrived with the head make the read
    // stop with need_buffer: the head is complete, the body is the handler's.
    if (ec == bhttp::error::need_buffer && parser.is_header_done()) ec = {};
    if (!ec && !parser.is_done()) {
      // The body is still to come. Clients that send head and body in two
      // writes (Python's httpx and requests do) hold the body back under
      // Nagle until the head is acknowledged, while our kernel delays that
      // ACK by up to 40 ms: acknowledge now. Not when the whole body came
      // with the head: the option costs a syscall and an ACK packet.
      const auto length = parser.content_length();
      if (!length || buffer.size() < *length) {
        int one = 1;
        ::setsockopt(stream.socket().native_handle(), IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
      }
    }
    if (ec) {
      spdlog::debug("request head not read: {}", ec.message());
      unsigned status = 0;
      if (ec == bhttp::error::header_limit) status = 431;
      else if (ec != bhttp::error::end_of_stream && ec != asio::error::eof &&
               ec != beast::error::timeout && ec != asio::error::operation_aborted &&
               ec != asio::error::connection_reset)
        status = 400;
      if (status) {
        bhttp::response<bhttp::string_body> res{static_cast<bhttp::status>(status), 11};
        res.set(bhttp::field::content_type, "application/json");
        res.body() = status == 431 ? R"({"detail":"Request header fields too large"})"
                                   : R"({"detail":"Malformed HTTP request"})";
        res.keep_alive(false);
        res.prepare_payload();
        beast::error_code ignored;
        stream.expires_after(std::chrono::seconds(5));
        co_await bhttp::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ignored));
      }
      break;
    }
    Exchange exchange(stream, buffer, parser, options_.body_timeout);
    bool failed = false;
    try {
      co_await handler_(exchange);
    } catch (const std::exception& e) {
      spdlog::error("{} {} failed: {}", std::string(exchange.method_string()),
                    std::string(exchange.path()), e.what());
      failed = true;
    }
    // A handler that threw after it began answering leaves a connection in
    // an unknown state: close it.
    if (failed && exchange.responded()) break;
    if (!exchange.responded())
      co_await exchange.Send(JsonError(500, "Internal server error; the sandboxd log has the details"));
    if (!exchange.reusable() || !exchange.keep_alive()) break;
  }
  co_await LingeringClose(stream);
}

Task<void> Server::LingeringClose(beast::tcp_stream& stream) {
  // A client still sending a body we refused (413, 403…) would get a reset
  // if we closed at once, and a reset makes most clients drop the response
  // they have not read yet. So: end our side, then read and discard for a
  // bounded time and volume before closing.
  beast::error_code ec;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
  std::vector<char> sink(64 * 1024);
  std::uint64_t discarded = 0;
  stream.expires_after(std::chrono::seconds(3));
  while (!ec && discarded < (64u << 20)) {
    std::size_t n = co_await stream.async_read_some(asio::buffer(sink),
                                                    asio::redirect_error(asio::use_awaitable, ec));
    discarded += n;
  }
  stream.close();
}

}  // namespace sbx::http
