#include "mcp/jsonrpc.h"

namespace sbx::mcp {
namespace {

// The value of the 4 hex digits at text[i], or -1.
int Hex4(const std::string& text, std::size_t i) {
  if (i + 4 > text.size()) return -1;
  int v = 0;
  for (std::size_t k = i; k < i + 4; ++k) {
    char c = text[k];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

bool IsHigh(int u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLow(int u) { return u >= 0xDC00 && u <= 0xDFFF; }

// Rewrites lone surrogate escapes inside JSON strings to \ufffd, in place
// (same length). Bytes outside strings and other escapes are left alone.
void ReplaceLoneSurrogates(std::string& text) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!in_string) {
      in_string = c == '"';
      continue;
    }
    if (c == '"') {
      in_string = false;
    } else if (c == '\\' && i + 1 < text.size()) {
      if (text[i + 1] != 'u') {
        ++i;  // a two-character escape such as \\ or \"
        continue;
      }
      int u = Hex4(text, i + 2);
      if (IsHigh(u) && i + 11 < text.size() && text[i + 6] == '\\' && text[i + 7] == 'u' && IsLow(Hex4(text, i + 8))) {
        i += 11;  // a proper pair
        continue;
      }
      if (IsHigh(u) || IsLow(u)) text.replace(i + 2, 4, "fffd");
      i += 5;
    }
  }
}

}  // namespace

Json ParseMessageText(std::string text) {
  if (text.find("\\u") != std::string::npos) ReplaceLoneSurrogates(text);
  return Json::parse(text, nullptr, false);
}

Classified Classify(const Json& m) {
  if (!m.is_object()) return {MessageKind::kInvalid, "a JSON-RPC message must be an object"};
  auto version = m.find("jsonrpc");
  if (version == m.end() || *version != "2.0") return {MessageKind::kInvalid, "\"jsonrpc\" must be \"2.0\""};
  auto id = m.find("id");
  bool has_id = id != m.end();
  // MCP narrows JSON-RPC ids to strings and integers (no null, no fractions).
  if (has_id && !(id->is_string() || id->is_number_integer() || id->is_number_unsigned()))
    return {MessageKind::kInvalid, "\"id\" must be a string or an integer"};
  auto method = m.find("method");
  if (method != m.end()) {
    if (!method->is_string()) return {MessageKind::kInvalid, "\"method\" must be a string"};
    auto params = m.find("params");
    if (params != m.end() && !params->is_object() && !params->is_array())
      return {MessageKind::kInvalid, "\"params\" must be an object"};
    return {has_id ? MessageKind::kRequest : MessageKind::kNotification, ""};
  }
  if (has_id && (m.contains("result") != m.contains("error"))) return {MessageKind::kResponse, ""};
  return {MessageKind::kInvalid, "a message needs \"method\" (request or notification) or \"result\"/\"error\" with \"id\""};
}

Json ResultMessage(const Json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json ErrorMessage(const Json& id, int code, const std::string& message, Json data) {
  Json error{{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = std::move(data);
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

Json NotificationMessage(const std::string& method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace sbx::mcp
