// Identifiers and secrets handed to clients.
#pragma once

#include <string>
#include <string_view>

namespace sbx::ids {

// A random (version 4) UUID in canonical lower-case form, like the reference
// service's sandbox and server ids.
std::string NewUuid();

// True for the canonical 36-character lower-case form NewUuid produces.
bool IsUuid(std::string_view s);

// A URL-safe random secret of `bytes` bytes of entropy (base64url, no padding).
std::string RandomToken(std::size_t bytes = 32);

// True when `s` only holds base64url characters and has 1..max_len of them.
bool IsTokenShaped(std::string_view s, std::size_t max_len = 128);

}  // namespace sbx::ids
