// OptionsFromSettings: a deployment's settings object, checked key by key.
#include <cmath>
#include <string>

#include "servers/desktop_commander/desktop_commander.h"

namespace sbx::servers::desktop_commander {
namespace {

Error Bad(const std::string& message) {
  return MakeError(ErrorCode::kInvalidArgument, "desktop-commander settings: " + message);
}

Result<std::string> AbsolutePath(const Json& v, const char* key) {
  if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>()[0] != '/')
    return Bad(std::string(key) + " must be an absolute path");
  return v.get<std::string>();
}

Result<std::vector<std::string>> Strings(const Json& v, const char* key) {
  if (!v.is_array()) return Bad(std::string(key) + " must be an array of strings");
  std::vector<std::string> out;
  for (const auto& e : v) {
    if (!e.is_string()) return Bad(std::string(key) + " must be an array of strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

Result<double> Integer(const Json& v, const char* key, double min, double max) {
  if (!v.is_number() || v.get<double>() != std::floor(v.get<double>()) || v.get<double>() < min ||
      v.get<double>() > max)
    return Bad(std::string(key) + " must be an integer from " + std::to_string(static_cast<long long>(min)) +
               " to " + std::to_string(static_cast<long long>(max)));
  return v.get<double>();
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  if (!settings.is_object()) return Bad("expected a JSON object");
  Options o;
  bool allowed_given = false;
  for (const auto& [key, v] : settings.items()) {
    if (key == "workspace") {
      auto p = AbsolutePath(v, "workspace");
      if (!p) return p.error();
      o.workspace = *p;
    } else if (key == "home") {
      auto p = AbsolutePath(v, "home");
      if (!p) return p.error();
      o.home = *p;
    } else if (key == "allowedDirectories") {
      auto list = Strings(v, "allowedDirectories");
      if (!list) return list.error();
      o.allowed_directories = *list;
      allowed_given = true;
    } else if (key == "blockedCommands") {
      auto list = Strings(v, "blockedCommands");
      if (!list) return list.error();
      if (list->empty()) return Bad("blockedCommands must not be empty (leave it out for upstream's list)");
      o.blocked_commands = *list;
    } else if (key == "defaultShell") {
      if (!v.is_string() || v.get<std::string>().empty()) return Bad("defaultShell must be a non-empty string");
      o.default_shell = v.get<std::string>();
    } else if (key == "fileReadLineLimit" || key == "fileWriteLineLimit") {
      auto n = Integer(v, key.c_str(), 1, 1e9);
      if (!n) return n.error();
      (key == "fileReadLineLimit" ? o.file_read_line_limit : o.file_write_line_limit) = *n;
    } else if (key == "maxSessions") {
      auto n = Integer(v, "maxSessions", 1, 1024);
      if (!n) return n.error();
      o.max_sessions = static_cast<std::size_t>(*n);
    } else if (key == "maxSessionOutputBytes") {
      auto n = Integer(v, "maxSessionOutputBytes", 1024, 1 << 30);
      if (!n) return n.error();
      o.max_session_output = static_cast<std::size_t>(*n);
    } else if (key == "maxWaitMs") {
      auto n = Integer(v, "maxWaitMs", 1000, 86'400'000);
      if (!n) return n.error();
      o.max_wait = std::chrono::milliseconds(static_cast<long long>(*n));
    } else if (key == "ripgrep") {
      if (!v.is_string() || v.get<std::string>().empty()) return Bad("ripgrep must be a non-empty string");
      o.ripgrep = v.get<std::string>();
    } else {
      return Bad("unknown key '" + key +
                 "' (known: workspace, home, allowedDirectories, blockedCommands, defaultShell, fileReadLineLimit, "
                 "fileWriteLineLimit, maxSessions, maxSessionOutputBytes, maxWaitMs, ripgrep)");
    }
  }
  if (!allowed_given) o.allowed_directories = {o.workspace};
  return o;
}

}  // namespace sbx::servers::desktop_commander
