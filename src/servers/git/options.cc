// OptionsFromSettings: the "git" object of sandboxd's --server-settings file.
#include <cmath>

#include "servers/git/git.h"

namespace sbx::servers::git {
namespace {

Error Bad(const std::string& message) { return MakeError(ErrorCode::kInvalidArgument, "git: " + message); }

bool IsAbsolutePath(const std::string& s) {
  return !s.empty() && s[0] == '/' && s.find('\0') == std::string::npos && s.size() < 4096;
}

// An identity git and GitPython write into commit headers verbatim: one
// line, no angle brackets.
bool IsIdentityPart(const std::string& s) {
  if (s.size() > 256) return false;
  for (unsigned char c : s)
    if (c < 0x20 || c == '<' || c == '>' || c == 0x7f) return false;
  return true;
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  Options o;
  if (settings.is_null()) return o;
  if (!settings.is_object()) return Bad("settings must be a JSON object");
  for (const auto& [key, value] : settings.items()) {
    if (key == "workspace_root" || key == "home" || key == "git_binary") {
      if (!value.is_string() || !IsAbsolutePath(value.get<std::string>()))
        return Bad("'" + key + "' must be an absolute path");
      std::string v = value.get<std::string>();
      (key == "workspace_root" ? o.workspace_root : key == "home" ? o.home : o.git_binary) = v;
    } else if (key == "timeout_seconds") {
      if (!value.is_number() || !(value.get<double>() > 0) || value.get<double>() > 86400)
        return Bad("'timeout_seconds' must be a number of seconds above 0 and at most 86400");
      o.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(value.get<double>() * 1000)));
    } else if (key == "max_output_bytes") {
      if (!value.is_number_integer() || value.get<long long>() < 1024 || value.get<long long>() > (1LL << 30))
        return Bad("'max_output_bytes' must be an integer from 1024 to 1073741824");
      o.max_output_bytes = static_cast<std::size_t>(value.get<long long>());
    } else if (key == "author_name" || key == "author_email") {
      if (!value.is_string() || !IsIdentityPart(value.get<std::string>()))
        return Bad("'" + key + "' must be a string of at most 256 characters without control characters, '<' or '>'");
      (key == "author_name" ? o.author_name : o.author_email) = value.get<std::string>();
    } else {
      return Bad("unknown setting '" + key +
                 "' (known: workspace_root, timeout_seconds, max_output_bytes, author_name, author_email, home, "
                 "git_binary)");
    }
  }
  return o;
}

}  // namespace sbx::servers::git
