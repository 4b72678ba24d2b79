// URLs as sandboxctl needs them: the base URL of a sandboxd (--url) and the
// signed object URLs it hands out. Only plain http:// is spoken, because the
// client is a synchronous Beast client without TLS; an https URL is refused
// with a message saying what to do instead, rather than failing obscurely at
// connect time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::cli {

struct Url {
  std::string host;         // name or IP literal; IPv6 without brackets
  std::uint16_t port = 80;  // 80 when the URL names none
  // Path and query. For a base URL it is the path prefix with trailing
  // slashes removed ("" for the root), so appending "/local-sandbox" works
  // whatever the user typed; for a full URL it is what goes on the request line.
  std::string target;

  // The Host header value: "host" or "host:port", IPv6 in brackets.
  std::string HostHeader() const;
  // The request line target for this URL ("/" when `target` is empty).
  std::string RequestTarget() const;
  // This base URL with `path` (starting with '/') appended to its prefix.
  Url WithPath(std::string_view path) const;
  // "http://host[:port]target", for messages.
  std::string ToString() const;
};

// Parses "http://HOST[:PORT][/PATH][?QUERY]". A fragment is dropped.
// Errors (kInvalidArgument): another scheme (https gets its own message),
// user info, an empty host, a bad port.
Result<Url> ParseUrl(std::string_view text);

// Parses `text` as a base URL: like ParseUrl, but the path is a prefix (no
// query allowed) whose trailing slashes are dropped.
Result<Url> ParseBaseUrl(std::string_view text);

// Resolves a URL the server returned (a signed object URL) against the base
// it came from: an absolute-path reference ("/objects/...") keeps the base's
// host and port; anything else must be a full http:// URL.
Result<Url> ResolveUrl(const Url& base, std::string_view reference);

// Percent-encodes one path segment (RFC 3986 unreserved characters pass), so
// that an id typed by the user can never add path segments or a query.
std::string EncodePathSegment(std::string_view segment);

}  // namespace sbx::cli
