// A small synchronous HTTP/1.1 client (Boost.Beast over plain TCP) for
// sandboxctl: one connection per request, which is all a command-line tool
// making a handful of calls needs, and which keeps failure handling simple.
//
// Failures are values:
// - kUnavailable: the server could not be reached or the connection broke
//   (resolve, connect, send or receive failed) — sandboxctl exits 2 on it;
// - kInternal: a local file could not be read or written;
// - any HTTP status, 4xx/5xx included, is a successful exchange returned in
//   HttpResponse; interpreting it is the caller's business.
// No timeouts are set: initialize and dump of large workspaces can take long,
// and an interrupted terminal command is the user's call (Ctrl-C).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/url.h"
#include "core/result.h"

namespace sbx::cli {

enum class Method { kGet, kPost, kPut, kDelete };

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpResponse {
  int status = 0;
  std::string content_type;
  // The body, except for a successful GetToFile (then it went to the file).
  std::string body;
};

// Called with the bytes transferred so far and the total when known.
using TransferProgress =
    std::function<void(std::uint64_t done, std::optional<std::uint64_t> total)>;

// Sends `body` (with Content-Length; for POST and PUT also when empty) and reads the whole
// response. Bodies over 64 MiB are refused: API responses are small JSON.
Result<HttpResponse> Send(const Url& url, Method method, const Headers& headers,
                          const std::string& body);

// PUTs the file at `path` as the body, streamed from disk in chunks with its
// size as Content-Length. If the server answers before taking the whole body
// (a 403 for an expired URL, a 413 over the cap) and closes, that answer is
// returned rather than the broken-pipe error.
Result<HttpResponse> PutFile(const Url& url, const Headers& headers, const std::string& path,
                             const TransferProgress& progress = {});

// GETs `url`. On a 2xx response the body is streamed into `out_path`
// (created or truncated, no size limit); on any other status nothing is
// written and the (bounded) body is returned for the error message. On a
// failure mid-body, `out_path` holds a partial file: callers download to a
// temporary name.
Result<HttpResponse> GetToFile(const Url& url, const Headers& headers, const std::string& out_path,
                               const TransferProgress& progress = {});

}  // namespace sbx::cli
