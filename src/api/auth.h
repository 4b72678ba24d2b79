// Bearer-key authentication. Keys are "sbx_" + 43 base64url characters;
// only their SHA-256 is stored, so a leaked database yields no usable key.
#pragma once

#include <optional>
#include <string>

#include "core/result.h"
#include "http/exchange.h"
#include "store/store.h"

namespace sbx::api {

struct Principal {
  std::string owner;
  std::string key_id;
  bool admin = false;
};

// A new random API key (the plaintext, shown once).
std::string NewApiKey();
// The stored hash of a key.
std::string HashApiKey(const std::string& key);
// The displayable prefix of a key.
std::string KeyPrefix(const std::string& key);

// The principal of the request's bearer key, or kUnauthenticated with the
// reference's detail ("Not authenticated" / "Invalid API key").
Result<Principal> Authenticate(const http::Exchange& exchange, store::Store& store);

// The 401 response for an authentication error.
http::Response UnauthorizedResponse(const Error& error);

}  // namespace sbx::api
