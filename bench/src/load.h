// The load generator of the MCP benchmark: raw keep-alive HTTP/1.1
// connections driven by one epoll thread, one request in flight per
// connection (no pipelining), so N connections keep N requests outstanding.
// A blocking round trip on the same connection serves the set-up (MCP
// initialize). Requests are pre-built byte strings; a reply is parsed only
// as far as the status line, Content-Length and Mcp-Session-Id, so the
// client's own cost per call stays a few microseconds (it is measured and
// printed, see LoadResult::client_cpu_s).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

struct Reply {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;
  // The value of header `name` (case-insensitive), "" if absent.
  std::string Header(std::string_view name) const;
};

// One TCP connection to HOST:PORT (IPv4), TCP_NODELAY. Not thread-safe.
// Throws std::runtime_error on transport errors and on replies it cannot
// frame (chunked, no Content-Length, Connection: close).
class RawConn {
 public:
  explicit RawConn(const std::string& addr);
  ~RawConn();
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  // Sends `request` (complete bytes) and reads one reply, blocking.
  Reply RoundTrip(const std::string& request);

  int fd() const { return fd_; }
  // Bytes read and not yet consumed as a reply (the load loop's buffer).
  std::string& pending() { return in_; }

 private:
  int fd_ = -1;
  std::string in_;
};

// Incremental framing of one reply at the front of `buf`: returns the bytes
// it spans once complete (and fills `out` if not null), nullopt while
// incomplete. `head_end`/`length` cache the parse between calls (start at 0
// and -1). Throws on what it cannot frame.
std::optional<std::size_t> FrameReply(std::string_view buf, std::size_t& head_end, long& length, Reply* out);

// HTTP/1.1 request bytes. `headers` are full lines without CRLF.
std::string BuildRequest(std::string_view method, std::string_view target, std::string_view host,
                         const std::vector<std::string>& headers, std::string_view body);

struct LoadSpec {
  long warmup_per_conn = 100;  // each connection's calls before the clock starts
  long calls = 5000;           // measured calls, over all connections
  // The bytes of the request with JSON-RPC id `id` on connection `conn`.
  std::function<std::string(std::size_t conn, long id)> request;
  // Whether a reply is what the benchmark expects (status and body).
  std::function<bool(int status, std::string_view body)> good;
  // Called once when the warm-up is over, just before the clock starts.
  std::function<void()> on_start;
};

struct LoadResult {
  std::vector<double> latency_ms;  // one per measured call, send -> whole reply read
  double wall_s = 0;               // first measured send -> last measured reply
  double client_cpu_s = 0;         // this process's user+system CPU over the measured part
  long bad = 0;                    // replies `good` refused
  std::string first_bad;           // the first of them (status and body start)
};

// Runs the warm-up on every connection (each sends `warmup_per_conn`
// requests back to back), waits until all have finished it, then starts the
// clock and sends on every connection at once; each connection sends its next
// request as soon as its reply is in, until `calls` replies have come back.
// Blocks; throws on transport errors or when no reply arrives for 60 s.
LoadResult RunLoad(const std::vector<std::unique_ptr<RawConn>>& conns, const LoadSpec& spec);

}  // namespace bench
