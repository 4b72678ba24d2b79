// The warm pool: sandboxes whose jail and agent are already running (status
// idle), so that acquire is a hand-over. A background thread keeps `size`
// of them ready; Take hands one out and wakes the thread to replace it.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/result.h"

namespace sbx::sandbox {

class Pool {
 public:
  // `make` prepares one idle sandbox and returns its id; `discard` destroys
  // one that was never handed out.
  Pool(std::size_t size, std::function<Result<std::string>()> make,
       std::function<void(const std::string&)> discard);
  ~Pool();  // stops refilling and discards the idle sandboxes

  std::optional<std::string> Take();
  std::size_t idle();
  // Blocks until the pool is full (or `timeout` passes); for tests and benches.
  bool WaitFull(std::chrono::milliseconds timeout);

 private:
  void Run();

  std::size_t size_;
  std::function<Result<std::string>()> make_;
  std::function<void(const std::string&)> discard_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> ready_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace sbx::sandbox
