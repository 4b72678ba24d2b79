#include "sandbox/pool.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <spdlog/spdlog.h>

namespace sbx::sandbox {
namespace {

std::uint64_t MeminfoField(const char* name) {
  std::ifstream in("/proc/meminfo");
  std::string line;
  const std::string prefix = std::string(name) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::istringstream fields(line.substr(prefix.size()));
    std::uint64_t kib = 0;
    fields >> kib;
    return kib << 10;
  }
  return 0;
}

}  // namespace

std::uint64_t HostAvailableMemory() { return MeminfoField("MemAvailable"); }
std::uint64_t HostTotalMemory() { return MeminfoField("MemTotal"); }

Pool::Pool(PoolOptions options, std::function<Result<std::string>()> make,
           std::function<void(const std::string&)> discard, std::function<void(const std::string&)> warm)
    : options_(std::move(options)), make_(std::move(make)), discard_(std::move(discard)), warm_(std::move(warm)) {
  if (!options_.available_memory) options_.available_memory = HostAvailableMemory;
  if (!options_.now) options_.now = [] { return std::chrono::steady_clock::now(); };
  options_.ceiling = std::max(options_.ceiling, options_.floor);
  options_.starters = std::max<std::size_t>(options_.starters, 1);
  peak_at_ = Now();
  {
    std::lock_guard lock(mu_);
    UpdateTarget();
  }
  if (options_.floor == 0) return;  // no pool: nothing to start
  for (std::size_t i = 0; i < options_.starters; ++i) threads_.emplace_back([this] { Run(); });
}

Pool::~Pool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  ready_cv_.notify_all();
  for (auto& t : threads_) t.join();
  for (const auto& id : ready_) discard_(id);
}

std::chrono::steady_clock::time_point Pool::Now() const { return options_.now(); }

void Pool::UpdateTarget() {
  auto now = Now();
  // No new peak for idle_shrink: the demand of that burst is over.
  if (peak_ > demand_ && now - peak_at_ >= options_.idle_shrink) {
    peak_ = demand_;
    peak_at_ = now;
  }
  std::size_t cap = options_.ceiling;
  if (options_.memory_budget > 0 && options_.idle_sandbox_bytes > 0)
    cap = std::min<std::size_t>(cap, options_.memory_budget / options_.idle_sandbox_bytes);
  cap = std::max(cap, options_.floor);
  std::size_t want = std::min(std::max(options_.floor, peak_), cap);
  const std::size_t have = ready_.size() + starting_;
  if (want > have && want > options_.floor && options_.reserve_bytes > 0 &&
      options_.available_memory() < options_.reserve_bytes) {
    // The host is short of memory: no growth past what exists (or the floor).
    want = std::max(options_.floor, std::min(want, have));
  }
  target_ = want;
}

std::size_t Pool::Shortfall() const {
  const std::size_t want = target_ + waiting_;
  const std::size_t have = ready_.size() + starting_;
  return want > have ? want - have : 0;
}

void Pool::BeginDemand() {
  std::lock_guard lock(mu_);
  ++demand_;
  if (demand_ >= peak_) {
    peak_ = demand_;
    peak_at_ = Now();
  }
  UpdateTarget();
  if (Shortfall() > 0) cv_.notify_all();
}

void Pool::EndDemand() {
  std::lock_guard lock(mu_);
  if (demand_ > 0) --demand_;
}

std::optional<std::string> Pool::TryTake() {
  std::lock_guard lock(mu_);
  if (ready_.empty()) return std::nullopt;
  std::string id = std::move(ready_.front());
  ready_.pop_front();
  cv_.notify_all();  // refill
  return id;
}

Result<std::string> Pool::Take(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  const std::uint64_t failures_before = failures_;
  if (ready_.empty()) {
    ++waiting_;
    cv_.notify_all();
    ready_cv_.wait_for(lock, timeout, [&] { return stop_ || !ready_.empty() || failures_ != failures_before; });
    --waiting_;
  }
  if (!ready_.empty()) {
    std::string id = std::move(ready_.front());
    ready_.pop_front();
    cv_.notify_all();
    return id;
  }
  if (stop_) return MakeError(ErrorCode::kUnavailable, "sandboxd is shutting down");
  if (failures_ != failures_before) return last_failure_;
  return MakeError(ErrorCode::kUnavailable,
                   "no sandbox became ready within " + std::to_string(timeout.count() / 1000) +
                       " s: the host is starting sandboxes more slowly than they are asked for; try again");
}

std::size_t Pool::idle() {
  std::lock_guard lock(mu_);
  return ready_.size();
}

PoolStats Pool::stats() {
  std::lock_guard lock(mu_);
  UpdateTarget();
  return PoolStats{ready_.size(), starting_, waiting_, target_, demand_, peak_};
}

bool Pool::WaitFull(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    UpdateTarget();
    if (stop_ || (ready_.size() >= target_ && starting_ == 0)) return true;
    // ready_cv_ wakes on every new sandbox; the timed wait covers a target
    // that moves without one (the clock).
    if (ready_cv_.wait_until(lock, std::min(deadline, std::chrono::steady_clock::now() + std::chrono::milliseconds(50))) ==
            std::cv_status::timeout &&
        std::chrono::steady_clock::now() >= deadline) {
      UpdateTarget();
      return stop_ || (ready_.size() >= target_ && starting_ == 0);
    }
  }
}

void Pool::Run() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    UpdateTarget();
    if (waiting_ == 0 && ready_.size() > target_) {
      // Shrinking after a burst: one surplus sandbox at a time, oldest first.
      std::string id = std::move(ready_.front());
      ready_.pop_front();
      lock.unlock();
      discard_(id);
      lock.lock();
      continue;
    }
    if (Shortfall() == 0) {
      if (target_ > options_.floor) {
        // Above the floor the target decays with time: look again later.
        cv_.wait_for(lock, std::min<std::chrono::milliseconds>(options_.idle_shrink, std::chrono::seconds(1)));
      } else {
        cv_.wait(lock);
      }
      continue;
    }
    ++starting_;
    lock.unlock();
    auto id = make_();
    lock.lock();
    if (!id) {
      --starting_;
      ++failures_;
      last_failure_ = id.error();
      ready_cv_.notify_all();
      // A host out of resources: back off instead of spinning.
      spdlog::error("warm pool: cannot prepare a sandbox: {}", id.error().message);
      auto delay = std::chrono::milliseconds(100 << std::min(consecutive_failures_++, 6));
      cv_.wait_for(lock, delay, [&] { return stop_; });
      continue;
    }
    consecutive_failures_ = 0;
    if (warm_ && waiting_ == 0 && !stop_) {
      lock.unlock();
      warm_(*id);
      lock.lock();
    }
    // Still counted as starting while it warms: otherwise the other starters
    // see a shortfall that is not there and make sandboxes the shrink then
    // discards.
    --starting_;
    if (stop_) {
      lock.unlock();
      discard_(*id);
      lock.lock();
      break;
    }
    ready_.push_back(std::move(*id));
    ready_cv_.notify_all();
  }
}

}  // namespace sbx::sandbox
