#include "agent/workers.h"

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
    threads_.emplace_back([this] { Loop(); });
    return;
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
