#include "cli/api_errors.h"

#include "core/json.h"

namespace sbx::cli {
namespace {

// A non-JSON body (a proxy's HTML page, say) can be long and multi-line;
// the first part on one line is enough to tell what answered.
constexpr std::size_t kMaxRawDetail = 300;

std::string OneLine(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (out.size() >= kMaxRawDetail) {
      out += "...";
      break;
    }
    bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string FormatLoc(const Json& loc) {
  if (!loc.is_array()) return loc.is_string() ? loc.get<std::string>() : loc.dump();
  std::string out;
  for (const auto& part : loc) {
    if (!out.empty()) out += '.';
    out += part.is_string() ? part.get<std::string>() : part.dump();
  }
  return out;
}

std::string FormatValidationItem(const Json& item) {
  if (!item.is_object()) return item.is_string() ? item.get<std::string>() : item.dump();
  std::string msg;
  if (auto it = item.find("msg"); it != item.end()) {
    msg = it->is_string() ? it->get<std::string>() : it->dump();
  } else {
    msg = item.dump();
  }
  auto loc = item.find("loc");
  if (loc == item.end() || (loc->is_array() && loc->empty())) return msg;
  return FormatLoc(*loc) + ": " + msg;
}

}  // namespace

std::string FormatErrorDetail(std::string_view body) {
  Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    std::string text = OneLine(body);
    return text.empty() ? "(empty response body)" : text;
  }
  if (!parsed.is_object() || !parsed.contains("detail")) return parsed.dump();
  const Json& detail = parsed["detail"];
  if (detail.is_string()) return detail.get<std::string>();
  if (detail.is_array()) {
    std::string out;
    for (const auto& item : detail) {
      if (!out.empty()) out += "; ";
      out += FormatValidationItem(item);
    }
    return out.empty() ? "(no detail)" : out;
  }
  return detail.dump();
}

std::string FormatHttpError(int status, std::string_view body) {
  return "HTTP " + std::to_string(status) + ": " + FormatErrorDetail(body);
}

}  // namespace sbx::cli
