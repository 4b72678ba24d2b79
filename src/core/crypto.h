// Cryptographic primitives: randomness and hex (random.cc, the kernel's
// CSPRNG), SHA-256, HMAC-SHA256 and a constant-time comparison (crypto.cc,
// OpenSSL 3). Thread-safe. Code that uses only the first two does not pull
// OpenSSL in (the sandbox agent).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sbx::crypto {

// Bytes from the OS CSPRNG (getrandom). Aborts if the CSPRNG fails: every
// caller uses these for secrets, and a weak fallback would be worse than none.
std::string RandomBytes(std::size_t n);

// Lower-case hex of `data`.
std::string Hex(std::string_view data);

// Lower-case hex SHA-256 digest of `data`.
std::string Sha256Hex(std::string_view data);

// Raw 32-byte HMAC-SHA256 of `message` under `key`.
std::string HmacSha256(std::string_view key, std::string_view message);

// Compares in time that depends only on the lengths, so that a forger cannot
// learn a secret byte by byte from response times.
bool ConstantTimeEqual(std::string_view a, std::string_view b);

}  // namespace sbx::crypto
