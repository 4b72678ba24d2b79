// The frames an agent sends sandboxd: [4-byte length][JSON] with an "fds"
// count. sandboxd trusts an agent less than itself, so any byte stream must
// end in frames or a clean error, never a crash or an unbounded buffer.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "agent/protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return 0;
  // Inputs are far below a socket buffer (-max_len), so one write never blocks.
  for (std::size_t done = 0; done < size;) {
    ssize_t n = ::write(fds[1], data + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fds[1]);
  sbx::agent::Channel channel(fds[0]);
  for (int reads = 0; reads < 1024; ++reads) {
    auto more = channel.Fill();
    bool failed = false;
    while (true) {
      auto next = channel.Next();
      if (!next) {
        failed = true;
        break;
      }
      if (!*next) break;
      (void)(*next)->body.dump();
    }
    if (failed || !more || !*more) break;
  }
  return 0;
}
