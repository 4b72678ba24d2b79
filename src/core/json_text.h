// Writing JSON text without building a Json value first: the hot path of
// every MCP reply is one long string (a file's text, a directory listing)
// that nlohmann would escape byte by byte through its UTF-8 decoder. The
// output is byte for byte what Json::dump(-1, ' ', false,
// error_handler_t::replace) writes for the same string.
#pragma once

#include <string>
#include <string_view>

#include "core/json.h"

namespace sbx {

// Appends `s` as a JSON string literal (quotes included). Valid UTF-8 is
// copied in runs, escaping only '"', '\\' and control characters as
// nlohmann does; anything else goes through nlohmann itself, so invalid
// bytes are replaced exactly as before.
void AppendJsonString(std::string& out, std::string_view s);

// Appends `value` as Json::dump(-1, ' ', false, replace) writes it, with
// every string (keys too) through AppendJsonString.
void AppendJson(std::string& out, const Json& value);

// Appends `value` as Json::dump(indent, ' ', false, replace) writes it (and
// JSON.stringify(value, null, indent), for the values both can hold).
void AppendJsonIndented(std::string& out, const Json& value, int indent, int depth = 0);

}  // namespace sbx
