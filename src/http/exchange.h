// One HTTP request and its response on a connection.
//
// The connection reads the request head; the handler decides how to take the
// body (whole, bounded, or streamed to a file descriptor) and answers exactly
// once with Send / SendFile. If the handler answers without consuming the
// body, the connection is closed after the response (the unread bytes would
// otherwise be parsed as the next request).
//
// Not thread-safe: used only by the coroutine serving its connection.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "http/asio.h"

namespace sbx::http {

struct Response {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// Query parameters in order of appearance, percent-decoded.
class QueryParams {
 public:
  explicit QueryParams(std::string_view raw_query);
  // The last value given for `name` (FastAPI's behaviour for scalar params).
  std::optional<std::string> Get(std::string_view name) const;
  const std::vector<std::pair<std::string, std::string>>& all() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// Percent-decodes `s` ('+' is kept as is in paths, a space in queries).
std::string PercentDecode(std::string_view s, bool plus_is_space);

class Exchange {
 public:
  using Parser = bhttp::request_parser<bhttp::buffer_body>;

  Exchange(beast::tcp_stream& stream, beast::flat_buffer& buffer, Parser& parser,
           std::chrono::seconds body_timeout);

  bhttp::verb method() const { return parser_.get().method(); }
  std::string_view method_string() const { return parser_.get().method_string(); }
  std::string_view target() const { return parser_.get().target(); }
  // The target's path, not decoded (the router decodes per segment).
  std::string_view path() const { return path_; }
  const QueryParams& query() const { return query_; }
  // Value of a request header, or "" if absent.
  std::string_view header(std::string_view name) const;
  std::optional<std::uint64_t> content_length() const;
  bool keep_alive() const { return parser_.get().keep_alive(); }

  // Path parameters captured by the router ({name} segments), decoded.
  std::map<std::string, std::string, std::less<>>& params() { return params_; }
  const std::string& param(std::string_view name) const;

  // Reads the whole body, at most `limit` bytes (kTooLarge beyond; the
  // connection will close after the response). kUnavailable if the peer
  // went away or timed out.
  Task<Result<std::string>> ReadBody(std::uint64_t limit);
  // Streams the body to `fd` in chunks; returns the byte count. Same errors,
  // plus kInternal if writing to fd fails.
  Task<Result<std::uint64_t>> ReadBodyToFd(int fd, std::uint64_t limit);

  Task<void> Send(Response response);
  // Sends the file at `path` with `content_type`. If the file cannot be
  // opened a 404 JSON error is sent instead.
  Task<void> SendFile(std::string path, std::string content_type,
                      std::vector<std::pair<std::string, std::string>> headers = {});

  // A streamed response (chunked transfer encoding), for Server-Sent Events:
  // BeginStream sends the head (the body of `head` is ignored), SendChunk one
  // piece as soon as it is ready, EndStream the last chunk. Each returns false
  // once the peer is gone; the connection then closes.
  Task<bool> BeginStream(Response head);
  Task<bool> SendChunk(std::string data);
  Task<bool> EndStream();

  bool responded() const { return responded_; }
  // False once the body was left unread or broken: the connection must close.
  bool reusable() const;

 private:
  Task<Status> SendContinueIfExpected();
  template <class Sink>
  Task<Result<std::uint64_t>> ReadBodyChunks(std::uint64_t limit, Sink&& sink);

  beast::tcp_stream& stream_;
  beast::flat_buffer& buffer_;
  Parser& parser_;
  std::chrono::seconds body_timeout_;
  std::string_view path_;
  QueryParams query_;
  std::map<std::string, std::string, std::less<>> params_;
  bool responded_ = false;
  bool continue_sent_ = false;
  bool broken_ = false;
};

// A JSON error body {"detail": message}.
Response JsonError(unsigned status, std::string_view detail);

}  // namespace sbx::http
