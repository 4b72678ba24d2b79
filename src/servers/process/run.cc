// process::Run: one command to completion, both pipes read together so a
// child that fills one never deadlocks against us.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include "servers/process/process.h"

namespace sbx::servers::process {
namespace {

using Clock = std::chrono::steady_clock;

// Reads what is there; false at EOF or on error.
bool Drain(int fd, std::string& into, std::size_t limit, bool& truncated) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      std::size_t keep = into.size() < limit ? std::min<std::size_t>(static_cast<std::size_t>(n), limit - into.size()) : 0;
      into.append(buf, keep);
      if (keep < static_cast<std::size_t>(n)) truncated = true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

}  // namespace

Result<RunResult> Run(const Spec& spec_in, const RunOptions& options) {
  Spec spec = spec_in;
  spec.pipe_stdin = !options.input.empty();
  auto spawned = Spawn(spec);
  if (!spawned) return spawned.error();
  Child& child = **spawned;
  for (int fd : {child.stdin_fd(), child.stdout_fd(), child.stderr_fd()})
    if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

  RunResult result;
  std::size_t written = 0;
  bool out_open = true, err_open = child.stderr_fd() >= 0;
  bool exited = false;
  auto deadline = Clock::now() + options.timeout;
  while (out_open || err_open || !exited) {
    if (!exited && child.Poll()) {
      exited = true;
      // A background job of the command must not hold the call open.
      ::kill(-child.pid(), SIGKILL);
    }
    if (exited && !out_open && !err_open) break;
    if (!exited && options.cancelled && options.cancelled()) {
      result.cancelled = true;
      child.Signal(SIGKILL);
    }
    auto now = Clock::now();
    if (now >= deadline) {
      if (!exited) {
        result.timed_out = true;
        child.Signal(SIGKILL);
        child.Wait();
        exited = true;
      }
      break;
    }
    std::vector<struct pollfd> fds;
    if (out_open) fds.push_back({child.stdout_fd(), POLLIN, 0});
    if (err_open) fds.push_back({child.stderr_fd(), POLLIN, 0});
    if (child.stdin_fd() >= 0) fds.push_back({child.stdin_fd(), POLLOUT, 0});
    if (!exited) fds.push_back({child.exit_fd(), POLLIN, 0});
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    int wait_ms = static_cast<int>(std::min<long long>(left + 1, options.cancelled ? 50 : 1000));
    if (::poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) break;
    for (const auto& p : fds) {
      if (!p.revents) continue;
      if (p.fd == child.stdout_fd() || p.fd == child.stderr_fd()) {
        bool is_out = p.fd == child.stdout_fd();
        bool was_truncated = result.truncated;
        bool open = Drain(p.fd, is_out ? result.out : result.err, options.max_output, result.truncated);
        (is_out ? out_open : err_open) = open;
        // Node's exec does this with maxBuffer: the command is over once its
        // output is, rather than running on with nobody reading.
        if (options.kill_on_overflow && result.truncated && !was_truncated) {
          result.overflowed = is_out ? 1 : 2;
          if (!exited) child.Signal(SIGKILL);
        }
      } else if (p.fd == child.stdin_fd()) {
        if (p.revents & (POLLERR | POLLHUP)) {
          child.CloseStdin();
          continue;
        }
        ssize_t n = ::write(p.fd, options.input.data() + written, options.input.size() - written);
        if (n > 0) written += static_cast<std::size_t>(n);
        if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == options.input.size()) child.CloseStdin();
      }
    }
  }
  result.exit = child.Wait();
  return result;
}

}  // namespace sbx::servers::process
