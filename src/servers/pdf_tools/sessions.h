// pdf-tools-mcp's search sessions: the matches of one search, paged, kept
// in memory under an 8-hex-digit id (the first 8 characters of a uuid4).
//
// Expiry is upstream's: a session idle for longer than the TTL (30 minutes)
// is dropped only when a cleanup runs, which upstream does when a new
// session finds more than 20 already stored. Beyond upstream, the store is
// bounded (64 sessions, 64 MiB of match text; the least recently used goes
// first), since the agent's memory is shared by every server.
//
// Thread-safety: all members may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"

namespace sbx::servers::pdf_tools {

struct Match {
  int page = 0;
  std::string text, before, after;
};

struct Session {
  std::string id, pdf_path, pattern;
  std::vector<Match> results;
  int current_page = 1;
  int page_size = 10;
  UnixMicros last_accessed = 0;
  std::size_t bytes = 0;
};

class Sessions {
 public:
  Sessions(std::shared_ptr<const Clock> clock, int ttl_seconds, std::size_t max_sessions = 64,
           std::size_t max_bytes = 64u << 20);
  // Stores `session` (id, last_accessed and bytes are set here); its id.
  std::string Create(Session session);
  // Runs `use` on the session `id` with last_accessed set to now, under the
  // store's lock; nullopt when there is no such session.
  std::optional<std::string> With(const std::string& id, const std::function<std::string(Session&)>& use);
  UnixMicros Now() const { return clock_->Now(); }

 private:
  void DropExpired();  // with mu_ held
  std::shared_ptr<const Clock> clock_;
  const UnixMicros ttl_;
  const std::size_t max_sessions_, max_bytes_;
  std::mutex mu_;
  std::map<std::string, Session> sessions_;
  std::size_t bytes_ = 0;
};

}  // namespace sbx::servers::pdf_tools
