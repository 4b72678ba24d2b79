// The only translation unit of sandboxctl that includes Asio/Beast: they are
// slow to compile, so everything else sees the plain interface in http_client.h.

// Boost 1.74's Asio uses std::exchange without including <utility>; with
// g++ 12 it must come first (see DESIGN.md, "Known snag").
#include <utility>

#include "cli/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/file.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <limits>
#include <vector>

namespace sbx::cli {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using boost::system::error_code;

constexpr std::uint64_t kMaxInMemoryBody = 64ull << 20;
constexpr std::size_t kUploadChunk = 256 * 1024;
constexpr const char* kUserAgent = "sandboxctl/1";

http::verb ToVerb(Method method) {
  switch (method) {
    case Method::kGet:
      return http::verb::get;
    case Method::kPost:
      return http::verb::post;
    case Method::kPut:
      return http::verb::put;
    case Method::kDelete:
      return http::verb::delete_;
  }
  return http::verb::get;
}

Error Unreachable(const Url& url, std::string_view what, const error_code& ec) {
  std::string message =
      what == "connect" ? "cannot connect to " + url.HostHeader() + ": " + ec.message() +
                              " (is sandboxd running there? set --url or SANDBOXD_URL)"
                        : std::string(what) + " " + url.HostHeader() + " failed: " + ec.message();
  return MakeError(ErrorCode::kUnavailable, message);
}

// One TCP connection to the URL's host. Owns its io_context because
// everything here is synchronous and short-lived.
class Connection {
 public:
  explicit Connection(const Url& url) : url_(url), socket_(io_) {}

  ~Connection() {
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  Status Open() {
    error_code ec;
    tcp::resolver resolver(io_);
    auto endpoints = resolver.resolve(url_.host, std::to_string(url_.port), ec);
    if (ec) {
      return MakeError(ErrorCode::kUnavailable, "cannot resolve host '" + url_.host +
                                                    "': " + ec.message() +
                                                    " (check --url or SANDBOXD_URL)");
    }
    net::connect(socket_, endpoints, ec);
    if (ec) return Unreachable(url_, "connect", ec);
    return Ok();
  }

  tcp::socket& socket() { return socket_; }
  beast::flat_buffer& buffer() { return buffer_; }

  template <class Body>
  void SetCommonFields(http::request<Body>& req, const Headers& headers) const {
    req.set(http::field::host, url_.HostHeader());
    req.set(http::field::user_agent, kUserAgent);
    for (const auto& [name, value] : headers) req.set(name, value);
  }

  // Reads a whole response with a bounded in-memory body.
  Result<HttpResponse> ReadResponse() {
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxInMemoryBody);
    error_code ec;
    http::read(socket_, buffer_, parser, ec);
    if (ec) return Unreachable(url_, "reading the response from", ec);
    return ToResponse(parser.get());
  }

  static HttpResponse ToResponse(http::response<http::string_body>& res) {
    HttpResponse out;
    out.status = static_cast<int>(res.result_int());
    out.content_type = std::string(res[http::field::content_type]);
    out.body = std::move(res.body());
    return out;
  }

