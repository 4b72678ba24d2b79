// Who may talk to a sandbox's MCP endpoint, and from where.
//
// Host and Origin are checked against the configured public URL, so a web
// page on another origin cannot drive a sandbox through the user's browser
// (DNS rebinding): a request whose Host is not the public URL's authority,
// or that carries an Origin other than the public URL's, is refused. When the
// public URL names a loopback host, the other loopback spellings with the
// same port are accepted too (they cannot be rebound).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sbx::gateway {

class OriginPolicy {
 public:
  explicit OriginPolicy(const std::string& public_url);
  // Empty if allowed; else what is wrong, for the 403 body.
  std::optional<std::string> Check(std::string_view host, std::string_view origin) const;

 private:
  bool HostAllowed(std::string_view host) const;
  std::string scheme_;
  std::string host_;  // lower case, IPv6 in brackets
  std::string port_;  // explicit, or the scheme's default
  bool loopback_ = false;
};

// Which response bodies the client's Accept header allows.
struct Acceptable {
  bool json = false;
  bool event_stream = false;
};
Acceptable ParseAccept(std::string_view accept);

}  // namespace sbx::gateway
