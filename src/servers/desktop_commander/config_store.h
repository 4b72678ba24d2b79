// The server's configuration and usage counters, as upstream keeps them in
// ~/.claude-server-commander/config.json: one JSON object whose keys keep
// their order (get_config prints it), changed by set_config_value with
// upstream's coercions, and holding "usageStats", which every tool call
// updates after it ran.
//
// Kept in memory, one per server instance (one per sandbox): the sandbox is
// the unit of state, so the configuration lives exactly as long as it and
// needs no file a process inside the sandbox could rewrite behind the
// server's back (upstream's file is in the user's home, outside any
// workspace; the jail has no such place that outlives the sandbox).
//
// Thread-safety: every member locks; values are returned as copies.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "core/json.h"
#include "servers/desktop_commander/desktop_commander.h"

namespace sbx::servers::desktop_commander {

inline constexpr const char* kUpstreamVersion = "0.2.7";

class ConfigStore {
 public:
  explicit ConfigStore(const Options& options);

  // The whole configuration (upstream's configManager.getConfig()).
  Json Get() const;
  // One key; null when absent (upstream: undefined).
  Json Value(const std::string& key) const;

  // set_config_value: applies upstream's coercions (JSON in strings, array
  // keys) to `value` (nullopt: the argument was absent), stores it and
  // returns what was stored. An absent value removes the key, as a key set
  // to undefined disappears from upstream's JSON.
  std::optional<Json> Set(const std::string& key, const std::optional<Json>& value);

  // After every tool call: upstream's usageTracker.trackSuccess/trackFailure.
  void TrackCall(const std::string& tool, bool failed);
  // usageStats, or fresh defaults (first use: now) when no call was tracked.
  Json UsageStats() const;

 private:
  Json DefaultStats(std::int64_t now) const;

  mutable std::mutex mu_;
  Json config_;
  // upstream's in-memory session (30 minutes of quiet start a new one).
  std::int64_t session_last_activity_ = -1;
  std::int64_t session_commands_ = 0;
};

}  // namespace sbx::servers::desktop_commander
