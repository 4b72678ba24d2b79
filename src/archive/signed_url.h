// Signed URLs for archive objects (upload, dump, execution archives).
//
// A URL grants one HTTP method on one object of one sandbox until an expiry:
//   {public_url}/objects/{sandbox_id}/{object_id}?expires={unix_s}&signature={hex}
// signature = hex(HMAC-SHA256(secret, "v1\n" METHOD "\n" sandbox "\n" object "\n" expires)).
// Verification compares in constant time. Thread-safe (immutable after construction).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::archive {

class UrlSigner {
 public:
  // `secret` is the server's HMAC key (at least 32 random bytes).
  explicit UrlSigner(std::string secret) : secret_(std::move(secret)) {}

  // Hex signature for (method, sandbox, object, expires).
  std::string Sign(std::string_view method, std::string_view sandbox_id, std::string_view object_id,
                   std::int64_t expires_unix_s) const;

  // The full URL under `public_url` (no trailing slash expected; one is tolerated).
  std::string MakeUrl(std::string_view public_url, std::string_view method,
                      std::string_view sandbox_id, std::string_view object_id,
                      std::int64_t expires_unix_s) const;

  // Ok if `signature` is valid for these values and `now_unix_s` < expires.
  // kForbidden otherwise, with a message saying which check failed (a bad
  // signature and a wrong method/sandbox/object look the same on purpose).
  Status Verify(std::string_view method, std::string_view sandbox_id, std::string_view object_id,
                std::string_view expires_param, std::string_view signature,
                std::int64_t now_unix_s) const;

 private:
  std::string secret_;
};

}  // namespace sbx::archive
