#include "sandbox/releaser.h"

#include <spdlog/spdlog.h>

namespace sbx::sandbox {

Releaser::Releaser(Manager& manager) : manager_(manager), thread_([this] { Run(); }) {}

Releaser::~Releaser() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Releaser::Enqueue(const std::string& sandbox_id) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(sandbox_id);
  }
  cv_.notify_all();
}

void Releaser::WaitIdle() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return (queue_.empty() && !busy_) || stop_; });
}

void Releaser::Run() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    std::string id = queue_.front();
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    Status s = manager_.FinishRelease(id);
    if (s) {
      spdlog::info("released sandbox {}", id);
    } else {
      spdlog::error("release of sandbox {} failed (will retry): {}", id, s.error().message);
    }
    lock.lock();
    busy_ = false;
    if (!s && !stop_) {
      // Retry later without spinning: wait a second unless asked to stop.
      cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; });
      if (stop_) return;
      queue_.push_back(id);
    }
    cv_.notify_all();
  }
}

Reaper::Reaper(Manager& manager, Releaser& releaser, std::chrono::milliseconds interval)
    : manager_(manager), releaser_(releaser), interval_(interval), thread_([this] { Run(); }) {}

Reaper::~Reaper() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Reaper::Run() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    lock.unlock();
    if (auto expired = manager_.BeginExpiredReleases(); expired) {
      for (const auto& id : *expired) {
        spdlog::info("sandbox {} reached its TTL: releasing", id);
        releaser_.Enqueue(id);
      }
    } else {
      spdlog::error("reaper: {}", expired.error().message);
    }
    if (auto s = manager_.CollectExpiredObjects(); !s)
      spdlog::error("reaper: {}", s.error().message);
    lock.lock();
    cv_.wait_for(lock, interval_, [this] { return stop_; });
  }
}

}  // namespace sbx::sandbox
