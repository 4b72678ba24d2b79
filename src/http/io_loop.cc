#include "http/io_loop.h"

#include <sched.h>

namespace sbx::http {

void RunPolling(asio::io_context& io, std::chrono::microseconds spin) {
  if (spin.count() <= 0) {
    io.run();
    return;
  }
  using Clock = std::chrono::steady_clock;
  while (!io.stopped()) {
    if (io.poll() > 0) continue;
    bool ran = false;
    for (auto until = Clock::now() + spin; !ran && Clock::now() < until;) {
      // Let anything runnable on this CPU go first: the spin is for idle time.
      ::sched_yield();
      if (io.stopped()) return;
      ran = io.poll() > 0;
    }
    if (!ran) io.run_one();
  }
}

}  // namespace sbx::http
