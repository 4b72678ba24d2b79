#include "http_client.h"

#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

namespace bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

Client::Client(const std::string& addr, std::string key) : key_(std::move(key)), io_(new asio::io_context) {
  auto colon = addr.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("address wants HOST:PORT: " + addr);
  host_ = addr;
  endpoint_ = tcp::endpoint(asio::ip::make_address(addr.substr(0, colon)),
                            static_cast<unsigned short>(std::stoi(addr.substr(colon + 1))));
}

Client::~Client() {
  Close();
  delete io_;
}

void Client::Close() {
  if (socket_) {
    boost::system::error_code ec;
    socket_->shutdown(tcp::socket::shutdown_both, ec);
    socket_->close(ec);
    socket_.reset();
  }
  buffer_.clear();
}

void Client::Connect() {
  Close();
  socket_ = std::make_unique<tcp::socket>(*io_);
  socket_->connect(endpoint_);
  socket_->set_option(tcp::no_delay(true));
  last_used_ = std::chrono::steady_clock::now();
}

Response Client::Once(bhttp::verb verb, const std::string& target, const std::string& body,
                      const std::string& content_type) {
  bhttp::request<bhttp::string_body> req{verb, target, 11};
  req.set(bhttp::field::host, host_);
  req.keep_alive(true);
  if (!key_.empty()) req.set(bhttp::field::authorization, "Bearer " + key_);
  if (verb == bhttp::verb::post || !body.empty()) {
    req.set(bhttp::field::content_type, content_type);
    req.body() = body;
  }
  req.prepare_payload();
  bhttp::write(*socket_, req);
  bhttp::response<bhttp::string_body> res;
  bhttp::read(*socket_, buffer_, res);
  Response out{static_cast<int>(res.result_int()), std::move(res.body())};
  if (!res.keep_alive()) Close();
  last_used_ = std::chrono::steady_clock::now();
  return out;
}

Response Client::Do(bhttp::verb verb, const std::string& target, const std::string& body,
                    const std::string& content_type) {
  // The server closes connections idle for 30 s; do not send a POST on one
  // that may be about to close.
  if (socket_ && std::chrono::steady_clock::now() - last_used_ > std::chrono::seconds(10)) Close();
  bool retry = verb == bhttp::verb::get || verb == bhttp::verb::delete_;
  for (int attempt = 0;; ++attempt) {
    bool fresh = !socket_;
    try {
      if (!socket_) Connect();
      return Once(verb, target, body, content_type);
    } catch (const boost::system::system_error& e) {
      Close();
      if (!retry || fresh || attempt > 0)
        throw std::runtime_error(std::string(bhttp::to_string(verb)) + " " + target + ": " + e.what());
    }
  }
}

}  // namespace bench
