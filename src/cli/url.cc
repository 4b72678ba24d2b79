#include "cli/url.h"

#include <cctype>
#include <charconv>

namespace sbx::cli {
namespace {

constexpr std::string_view kHttpScheme = "http://";

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

Error BadUrl(std::string_view text, std::string_view why) {
  return MakeError(ErrorCode::kInvalidArgument, "invalid URL '" + std::string(text) +
                                                    "': " + std::string(why) +
                                                    " (expected http://HOST[:PORT][/PREFIX])");
}

}  // namespace

std::string Url::HostHeader() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port != 80) h += ":" + std::to_string(port);
  return h;
}

std::string Url::RequestTarget() const { return target.empty() ? "/" : target; }

Url Url::WithPath(std::string_view path) const {
  Url u = *this;
  u.target += path;
  return u;
}

std::string Url::ToString() const { return "http://" + HostHeader() + target; }

Result<Url> ParseUrl(std::string_view text) {
  if (StartsWithNoCase(text, "https://")) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "https URLs are not supported ('" + std::string(text) +
                         "'): sandboxctl speaks plain HTTP only. Use an http:// URL, e.g. "
                         "through an SSH tunnel (ssh -L 8080:127.0.0.1:8080 HOST) or a local "
                         "TLS-terminating proxy");
  }
  if (!StartsWithNoCase(text, kHttpScheme)) {
    return BadUrl(text, "the scheme must be http://");
  }
  std::string_view rest = text.substr(kHttpScheme.size());
  if (auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  std::size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view target =
      authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos) {
    return BadUrl(text, "user info is not supported; pass the API key with --key");
  }

  Url url;
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return BadUrl(text, "unterminated IPv6 literal");
    url.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return BadUrl(text, "unexpected text after the IPv6 literal");
      port_text = after.substr(1);
      if (port_text.empty()) return BadUrl(text, "empty port");
    }
  } else {
    std::size_t colon = authority.find(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return BadUrl(text, "empty port");
    }
  }
  if (url.host.empty()) return BadUrl(text, "missing host");
  if (!port_text.empty()) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || value == 0 ||
        value > 65535) {
      return BadUrl(text, "port must be a number from 1 to 65535");
    }
    url.port = static_cast<std::uint16_t>(value);
  }
  if (!target.empty() && target.front() == '?') {
    url.target = "/" + std::string(target);
  } else {
    url.target = std::string(target);
  }
  return url;
}

Result<Url> ParseBaseUrl(std::string_view text) {
  auto url = ParseUrl(text);
  if (!url.ok()) return url;
  if (url->target.find('?') != std::string::npos) {
    return BadUrl(text, "a base URL cannot have a query");
  }
  while (!url->target.empty() && url->target.back() == '/') url->target.pop_back();
  return url;
}

Result<Url> ResolveUrl(const Url& base, std::string_view reference) {
  if (!reference.empty() && reference.front() == '/' &&
      (reference.size() == 1 || reference[1] != '/')) {
    Url u = base;
    u.target = std::string(reference);
    return u;
  }
  return ParseUrl(reference);
}

std::string EncodePathSegment(std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  // "." and ".." would be dot-segments that a server or proxy may collapse.
  if (segment == "." || segment == "..") return segment.size() == 1 ? "%2E" : "%2E%2E";
  std::string out;
  out.reserve(segment.size());
  for (unsigned char c : segment) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

}  // namespace sbx::cli
