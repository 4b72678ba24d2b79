// OptionsFromSettings: the deployment's settings object, read the way
// upstream reads its environment variables, with stricter value checks
// (a typo in a deployment is an error at startup, not a silent default).
#include <set>
#include <string>

#include "servers/terminal/terminal.h"

namespace sbx::servers::terminal {
namespace {

constexpr std::size_t kMaxListSetting = 64 * 1024;
constexpr long long kMaxCommandLengthLimit = 1 << 20;
constexpr long long kMaxTimeoutSeconds = 24 * 60 * 60;

Error Bad(const std::string& message) { return MakeError(ErrorCode::kInvalidArgument, "terminal: " + message); }

bool IsAll(const std::string& value) {
  if (value.size() != 3) return false;
  std::string lower;
  for (char c : value) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower == "all";
}

// value.split(","): every piece kept as written, empty ones included.
std::set<std::string> SplitComma(const std::string& value) {
  std::set<std::string> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = value.find(',', start);
    out.insert(value.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// An absolute path with no empty, "." or ".." component and no trailing
// slash (except "/" itself), so that it is the form upstream prints.
bool IsNormalAbsolute(const std::string& path) {
  if (path.empty() || path[0] != '/' || path.find('\0') != std::string::npos) return false;
  if (path == "/") return true;
  if (path.back() == '/') return false;
  std::size_t start = 1;
  for (;;) {
    std::size_t end = path.find('/', start);
    std::string part = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (end == std::string::npos) return true;
    start = end + 1;
  }
}

Status ReadList(const Json& value, const std::string& key, bool& all, std::set<std::string>& list) {
  if (!value.is_string())
    return Bad(key + " must be a string: \"all\" or a comma-separated list, as upstream's environment variable");
  const auto& text = value.get_ref<const std::string&>();
  if (text.size() > kMaxListSetting) return Bad(key + " is longer than 64 KiB");
  all = IsAll(text);
  list = all ? std::set<std::string>{} : SplitComma(text);
  return Ok();
}

Result<long long> ReadInteger(const Json& value, const std::string& key, long long min, long long max) {
  if (!value.is_number_integer())
    return Bad(key + " must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
  long long n = value.is_number_unsigned() && value.get<unsigned long long>() > static_cast<unsigned long long>(max)
                    ? max + 1
                    : value.get<long long>();
  if (n < min || n > max)
    return Bad(key + " must be an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", not " +
               value.dump());
  return n;
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  Options o;
  if (settings.is_null()) return o;
  if (!settings.is_object()) return Bad("settings must be a JSON object");
  for (const auto& [key, value] : settings.items()) {
    if (key == "allowed_dir") {
      if (!value.is_string() || !IsNormalAbsolute(value.get<std::string>()))
        return Bad("allowed_dir must be an absolute path without '.', '..', '//' or a trailing '/'");
      o.allowed_dir = value.get<std::string>();
    } else if (key == "allowed_commands") {
      if (auto s = ReadList(value, key, o.allow_all_commands, o.allowed_commands); !s) return s.error();
    } else if (key == "allowed_flags") {
      if (auto s = ReadList(value, key, o.allow_all_flags, o.allowed_flags); !s) return s.error();
    } else if (key == "max_command_length") {
      auto n = ReadInteger(value, key, 0, kMaxCommandLengthLimit);
      if (!n) return n.error();
      o.max_command_length = *n;
    } else if (key == "command_timeout") {
      auto n = ReadInteger(value, key, 1, kMaxTimeoutSeconds);
      if (!n) return n.error();
      o.command_timeout = *n;
    } else if (key == "allow_shell_operators") {
      if (!value.is_boolean()) return Bad("allow_shell_operators must be true or false");
      o.allow_shell_operators = value.get<bool>();
    } else {
      return Bad("unknown setting '" + key +
                 "' (known: allowed_dir, allowed_commands, allowed_flags, max_command_length, command_timeout, "
                 "allow_shell_operators)");
    }
  }
  return o;
}

}  // namespace sbx::servers::terminal
