// The HTTP/1.1 listener: accepts connections on an io_context and serves each
// on its own strand with a coroutine, handing every request to one Handler.
//
// Bounds: request heads over `header_limit` bytes get 431; a head not
// received within `header_timeout` closes the connection (slowloris); body
// reads time out after `body_timeout` without progress.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <map>
#include <string>

#include "core/result.h"
#include "http/asio.h"
#include "http/exchange.h"

namespace sbx::http {

using Handler = std::function<Task<void>(Exchange&)>;

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  std::uint32_t header_limit = 16 * 1024;
  std::chrono::seconds header_timeout{30};
  std::chrono::seconds body_timeout{120};
};

class Server {
 public:
  Server(asio::io_context& io, ServerOptions options, Handler handler);
  // Accepts on `io` and hands connections to `connection_ios` in turn
  // (sandboxd runs one io_context per thread, so that a request and the
  // work it waits for stay on one thread).
  Server(asio::io_context& io, std::vector<asio::io_context*> connection_ios, ServerOptions options,
         Handler handler);
  ~Server();

  // Binds and listens; returns the bound endpoint (port 0 picks a free one).
  Result<asio::ip::tcp::endpoint> Listen();
  // Starts accepting (after Listen).
  void Start();
  // Stops accepting and closes open connections. Safe from any thread.
  void Stop();

 private:
  Task<void> AcceptLoop();
  Task<void> Serve(asio::ip::tcp::socket socket);
  static Task<void> LingeringClose(beast::tcp_stream& stream);

  // Open connections, to close on Stop. Shared with the connection
  // coroutines: when sandboxd stops, the io_context may destroy their frames
  // after the Server is gone. Weak entries: a connection that ends first must
  // not be touched by a close posted for it.
  struct Connections {
    std::mutex mu;
    std::map<beast::tcp_stream*, std::weak_ptr<beast::tcp_stream>> streams;
    bool stopping = false;
  };

  asio::io_context& io_;
  std::vector<asio::io_context*> connection_ios_;
  std::size_t next_io_ = 0;  // touched only by the accept loop
  ServerOptions options_;
  Handler handler_;
  asio::ip::tcp::acceptor acceptor_;
  std::shared_ptr<Connections> connections_ = std::make_shared<Connections>();
};

}  // namespace sbx::http
