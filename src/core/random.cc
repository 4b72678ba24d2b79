#include "core/crypto.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace sbx::crypto {

// getrandom(2) rather than OpenSSL's RAND_bytes: both draw on the kernel's
// CSPRNG, and this keeps OpenSSL out of the sandbox agent (which needs only
// random names): its relocated tables cost every agent 0.4 MiB of private
// memory.
std::string RandomBytes(std::size_t n) {
  std::string out(n, '\0');
  std::size_t done = 0;
  while (done < n) {
    ssize_t got = ::getrandom(out.data() + done, n - done, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      std::fputs("fatal: getrandom failed\n", stderr);
      std::abort();
    }
    done += static_cast<std::size_t>(got);
  }
  return out;
}

std::string Hex(std::string_view data) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(data.size() * 2);
  for (unsigned char c : data) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xF]);
  }
  return out;
}

}  // namespace sbx::crypto
