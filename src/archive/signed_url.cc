#include "archive/signed_url.h"

#include <charconv>
#include <string>

#include "core/crypto.h"

namespace sbx::archive {
namespace {

constexpr std::size_t kSignatureHexChars = 64;  // hex of a 32-byte HMAC-SHA256

std::string Message(std::string_view method, std::string_view sandbox_id,
                    std::string_view object_id, std::int64_t expires_unix_s) {
  std::string msg = "v1\n";
  msg.append(method).append("\n");
  msg.append(sandbox_id).append("\n");
  msg.append(object_id).append("\n");
  msg.append(std::to_string(expires_unix_s));
  return msg;
}

// Only the canonical decimal form Sign() produced is accepted (no sign, no
// spaces, no leading zeros), so one signature matches exactly one URL.
bool ParseExpires(std::string_view text, std::int64_t& out) {
  if (text.empty() || text.size() > 19) return false;
  if (text.size() > 1 && text[0] == '0') return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Lower-cases hex digits so a client that upper-cased the query still
// verifies; anything else is malformed.
bool NormalizeHexSignature(std::string_view text, std::string& out) {
  if (text.size() != kSignatureHexChars) return false;
  out.clear();
  out.reserve(text.size());
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      out.push_back(c);
    } else if (c >= 'a' && c <= 'f') {
      out.push_back(c);
    } else if (c >= 'A' && c <= 'F') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string UrlSigner::Sign(std::string_view method, std::string_view sandbox_id,
                            std::string_view object_id, std::int64_t expires_unix_s) const {
  return crypto::Hex(
      crypto::HmacSha256(secret_, Message(method, sandbox_id, object_id, expires_unix_s)));
}

std::string UrlSigner::MakeUrl(std::string_view public_url, std::string_view method,
                               std::string_view sandbox_id, std::string_view object_id,
                               std::int64_t expires_unix_s) const {
  if (!public_url.empty() && public_url.back() == '/') public_url.remove_suffix(1);
  std::string url(public_url);
  url.append("/objects/").append(sandbox_id).append("/").append(object_id);
  url.append("?expires=").append(std::to_string(expires_unix_s));
  url.append("&signature=").append(Sign(method, sandbox_id, object_id, expires_unix_s));
  return url;
}

Status UrlSigner::Verify(std::string_view method, std::string_view sandbox_id,
                         std::string_view object_id, std::string_view expires_param,
                         std::string_view signature, std::int64_t now_unix_s) const {
  std::int64_t expires = 0;
  if (!ParseExpires(expires_param, expires)) {
    return MakeError(ErrorCode::kForbidden,
                     "Signed URL parameters are malformed: expires must be a Unix time in "
                     "seconds; request a new URL");
  }
  std::string given;
  if (!NormalizeHexSignature(signature, given)) {
    return MakeError(ErrorCode::kForbidden,
                     "Signed URL parameters are malformed: signature must be 64 hex digits; "
                     "request a new URL");
  }
  // The signature is checked before the expiry so that the "expired" answer
  // is only ever given for URLs this server really issued.
  if (!crypto::ConstantTimeEqual(Sign(method, sandbox_id, object_id, expires), given)) {
    return MakeError(ErrorCode::kForbidden, "Signed URL signature is invalid");
  }
  if (now_unix_s >= expires) {
    return MakeError(ErrorCode::kForbidden, "Signed URL has expired");
  }
  return Ok();
}

}  // namespace sbx::archive
