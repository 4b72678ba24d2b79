#include "api/auth.h"

#include <spdlog/spdlog.h>

#include "core/crypto.h"
#include "core/ids.h"

namespace sbx::api {

std::string NewApiKey() { return "sbx_" + ids::RandomToken(32); }

std::string HashApiKey(const std::string& key) { return crypto::Sha256Hex(key); }

std::string KeyPrefix(const std::string& key) { return key.substr(0, 12); }

Result<Principal> Authenticate(const http::Exchange& exchange, store::Store& store) {
  std::string_view header = exchange.header("Authorization");
  std::size_t space = header.find(' ');
  std::string_view scheme = header.substr(0, space);
  if (header.empty() || space == std::string_view::npos || !beast::iequals(scheme, "bearer"))
    return MakeError(ErrorCode::kUnauthenticated, "Not authenticated");
  std::string_view key = header.substr(space + 1);
  while (!key.empty() && key.front() == ' ') key.remove_prefix(1);
  while (!key.empty() && key.back() == ' ') key.remove_suffix(1);
  if (key.empty()) return MakeError(ErrorCode::kUnauthenticated, "Not authenticated");
  if (key.size() > 256) return MakeError(ErrorCode::kUnauthenticated, "Invalid API key");
  auto found = store.FindActiveKeyByHash(HashApiKey(std::string(key)));
  if (!found) {
    spdlog::error("key lookup failed: {}", found.error().message);
    return MakeError(ErrorCode::kUnavailable, "The key store is unavailable; try again");
  }
  if (!*found) return MakeError(ErrorCode::kUnauthenticated, "Invalid API key");
  return Principal{(*found)->owner, (*found)->id, (*found)->admin};
}

http::Response UnauthorizedResponse(const Error& error) {
  unsigned status = error.code == ErrorCode::kUnauthenticated ? 401 : 503;
  http::Response r = http::JsonError(status, error.message);
  if (status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer");
  return r;
}

}  // namespace sbx::api
