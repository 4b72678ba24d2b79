#include "sandbox/pool.h"

#include <spdlog/spdlog.h>

namespace sbx::sandbox {

Pool::Pool(std::size_t size, std::function<Result<std::string>()> make,
           std::function<void(const std::string&)> discard)
    : size_(size), make_(std::move(make)), discard_(std::move(discard)) {
  if (size_ > 0) thread_ = std::thread([this] { Run(); });
}

Pool::~Pool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (const auto& id : ready_) discard_(id);
}

std::optional<std::string> Pool::Take() {
  std::lock_guard lock(mu_);
  if (ready_.empty()) return std::nullopt;
  std::string id = std::move(ready_.front());
  ready_.pop_front();
  cv_.notify_all();
  return id;
}

std::size_t Pool::idle() {
  std::lock_guard lock(mu_);
  return ready_.size();
}

bool Pool::WaitFull(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return ready_.size() >= size_ || stop_; });
}

void Pool::Run() {
  int failures = 0;
  std::unique_lock lock(mu_);
  while (!stop_) {
    if (ready_.size() >= size_) {
      cv_.wait(lock, [&] { return stop_ || ready_.size() < size_; });
      continue;
    }
    lock.unlock();
    auto id = make_();
    lock.lock();
    if (!id) {
      // A host out of resources: back off instead of spinning.
      spdlog::error("warm pool: cannot prepare a sandbox: {}", id.error().message);
      auto delay = std::chrono::milliseconds(100 << std::min(failures++, 6));
      cv_.wait_for(lock, delay, [&] { return stop_; });
      continue;
    }
    failures = 0;
    if (stop_) {
      lock.unlock();
      discard_(*id);
      lock.lock();
      break;
    }
    ready_.push_back(std::move(*id));
    cv_.notify_all();
  }
}

}  // namespace sbx::sandbox