 private:
  const Url& url_;
  net::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

}  // namespace

Result<HttpResponse> Send(const Url& url, Method method, const Headers& headers,
                          const std::string& body) {
  Connection conn(url);
  if (auto st = conn.Open(); !st.ok()) return st.error();
  http::request<http::string_body> req{ToVerb(method), url.RequestTarget(), 11};
  conn.SetCommonFields(req, headers);
  req.body() = body;
  // POST and PUT always carry Content-Length (0 included): some servers and
  // proxies refuse them without it (411). GET and DELETE carry it only with a
  // body, as RFC 9110 asks.
  if (!body.empty() || method == Method::kPost || method == Method::kPut) {
    req.content_length(body.size());
  }
  error_code ec;
  http::write(conn.socket(), req, ec);
  if (ec) return Unreachable(url, "sending the request to", ec);
  return conn.ReadResponse();
}

Result<HttpResponse> PutFile(const Url& url, const Headers& headers, const std::string& path,
                             const TransferProgress& progress) {
  error_code ec;
  beast::file file;
  file.open(path.c_str(), beast::file_mode::scan, ec);
  if (ec) return MakeError(ErrorCode::kInternal, "cannot open " + path + ": " + ec.message());
  std::uint64_t size = file.size(ec);
  if (ec) return MakeError(ErrorCode::kInternal, "cannot stat " + path + ": " + ec.message());

  Connection conn(url);
  if (auto st = conn.Open(); !st.ok()) return st.error();

  // buffer_body lets us hand the serializer one chunk read from disk at a
  // time, so the archive is never held in memory and progress is exact.
  http::request<http::buffer_body> req{http::verb::put, url.RequestTarget(), 11};
  conn.SetCommonFields(req, headers);
  req.content_length(size);
  req.body().data = nullptr;
  req.body().more = true;
  http::request_serializer<http::buffer_body> serializer{req};

  // A server may reject the request from its headers alone and close while
  // we are still sending; its answer says why, so prefer it to the write error.
  auto on_write_error = [&](const error_code& write_ec) -> Result<HttpResponse> {
    auto answer = conn.ReadResponse();
    if (answer.ok()) return answer;
    return Unreachable(url, "uploading to", write_ec);
  };

  http::write_header(conn.socket(), serializer, ec);
  if (ec) return on_write_error(ec);

  std::vector<char> chunk(kUploadChunk);
  std::uint64_t sent = 0;
  if (progress) progress(0, size);
  while (sent < size) {
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), size - sent));
    std::size_t got = file.read(chunk.data(), want, ec);
    if (ec || got == 0) {
      return MakeError(ErrorCode::kInternal, "reading " + path + " failed" +
                                                 (ec ? ": " + ec.message() : ": file shrank"));
    }
    req.body().data = chunk.data();
    req.body().size = got;
    req.body().more = sent + got < size;
    http::write(conn.socket(), serializer, ec);
    // need_buffer means "chunk sent, give me the next one", not a failure.
    if (ec == http::error::need_buffer) ec = {};
    if (ec) return on_write_error(ec);
    sent += got;
    if (progress) progress(sent, size);
  }
  if (!serializer.is_done()) {
    // An empty file: the body still has to be finished.
    req.body().data = nullptr;
    req.body().size = 0;
    req.body().more = false;
    http::write(conn.socket(), serializer, ec);
    if (ec == http::error::need_buffer) ec = {};
    if (ec) return on_write_error(ec);
  }
  return conn.ReadResponse();
}

Result<HttpResponse> GetToFile(const Url& url, const Headers& headers, const std::string& out_path,
                               const TransferProgress& progress) {
  Connection conn(url);
  if (auto st = conn.Open(); !st.ok()) return st.error();
  http::request<http::empty_body> req{http::verb::get, url.RequestTarget(), 11};
  conn.SetCommonFields(req, headers);
  error_code ec;
  http::write(conn.socket(), req, ec);
  if (ec) return Unreachable(url, "sending the request to", ec);

  // Read the header first: only a 2xx body belongs in the file, an error
  // body is wanted in memory for the message.
  http::response_parser<http::empty_body> header_parser;
  // The limit is checked against Content-Length as soon as the header is
  // parsed, so it must be lifted here already; an error body gets its own
  // bound below. A workspace archive can be many GiB. Not boost::none: in
  // Boost 1.74 that compares as "less than any length" (optional ordering)
  // and rejects every response with a Content-Length.
  header_parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  http::read_header(conn.socket(), conn.buffer(), header_parser, ec);
  if (ec) return Unreachable(url, "reading the response from", ec);
  int status = static_cast<int>(header_parser.get().result_int());
  if (status / 100 != 2) {
    http::response_parser<http::string_body> error_parser{std::move(header_parser)};
    error_parser.body_limit(kMaxInMemoryBody);
    http::read(conn.socket(), conn.buffer(), error_parser, ec);
    if (ec) return Unreachable(url, "reading the response from", ec);
    return Connection::ToResponse(error_parser.get());
  }

  http::response_parser<http::file_body> parser{std::move(header_parser)};
  // Opened before reading so that an empty body still yields an empty file.
  parser.get().body().open(out_path.c_str(), beast::file_mode::write, ec);
  if (ec) return MakeError(ErrorCode::kInternal, "cannot create " + out_path + ": " + ec.message());
  HttpResponse out;
  out.status = status;
  out.content_type = std::string(parser.get()[http::field::content_type]);

  std::optional<std::uint64_t> total;
  if (auto length = parser.content_length()) total = *length;
  if (progress) progress(0, total);
  while (!parser.is_done()) {
    http::read_some(conn.socket(), conn.buffer(), parser, ec);
    if (ec) return Unreachable(url, "downloading from", ec);
    if (progress) {
      error_code pos_ec;
      std::uint64_t written = parser.get().body().file().pos(pos_ec);
      if (!pos_ec) progress(written, total);
    }
  }
  parser.get().body().close();
  return out;
}

}  // namespace sbx::cli
