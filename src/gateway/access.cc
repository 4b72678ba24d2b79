#include "gateway/access.h"

#include <algorithm>
#include <cctype>

namespace sbx::gateway {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "host[:port]" → {host, port or ""}; IPv6 hosts keep their brackets.
std::pair<std::string, std::string> SplitAuthority(std::string_view authority) {
  std::string a = Lower(authority);
  if (!a.empty() && a.front() == '[') {
    auto close = a.find(']');
    if (close == std::string::npos) return {a, ""};
    std::string port = close + 1 < a.size() && a[close + 1] == ':' ? a.substr(close + 2) : "";
    return {a.substr(0, close + 1), port};
  }
  auto colon = a.rfind(':');
  if (colon == std::string::npos) return {a, ""};
  return {a.substr(0, colon), a.substr(colon + 1)};
}

bool IsLoopbackName(const std::string& host) {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

}  // namespace

OriginPolicy::OriginPolicy(const std::string& public_url) {
  std::string_view url = public_url;
  auto sep = url.find("://");
  scheme_ = sep == std::string_view::npos ? "http" : Lower(url.substr(0, sep));
  std::string_view rest = sep == std::string_view::npos ? url : url.substr(sep + 3);
  rest = rest.substr(0, rest.find('/'));
  auto [host, port] = SplitAuthority(rest);
  host_ = host;
  port_ = port.empty() ? (scheme_ == "https" ? "443" : "80") : port;
  loopback_ = IsLoopbackName(host_);
}

bool OriginPolicy::HostAllowed(std::string_view authority) const {
  auto [host, port] = SplitAuthority(Trim(authority));
  if (port.empty()) port = scheme_ == "https" ? "443" : "80";
  if (port != port_) return false;
  return host == host_ || (loopback_ && IsLoopbackName(host));
}

std::optional<std::string> OriginPolicy::Check(std::string_view host, std::string_view origin) const {
  if (host.empty()) return "the request has no Host header";
  if (!HostAllowed(host))
    return "Host '" + std::string(host) + "' is not this server's public address; use the mcp_server_url as given";
  origin = Trim(origin);
  if (origin.empty()) return std::nullopt;  // not from a browser
  auto sep = origin.find("://");
  if (sep == std::string_view::npos || Lower(origin.substr(0, sep)) != scheme_ || !HostAllowed(origin.substr(sep + 3)))
    return "Origin '" + std::string(origin) + "' may not use this server; requests from web pages must come from " +
           scheme_ + "://" + host_ + ":" + port_;
  return std::nullopt;
}

Acceptable ParseAccept(std::string_view accept) {
  Acceptable out;
  if (Trim(accept).empty()) return {true, true};  // no preference stated
  while (!accept.empty()) {
    auto comma = accept.find(',');
    std::string_view item = Trim(accept.substr(0, comma));
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
    std::string type = Lower(Trim(item.substr(0, item.find(';'))));
    // A media range with q=0 refuses the type.
    if (auto q = Lower(item).find("q=0"); q != std::string::npos && item.find_first_of("123456789", q) == std::string_view::npos)
      continue;
    if (type == "*/*") out = {true, true};
    if (type == "application/*" || type == "application/json") out.json = true;
    if (type == "text/*" || type == "text/event-stream") out.event_stream = true;
  }
  return out;
}

}  // namespace sbx::gateway
