#include "servers/desktop_commander/config_store.h"

#include <cmath>

#include "js_text/date.h"
#include "js_text/json.h"

namespace sbx::servers::desktop_commander {
namespace {

// upstream's SESSION_TIMEOUT: 30 minutes without a call start a new session.
constexpr std::int64_t kSessionTimeoutMs = 30 * 60 * 1000;

// upstream's TOOL_CATEGORIES (it still lists the tools' old names, so
// start_process and its siblings count in no category).
const char* CategoryOf(const std::string& tool) {
  static const std::pair<const char*, std::vector<std::string>> kCategories[] = {
      {"filesystemOperations",
       {"read_file", "read_multiple_files", "write_file", "create_directory", "list_directory", "move_file",
        "get_file_info"}},
      {"terminalOperations", {"execute_command", "read_output", "force_terminate", "list_sessions"}},
      {"editOperations", {"edit_block"}},
      {"searchOperations", {"search_files", "search_code"}},
      {"configOperations", {"get_config", "set_config_value"}},
      {"processOperations", {"list_processes", "kill_process"}},
  };
  for (const auto& [category, tools] : kCategories)
    for (const auto& t : tools)
      if (t == tool) return category;
  return nullptr;
}

// `n++` on a stats field: JavaScript arithmetic (a missing field is NaN).
void Increment(Json& stats, const char* key) {
  auto it = stats.find(key);
  double v = it == stats.end() ? std::nan("") : js::ToNumber(*it);
  stats[key] = v + 1;
}

bool IsArrayKey(const std::string& key) { return key == "allowedDirectories" || key == "blockedCommands"; }

}  // namespace

const std::vector<std::string>& DefaultBlockedCommands() {
  static const std::vector<std::string> commands = {
      "mkfs",    "format",   "mount",   "umount",   "fdisk",    "dd",      "parted",   "diskpart",
      "sudo",    "su",       "passwd",  "adduser",  "useradd",  "usermod", "groupadd", "chsh",
      "visudo",  "shutdown", "reboot",  "halt",     "poweroff", "init",    "iptables", "firewall",
      "netsh",   "sfc",      "bcdedit", "reg",      "net",      "sc",      "runas",    "cipher",
      "takeown"};
  return commands;
}

ConfigStore::ConfigStore(const Options& options) {
  const auto& blocked = options.blocked_commands.empty() ? DefaultBlockedCommands() : options.blocked_commands;
  config_ = Json::object();
  config_["blockedCommands"] = blocked;
  config_["defaultShell"] = options.default_shell;
  config_["allowedDirectories"] = options.allowed_directories;
  config_["telemetryEnabled"] = false;
  config_["fileWriteLineLimit"] = options.file_write_line_limit;
  config_["fileReadLineLimit"] = options.file_read_line_limit;
  config_["version"] = kUpstreamVersion;
}

Json ConfigStore::Get() const {
  std::lock_guard lock(mu_);
  return config_;
}

Json ConfigStore::Value(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto it = config_.find(key);
  return it == config_.end() ? Json() : *it;
}

std::optional<Json> ConfigStore::Set(const std::string& key, const std::optional<Json>& value) {
  // upstream's setConfigValue, step by step.
  std::optional<Json> stored = value;
  if (stored && stored->is_string()) {
    const std::string& s = stored->get_ref<const std::string&>();
    if (!s.empty() && (s[0] == '[' || s[0] == '{')) {
      Json parsed = Json::parse(s, nullptr, false);
      if (!parsed.is_discarded()) stored = std::move(parsed);
    }
  }
  if (IsArrayKey(key) && !(stored && stored->is_array())) {
    if (stored && stored->is_string()) {
      std::string s = stored->get<std::string>();
      Json parsed = Json::parse(s, nullptr, false);
      if (!parsed.is_discarded()) stored = std::move(parsed);
      else if (s.find('[') == std::string::npos) stored = Json::array({s});
    } else {
      // [value]; an absent value becomes [undefined], which JSON shows as null.
      stored = Json::array({stored ? *stored : Json()});
    }
    if (!stored->is_array()) stored = Json::array({js::ToString(*stored)});
  }
  std::lock_guard lock(mu_);
  if (stored) config_[key] = *stored;
  else config_.erase(key);
  return stored;
}

Json ConfigStore::DefaultStats(std::int64_t now) const {
  Json s = Json::object();
  for (const char* k : {"filesystemOperations", "terminalOperations", "editOperations", "searchOperations",
                        "configOperations", "processOperations", "totalToolCalls", "successfulCalls", "failedCalls"})
    s[k] = 0;
  s["toolCounts"] = Json::object();
  s["firstUsed"] = now;
  s["lastUsed"] = now;
  s["totalSessions"] = 1;
  s["lastFeedbackPrompt"] = 0;
  return s;
}

Json ConfigStore::UsageStats() const {
  std::int64_t now = js::DateNow();
  std::lock_guard lock(mu_);
  auto it = config_.find("usageStats");
  if (it == config_.end() || !js::ToBoolean(*it)) return DefaultStats(now);
  return *it;
}

void ConfigStore::TrackCall(const std::string& tool, bool failed) {
  std::int64_t now = js::DateNow();
  std::lock_guard lock(mu_);
  auto it = config_.find("usageStats");
  Json stats = it != config_.end() && it->is_object() ? *it : DefaultStats(now);
  if (!stats.contains("toolCounts") || !stats["toolCounts"].is_object()) stats["toolCounts"] = Json::object();

  if (session_last_activity_ < 0 || now - session_last_activity_ > kSessionTimeoutMs) session_commands_ = 0;
  session_last_activity_ = now;
  ++session_commands_;

  Increment(stats, "totalToolCalls");
  Increment(stats, failed ? "failedCalls" : "successfulCalls");
  stats["lastUsed"] = now;
  Json& counts = stats["toolCounts"];
  auto count = counts.find(tool);
  counts[tool] = (count == counts.end() ? 0.0 : js::ToNumber(*count)) + 1;
  if (const char* category = CategoryOf(tool)) Increment(stats, category);
  if (session_commands_ == 1) Increment(stats, "totalSessions");
  config_["usageStats"] = std::move(stats);
}

}  // namespace sbx::servers::desktop_commander
