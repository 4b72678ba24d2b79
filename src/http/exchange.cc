#include "http/exchange.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/json.h"

namespace sbx::http {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string PercentDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%' && i + 2 < s.size()) {
      int hi = HexValue(s[i + 1]), lo = HexValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

QueryParams::QueryParams(std::string_view raw) {
  while (!raw.empty()) {
    std::size_t amp = raw.find('&');
    std::string_view item = raw.substr(0, amp);
    raw = amp == std::string_view::npos ? std::string_view() : raw.substr(amp + 1);
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    std::string_view key = item.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    items_.emplace_back(PercentDecode(key, true), PercentDecode(value, true));
  }
}

std::optional<std::string> QueryParams::Get(std::string_view name) const {
  std::optional<std::string> found;
  for (const auto& [k, v] : items_)
    if (k == name) found = v;
  return found;
}

Exchange::Exchange(beast::tcp_stream& stream, beast::flat_buffer& buffer, Parser& parser,
                   std::chrono::seconds body_timeout)
    : stream_(stream),
      buffer_(buffer),
      parser_(parser),
      body_timeout_(body_timeout),
      query_(std::string_view()) {
  std::string_view t = parser_.get().target();
  std::size_t q = t.find('?');
  path_ = t.substr(0, q);
  if (q != std::string_view::npos) query_ = QueryParams(t.substr(q + 1));
}

std::string_view Exchange::header(std::string_view name) const {
  auto it = parser_.get().find(beast::string_view(name.data(), name.size()));
  if (it == parser_.get().end()) return {};
  return it->value();
}

std::optional<std::uint64_t> Exchange::content_length() const {
  auto len = parser_.content_length();
  if (!len) return std::nullopt;
  return *len;
}

const std::string& Exchange::param(std::string_view name) const {
  static const std::string kEmpty;
  auto it = params_.find(name);
  return it == params_.end() ? kEmpty : it->second;
}

bool Exchange::reusable() const { return !broken_ && parser_.is_done(); }

Task<Status> Exchange::SendContinueIfExpected() {
  if (continue_sent_) co_return Ok();
  continue_sent_ = true;
  if (!beast::iequals(header("Expect"), "100-continue")) co_return Ok();
  bhttp::response<bhttp::empty_body> cont{bhttp::status::continue_, parser_.get().version()};
  beast::error_code ec;
  stream_.expires_after(body_timeout_);
  co_await bhttp::async_write(stream_, cont, asio::redirect_error(asio::use_awaitable, ec));
  if (ec) {
    broken_ = true;
    co_return MakeError(ErrorCode::kUnavailable, "client connection lost: " + ec.message());
  }
  co_return Ok();
}

template <class Sink>
Task<Result<std::uint64_t>> Exchange::ReadBodyChunks(std::uint64_t limit, Sink&& sink) {
  if (parser_.is_done()) co_return std::uint64_t{0};
  if (auto len = parser_.content_length(); len && *len > limit) {
    broken_ = true;
    co_return MakeError(ErrorCode::kTooLarge, "request body of " + std::to_string(*len) +
                                                  " bytes exceeds the limit of " +
                                                  std::to_string(limit) + " bytes");
  }
  if (auto s = co_await SendContinueIfExpected(); !s) co_return s.error();
  std::vector<char> buf(64 * 1024);
  std::uint64_t total = 0;
  while (!parser_.is_done()) {
    parser_.get().body().data = buf.data();
    parser_.get().body().size = buf.size();
    beast::error_code ec;
    stream_.expires_after(body_timeout_);
    co_await bhttp::async_read(stream_, buffer_, parser_, asio::redirect_error(asio::use_awaitable, ec));
    if (ec == bhttp::error::need_buffer) ec = {};
    if (ec) {
      broken_ = true;
      co_return MakeError(ErrorCode::kUnavailable, "request body not received: " + ec.message());
    }
    std::size_t got = buf.size() - parser_.get().body().size;
    total += got;
    if (total > limit) {
      broken_ = true;
      co_return MakeError(ErrorCode::kTooLarge,
                          "request body exceeds the limit of " + std::to_string(limit) + " bytes");
    }
    if (got > 0) {
      if (Status s = sink(buf.data(), got); !s) {
        broken_ = true;
        co_return s.error();
      }
    }
  }
  co_return total;
}

Task<Result<std::string>> Exchange::ReadBody(std::uint64_t limit) {
  std::string body;
  auto append = [&body](const char* data, std::size_t n) -> Status {
    body.append(data, n);
    return Ok();
  };
  auto r = co_await ReadBodyChunks(limit, append);
  if (!r) co_return r.error();
  co_return body;
}

Task<Result<std::uint64_t>> Exchange::ReadBodyToFd(int fd, std::uint64_t limit) {
  auto write_all = [fd](const char* data, std::size_t n) -> Status {
    std::size_t off = 0;
    while (off < n) {
      ssize_t w = ::write(fd, data + off, n - off);
      if (w < 0) {
        if (errno == EINTR) continue;
        return MakeError(ErrorCode::kInternal, std::string("write failed: ") + std::strerror(errno));
      }
      off += static_cast<std::size_t>(w);
    }
    return Ok();
  };
  co_return co_await ReadBodyChunks(limit, write_all);
}

Task<void> Exchange::Send(Response r) {
  responded_ = true;
  bhttp::response<bhttp::string_body> res{static_cast<bhttp::status>(r.status),
                                          parser_.get().version()};
  res.set(bhttp::field::server, "sandboxd");
  if (!r.content_type.empty()) res.set(bhttp::field::content_type, r.content_type);
  for (auto& [k, v] : r.headers) res.set(k, v);
  res.body() = std::move(r.body);
  res.keep_alive(parser_.get().keep_alive() && reusable());
  res.prepare_payload();
  beast::error_code ec;
  stream_.expires_after(body_timeout_);
  co_await bhttp::async_write(stream_, res, asio::redirect_error(asio::use_awaitable, ec));
  if (ec) broken_ = true;
}

Task<bool> Exchange::BeginStream(Response r) {
  responded_ = true;
  bhttp::response<bhttp::empty_body> res{static_cast<bhttp::status>(r.status), parser_.get().version()};
  res.set(bhttp::field::server, "sandboxd");
  if (!r.content_type.empty()) res.set(bhttp::field::content_type, r.content_type);
  for (auto& [k, v] : r.headers) res.set(k, v);
  res.keep_alive(parser_.get().keep_alive() && reusable());
  res.chunked(true);
  bhttp::response_serializer<bhttp::empty_body> serializer{res};
  beast::error_code ec;
  stream_.expires_after(body_timeout_);
  co_await bhttp::async_write_header(stream_, serializer, asio::redirect_error(asio::use_awaitable, ec));
  if (ec) broken_ = true;
  co_return !ec;
}

Task<bool> Exchange::SendChunk(std::string data) {
  if (broken_) co_return false;
  if (data.empty()) co_return true;  // an empty chunk would end the stream
  beast::error_code ec;
  stream_.expires_after(body_timeout_);
  co_await asio::async_write(stream_, bhttp::make_chunk(asio::buffer(data)),
                             asio::redirect_error(asio::use_awaitable, ec));
  if (ec) broken_ = true;
  co_return !ec;
}

Task<bool> Exchange::EndStream() {
  if (broken_) co_return false;
  beast::error_code ec;
  stream_.expires_after(body_timeout_);
  co_await asio::async_write(stream_, bhttp::make_chunk_last(), asio::redirect_error(asio::use_awaitable, ec));
  if (ec) broken_ = true;
  co_return !ec;
}

Task<void> Exchange::SendFile(std::string path, std::string content_type,
                              std::vector<std::pair<std::string, std::string>> headers) {
  bhttp::file_body::value_type file;
  beast::error_code ec;
  file.open(path.c_str(), beast::file_mode::scan, ec);
  if (ec) {
    co_await Send(JsonError(404, "The requested object no longer exists"));
    co_return;
  }
  responded_ = true;
  bhttp::response<bhttp::file_body> res{bhttp::status::ok, parser_.get().version()};
  res.set(bhttp::field::server, "sandboxd");
  res.set(bhttp::field::content_type, content_type);
  for (auto& [k, v] : headers) res.set(k, v);
  res.body() = std::move(file);
  res.keep_alive(parser_.get().keep_alive() && reusable());
  res.prepare_payload();
  // Large downloads take long: the timeout guards progress (each chunk), not
  // the whole transfer.
  bhttp::response_serializer<bhttp::file_body> serializer{res};
  while (!serializer.is_done()) {
    stream_.expires_after(body_timeout_);
    co_await bhttp::async_write_some(stream_, serializer,
                                     asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      broken_ = true;
      break;
    }
  }
}

Response JsonError(unsigned status, std::string_view detail) {
  Json body = {{"detail", detail}};
  return Response{status, "application/json", body.dump(), {}};
}

}  // namespace sbx::http
