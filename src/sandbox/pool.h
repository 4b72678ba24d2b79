// The warm pool: sandboxes whose jail and agent are already running (status
// idle), so that acquire is a hand-over, sized by demand.
//
// Policy. The pool keeps `floor` sandboxes ready at all times. Demand is the
// number of acquires in flight (BeginDemand/EndDemand, counted when a request
// arrives, before it waits for a thread): while it is above what is ready,
// acquires outrun the pool, and the pool's target rises to the peak seen
// (bounded by `ceiling`, by a memory budget, and by the host's available
// memory). `starters` threads start sandboxes in parallel until ready +
// starting covers the target plus the acquires waiting in Take. When no new
// peak has come for `idle_shrink`, the target falls back to the floor and the
// surplus is discarded, oldest first, one at a time.
//
// Acquires never start a jail themselves: Take waits for the next sandbox the
// starters finish, so a burst is served in the order it came at the rate the
// host sustains (`starters` at once), not by as many parallel starts as
// there are request threads. A start that fails is reported to a waiting
// Take at once, so a broken host answers errors rather than timeouts.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

namespace sbx::sandbox {

struct PoolOptions {
  std::size_t floor = 4;      // ready at all times (--pool-size)
  std::size_t ceiling = 256;  // most ready + starting (--pool-max)
  std::size_t starters = 4;   // starts in parallel (--pool-starters)
  std::chrono::milliseconds idle_shrink{120'000};  // --pool-idle-seconds
  // Memory: the pool grows past the floor only while ready + starting idle
  // sandboxes fit in `memory_budget` at `idle_sandbox_bytes` each, and while
  // the host keeps `reserve_bytes` available (0 disables either check).
  std::uint64_t memory_budget = 0;
  std::uint64_t idle_sandbox_bytes = 4ull << 20;
  std::uint64_t reserve_bytes = 512ull << 20;
  // The host's available memory; tests replace it. Default: MemAvailable.
  std::function<std::uint64_t()> available_memory;
  // Tests replace the clock to move time; default steady_clock.
  std::function<std::chrono::steady_clock::time_point()> now;
};

struct PoolStats {
  std::size_t ready = 0;
  std::size_t starting = 0;
  std::size_t waiting = 0;   // Takes waiting for a sandbox
  std::size_t target = 0;    // ready the pool is working towards
  std::size_t demand = 0;    // acquires in flight
  std::size_t peak = 0;      // the demand peak the target follows
};

class Pool {
 public:
  // `make` prepares one idle sandbox and returns its id; `discard` destroys
  // one that was never handed out; `warm` (optional) readies a made one
  // that goes to wait in the pool (not one an acquire is already waiting
  // for: in a burst its client is about to call). All are called from the
  // pool's threads.
  Pool(PoolOptions options, std::function<Result<std::string>()> make,
       std::function<void(const std::string&)> discard, std::function<void(const std::string&)> warm = nullptr);
  ~Pool();  // stops the starters (waiting for starts under way) and discards the ready sandboxes

  // A ready sandbox, oldest first; waits up to `timeout` for one. Errors:
  // the failure of a start made while waiting, kUnavailable on timeout or
  // shutdown.
  Result<std::string> Take(std::chrono::milliseconds timeout);
  // A ready sandbox if there is one now.
  std::optional<std::string> TryTake();

  // An acquire arrived / finished (counts demand; see the policy above).
  void BeginDemand();
  void EndDemand();

  std::size_t idle();
  PoolStats stats();
  const PoolOptions& options() const { return options_; }
  // Blocks until `ready` reaches the target with nothing starting (or
  // `timeout` passes); for tests and benches.
  bool WaitFull(std::chrono::milliseconds timeout);

 private:
  void Run();
  std::chrono::steady_clock::time_point Now() const;
  // Recomputes target_ from the peak, the floor and the ceilings. Holds mu_.
  void UpdateTarget();
  // How many more sandboxes to start now. Holds mu_.
  std::size_t Shortfall() const;

  PoolOptions options_;
  std::function<Result<std::string>()> make_;
  std::function<void(const std::string&)> discard_;
  std::function<void(const std::string&)> warm_;
  std::mutex mu_;
  std::condition_variable cv_;        // starters: work to do, or stop
  std::condition_variable ready_cv_;  // takers and WaitFull: a sandbox is ready, a start failed
  std::deque<std::string> ready_;
  std::size_t starting_ = 0;
  std::size_t waiting_ = 0;
  std::size_t target_ = 0;
  std::size_t demand_ = 0;
  std::size_t peak_ = 0;
  std::chrono::steady_clock::time_point peak_at_{};
  std::uint64_t failures_ = 0;  // starts that failed, ever
  Error last_failure_ = MakeError(ErrorCode::kUnavailable, "no sandbox could be started");
  int consecutive_failures_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// MemAvailable of /proc/meminfo in bytes (0 if unreadable).
std::uint64_t HostAvailableMemory();
// MemTotal of /proc/meminfo in bytes (0 if unreadable).
std::uint64_t HostTotalMemory();

}  // namespace sbx::sandbox
