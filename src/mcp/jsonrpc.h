// JSON-RPC 2.0 as MCP uses it: message kinds, the standard error codes, and
// builders for responses. A message that is not well-formed JSON-RPC is
// classified as kInvalid with the reason.
#pragma once

#include <string>

#include "core/json.h"

namespace sbx::mcp {

inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// MCP's "resource not found" and friends use the implementation range; we use
// this one where a session is gone.
inline constexpr int kSessionNotFound = -32001;

enum class MessageKind { kRequest, kNotification, kResponse, kInvalid };

struct Classified {
  MessageKind kind = MessageKind::kInvalid;
  std::string reason;  // for kInvalid: what is wrong, for the error message
};

Classified Classify(const Json& message);

// Parses a message body; discarded (is_discarded()) if it is not JSON.
// A lone UTF-16 surrogate escape ("\ud800" without its pair) is valid JSON
// grammar that JavaScript clients send and JavaScript servers read as
// U+FFFD; nlohmann refuses it, so it is replaced by \ufffd first.
Json ParseMessageText(std::string text);

Json ResultMessage(const Json& id, Json result);
Json ErrorMessage(const Json& id, int code, const std::string& message, Json data = nullptr);
Json NotificationMessage(const std::string& method, Json params);

}  // namespace sbx::mcp
