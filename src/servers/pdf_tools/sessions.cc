#include "servers/pdf_tools/sessions.h"

#include "core/ids.h"

namespace sbx::servers::pdf_tools {

Sessions::Sessions(std::shared_ptr<const Clock> clock, int ttl_seconds, std::size_t max_sessions,
                   std::size_t max_bytes)
    : clock_(clock ? std::move(clock) : std::make_shared<SystemClock>()),
      ttl_(static_cast<UnixMicros>(ttl_seconds) * 1'000'000),
      max_sessions_(max_sessions),
      max_bytes_(max_bytes) {}

void Sessions::DropExpired() {
  const UnixMicros now = clock_->Now();
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (now - it->second.last_accessed > ttl_) {
      bytes_ -= it->second.bytes;
      it = sessions_.erase(it);
    } else {
      ++it;
    }
  }
}

std::string Sessions::Create(Session session) {
  std::size_t bytes = sizeof(Session) + session.pdf_path.size() + session.pattern.size();
  for (const Match& m : session.results) bytes += sizeof(Match) + m.text.size() + m.before.size() + m.after.size();
  std::lock_guard lock(mu_);
  // upstream: `if len(search_sessions) > 20: cleanup_cache()`.
  if (sessions_.size() > 20) DropExpired();
  // Our bound: the least recently used go first.
  while (!sessions_.empty() && (sessions_.size() >= max_sessions_ || bytes_ + bytes > max_bytes_)) {
    auto oldest = sessions_.begin();
    for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
      if (it->second.last_accessed < oldest->second.last_accessed) oldest = it;
    bytes_ -= oldest->second.bytes;
    sessions_.erase(oldest);
  }
  std::string id;
  do id = ids::NewUuid().substr(0, 8);
  while (sessions_.count(id) != 0);
  session.id = id;
  session.bytes = bytes;
  session.last_accessed = clock_->Now();
  bytes_ += bytes;
  sessions_.emplace(id, std::move(session));
  return id;
}

std::optional<std::string> Sessions::With(const std::string& id, const std::function<std::string(Session&)>& use) {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::nullopt;
  it->second.last_accessed = clock_->Now();
  return use(it->second);
}

}  // namespace sbx::servers::pdf_tools
