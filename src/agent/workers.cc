#include "agent/workers.h"

#include <system_error>

namespace sbx::agent {

Workers::~Workers() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& t : threads_) t.join();
}

void Workers::Post(std::function<void()> work) {
  std::unique_lock lock(mu_);
  queue_.push_back(std::move(work));
  // Spawn when the waiting work outnumbers the threads free to take it.
  if (queue_.size() > idle_ && threads_.size() < max_threads_) {
    try {
      threads_.emplace_back([this] { Loop(); });
      return;
    } catch (const std::system_error&) {
      // No thread to be had: the sandbox's process limit is used up (a
      // tool's child forking without end, say). The work waits for a
      // thread that exists, or for the next Post to try again; throwing
      // here would end the agent, and the sandbox with it.
    }
  }
  lock.unlock();
  ready_.notify_one();
}

void Workers::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    ++idle_;
    ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) return;  // stopping with nothing left
    auto work = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    work();
    lock.lock();
  }
}

}  // namespace sbx::agent
