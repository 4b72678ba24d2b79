#include "cli/servers.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace sbx::cli {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Lower case with '-' and '_' treated alike: the server names mix both styles
// ("code-runner", "google_cloud"), which is the commonest slip.
std::string Fold(std::string_view s) {
  std::string out;
  for (char c : s) {
    out += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string ValidNamesList() {
  std::string out;
  for (auto name : kServerNames) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out + " (or ALL)";
}

Error UnknownServer(std::string_view name) {
  std::string message = "unknown server '" + std::string(name) + "'";
  std::string folded = Fold(name);
  for (auto valid : kServerNames) {
    if (Fold(valid) == folded) {
      message += " (did you mean '" + std::string(valid) + "'?)";
      break;
    }
  }
  return MakeError(ErrorCode::kInvalidArgument, message + "; valid names: " + ValidNamesList());
}

}  // namespace

Json ServerSelection::ToJson() const {
  if (all) return "ALL";
  Json array = Json::array();
  for (const auto& name : names) array.push_back(name);
  return array;
}

Result<ServerSelection> ParseServerList(std::string_view text) {
  ServerSelection selection;
  bool saw_all = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    std::string_view name = Trim(text.substr(start, end - start));
    start = end + 1;
    if (name.empty()) continue;  // "a,,b" and a trailing comma are harmless
    if (Fold(name) == "all") {
      saw_all = true;
      continue;
    }
    if (std::find(kServerNames.begin(), kServerNames.end(), name) == kServerNames.end()) {
      return UnknownServer(name);
    }
    if (std::find(selection.names.begin(), selection.names.end(), name) == selection.names.end()) {
      selection.names.emplace_back(name);
    }
  }
  if (saw_all) {
    if (!selection.names.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "ALL cannot be combined with server names; give either ALL or a list");
    }
    selection.all = true;
    return selection;
  }
  if (selection.names.empty()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "no server names given; valid names: " + ValidNamesList());
  }
  return selection;
}

Result<std::optional<long long>> ParseTtl(std::string_view text) {
  text = Trim(text);
  if (Fold(text) == "none") return std::optional<long long>();
  long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "--ttl must be a whole number of seconds (60 to 86400) or 'none', not '" +
                         std::string(text) + "'");
  }
  return std::optional<long long>(value);
}

}  // namespace sbx::cli
