// A minimal synchronous HTTP/1.1 client over one keep-alive TCP connection
// (Boost.Beast). One Client per thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/verb.hpp>

namespace bench {

struct Response {
  int status = 0;
  std::string body;
};

class Client {
 public:
  // `addr` is HOST:PORT (IPv4); `key` the bearer token ("" for none).
  Client(const std::string& addr, std::string key);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  void Connect();  // opens the connection now (otherwise on first use)
  // Sends one request and reads the whole answer. GET and DELETE are retried
  // once on a fresh connection if the kept-alive one turned out closed;
  // POST and PUT are never retried (the server may have acted on them). Throws
  // std::runtime_error on transport errors.
  Response Do(boost::beast::http::verb verb, const std::string& target, const std::string& body = "",
             const std::string& content_type = "application/json");

  Response Get(const std::string& target) { return Do(boost::beast::http::verb::get, target); }
  Response Post(const std::string& target, const std::string& body) {
    return Do(boost::beast::http::verb::post, target, body);
  }
  Response Delete(const std::string& target) { return Do(boost::beast::http::verb::delete_, target); }
  Response Put(const std::string& target, const std::string& body, const std::string& content_type) {
    return Do(boost::beast::http::verb::put, target, body, content_type);
  }

 private:
  Response Once(boost::beast::http::verb verb, const std::string& target, const std::string& body,
               const std::string& content_type);
  void Close();

  std::string host_;
  std::string key_;
  boost::asio::io_context* io_;
  boost::asio::ip::tcp::endpoint endpoint_;
  std::unique_ptr<boost::asio::ip::tcp::socket> socket_;
  boost::beast::flat_buffer buffer_;
  std::chrono::steady_clock::time_point last_used_{};
};

}  // namespace bench
