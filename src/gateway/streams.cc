#include "gateway/streams.h"

namespace sbx::gateway {

void Streams::Add(const std::string& key, const std::shared_ptr<StreamState>& s) {
  std::lock_guard lock(mu_);
  open_[key].insert(s);
}

void Streams::Remove(const std::string& key, const std::shared_ptr<StreamState>& s) {
  std::lock_guard lock(mu_);
  auto it = open_.find(key);
  if (it == open_.end()) return;
  it->second.erase(s);
  if (it->second.empty()) open_.erase(it);
}

void Streams::StopAll(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = open_.find(key);
  if (it == open_.end()) return;
  for (const auto& s : it->second)
    asio::post(s->executor, [s] {
      s->stop = true;
      s->timer.cancel();
    });
}

void Streams::Deliver(const std::string& key, const std::string& message) {
  std::lock_guard lock(mu_);
  auto it = open_.find(key);
  if (it == open_.end()) return;
  for (const auto& s : it->second)
    asio::post(s->executor, [s, message] {
      s->messages.push_back(message);
      s->timer.cancel();
    });
}

}  // namespace sbx::gateway
