// Test-only helpers for the http tests: a real Server on 127.0.0.1:0 driven
// by an io_context on a background thread, and a raw TCP client that writes
// literal HTTP/1.1 bytes and parses responses itself, so every byte on the
// wire is under the test's control.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "http/asio.h"
#include "http/router.h"
#include "http/server.h"

namespace sbx::http::testing {

// A Server with its own io_context thread. Stop() closes connections and
// waits for every connection coroutine to finish, so nothing outlives it.
class TestServer {
 public:
  explicit TestServer(Handler handler, ServerOptions options = {}, int io_threads = 1) {
    options.host = "127.0.0.1";
    options.port = 0;
    server_ = std::make_unique<Server>(io_, options, std::move(handler));
    auto endpoint = server_->Listen();
    if (!endpoint.ok()) {
      ADD_FAILURE() << "listen: " << endpoint.error().message;
      return;
    }
    port_ = endpoint->port();
    server_->Start();
    for (int i = 0; i < io_threads; ++i) threads_.emplace_back([this] { io_.run(); });
  }
  // Serves `router` (which must outlive the server).
  explicit TestServer(const Router& router, ServerOptions options = {}, int io_threads = 1)
      : TestServer([&router](Exchange& ex) { return router.Dispatch(ex); }, std::move(options),
                   io_threads) {}

  ~TestServer() { Stop(); }

  void Stop() { StopNow(); }

  void StopNow() {
    if (!server_) return;
    server_->Stop();
    guard_.reset();
    for (auto& t : threads_) t.join();
    threads_.clear();
    server_.reset();
  }

  std::uint16_t port() const { return port_; }
  Server& server() { return *server_; }
  asio::io_context& io() { return io_; }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_{io_.get_executor()};
  std::unique_ptr<Server> server_;
  std::uint16_t port_ = 0;
  std::vector<std::thread> threads_;
};

struct RawResponse {
  std::string status_line;  // "HTTP/1.1 200 OK"
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // First value of a header (case-insensitive name), or nullopt.
  std::optional<std::string> Header(std::string_view name) const {
    for (const auto& [k, v] : headers)
      if (k.size() == name.size() && ::strncasecmp(k.data(), name.data(), name.size()) == 0)
        return v;
    return std::nullopt;
  }
};

// A blocking TCP client with a receive timeout (a hung server fails the test
// instead of hanging it).
class RawConnection {
 public:
  explicit RawConnection(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    timeval tv{10, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      ADD_FAILURE() << "connect: " << std::strerror(errno);
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  void Write(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ADD_FAILURE() << "send: " << std::strerror(errno);
        return;
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  // Reads exactly up to and including the first "\r\n\r\n".
  std::optional<std::string> ReadHead() {
    for (;;) {
      std::size_t end = buf_.find("\r\n\r\n");
      if (end != std::string::npos) {
        std::string head = buf_.substr(0, end + 4);
        buf_.erase(0, end + 4);
        return head;
      }
      if (!Fill()) return std::nullopt;
    }
  }

  // One response: head plus a Content-Length body (what Beast sends for
  // string and file bodies). nullopt if the connection ended first.
  std::optional<RawResponse> ReadResponse() {
    auto head = ReadHead();
    if (!head) return std::nullopt;
    RawResponse r;
    std::size_t line_end = head->find("\r\n");
    r.status_line = head->substr(0, line_end);
    if (r.status_line.size() >= 12) r.status = std::stoi(r.status_line.substr(9, 3));
    std::size_t pos = line_end + 2;
    while (pos < head->size()) {
      std::size_t eol = head->find("\r\n", pos);
      if (eol == pos) break;
      std::string line = head->substr(pos, eol - pos);
      std::size_t colon = line.find(':');
      std::string value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      r.headers.emplace_back(line.substr(0, colon), value);
      pos = eol + 2;
    }
    std::size_t length = r.Header("Content-Length") ? std::stoull(*r.Header("Content-Length")) : 0;
    while (buf_.size() < length)
      if (!Fill()) return std::nullopt;
    r.body = buf_.substr(0, length);
    buf_.erase(0, length);
    return r;
  }

  // True if the peer closed the connection (EOF or reset) with nothing more
  // to read; false if more bytes arrived or the read timed out.
  bool Closed() {
    if (!buf_.empty()) return false;
    char c;
    ssize_t n = ::recv(fd_, &c, 1, 0);
    if (n == 0) return true;
    if (n < 0 && errno == ECONNRESET) return true;
    if (n > 0) buf_.push_back(c);
    return false;
  }

  void ShutdownWrite() { ::shutdown(fd_, SHUT_WR); }

 private:
  bool Fill() {
    char tmp[65536];
    for (;;) {
      ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      buf_.append(tmp, static_cast<std::size_t>(n));
      return true;
    }
  }

  int fd_ = -1;
  std::string buf_;
};

// "METHOD target HTTP/1.1" with Host, the extra header lines and, when
// `body` is given, a Content-Length.
inline std::string RequestBytes(std::string_view method, std::string_view target,
                                std::optional<std::string_view> body = std::nullopt,
                                std::string_view extra_headers = "") {
  std::string out = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: t\r\n";
  out += extra_headers;
  if (body) out += "Content-Length: " + std::to_string(body->size()) + "\r\n";
  out += "\r\n";
  if (body) out += *body;
  return out;
}

// Sends one request on a fresh connection and reads the response.
inline RawResponse RoundTrip(std::uint16_t port, const std::string& bytes) {
  RawConnection c(port);
  c.Write(bytes);
  auto r = c.ReadResponse();
  if (!r) {
    ADD_FAILURE() << "no response to: " << bytes.substr(0, 200);
    return {};
  }
  return *r;
}

}  // namespace sbx::http::testing
