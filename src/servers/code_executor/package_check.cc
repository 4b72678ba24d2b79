#include "servers/code_executor/package_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/utf8.h"
#include "js_text/string.h"

namespace sbx::servers::code_executor {
namespace {

using utf8::FromUtf16;
using utf8::ToUtf16;

// Per name: no spec → "Package not found"; an ImportError → its text; any
// other exception → "Unexpected error: <text>"; else installed, with the
// module's __version__ (or its `version`) and __file__, None when absent.
constexpr const char* kProbeBody = R"PY(
report = {}
for name in wanted:
    try:
        if importlib.util.find_spec(name) is None:
            report[name] = {"installed": False, "error": "Package not found"}
            continue
        module = importlib.import_module(name)
        found_version = getattr(module, "__version__", None)
        if found_version is None:
            found_version = getattr(module, "version", None)
        report[name] = {
            "installed": True,
            "version": found_version,
            "location": getattr(module, "__file__", None),
        }
    except ImportError as problem:
        report[name] = {"installed": False, "error": str(problem)}
    except Exception as problem:
        report[name] = {"installed": False, "error": "Unexpected error: " + str(problem)}

print(json.dumps(report))
)PY";

// JavaScript's array index: a canonical decimal below 2^32 - 1.
bool IsArrayIndex(const std::string& key) {
  if (key.empty() || key.size() > 10) return false;
  if (key.size() > 1 && key[0] == '0') return false;
  for (char c : key)
    if (c < '0' || c > '9') return false;
  return std::stoull(key) < 4294967295ull;
}

bool Truthy(const Json& v) {
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) {
    double d = v.get<double>();
    return d != 0 && !std::isnan(d);
  }
  if (v.is_string()) return !v.get_ref<const std::string&>().empty();
  return true;  // objects and arrays
}

// V8's excerpt of the source around `pos` (UTF-16 units) in its JSON.parse
// messages: all of a short source, else 10 units either side with "..."
// where it was cut.
std::string Excerpt(const std::u16string& source, std::size_t pos) {
  constexpr std::size_t kContext = 10;
  if (source.size() < 2 * kContext + 1) return "\"" + utf8::FromUtf16(source) + "\"";
  std::size_t start = pos >= kContext ? pos - kContext : 0;
  std::size_t end = std::min(source.size(), pos + kContext);
  std::string inner = "\"" + utf8::FromUtf16(source.substr(start, end - start)) + "\"";
  return (start > 0 ? "..." : "") + inner + (end < source.size() ? "..." : "");
}

std::string LineAndColumn(const std::u16string& source, std::size_t pos) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < pos && i < source.size(); ++i) {
    if (source[i] == u'\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "(line " + std::to_string(line) + " column " + std::to_string(column) + ")";
}

// The SyntaxError message JSON.parse gives for the common failures: empty
// or cut-short input, a stray token, text after the value.
std::string JsonParseMessage(const std::string& text, const Json::parse_error& e) {
  std::string what = e.what();
  if (what.find("unexpected end of input") != std::string::npos)
    return "Unexpected end of JSON input";
  std::size_t byte = e.byte > 0 ? e.byte - 1 : 0;
  if (byte > text.size()) byte = text.size();
  std::u16string source = utf8::ToUtf16(text);
  std::size_t pos = utf8::ToUtf16(text.substr(0, byte)).size();
  if (what.find("expected end of input") != std::string::npos)
    return "Unexpected non-whitespace character after JSON at position " + std::to_string(pos) +
           " " + LineAndColumn(source, pos);
  if (pos >= source.size()) return "Unexpected end of JSON input";
  std::u16string token = source.substr(pos, 1);
  if (token[0] >= 0xD800 && token[0] < 0xDC00 && pos + 1 < source.size())
    token = source.substr(pos, 2);
  return "Unexpected token '" + utf8::FromUtf16(token) + "', " + Excerpt(source, pos) +
         " is not valid JSON";
}

}  // namespace

std::string ProbeScript(const Json& packages) {
  // JSON of strings is a Python list literal with the same strings (the
  // escapes JSON writes are Python escapes too; non-ASCII stays as is).
  return "import importlib\nimport importlib.util\nimport json\n\nwanted = " + packages.dump() +
         "\n" + kProbeBody;
}

std::variant<Json, std::string> ParseProbeOutput(const std::string& stdout_text) {
  std::string text(js::Trim(stdout_text));
  if (text.empty()) return std::string("Unexpected end of JSON input");
  try {
    return AsJavaScriptValue(Json::parse(text));
  } catch (const Json::parse_error& e) {
    return JsonParseMessage(text, e);
  }
}

Json AsJavaScriptValue(const Json& value) {
  if (value.is_object()) {
    std::vector<std::pair<unsigned long long, std::string>> indices;
    std::vector<std::string> others;
    for (const auto& [key, _] : value.items()) {
      if (IsArrayIndex(key))
        indices.emplace_back(std::stoull(key), key);
      else
        others.push_back(key);
    }
    std::sort(indices.begin(), indices.end());
    Json out = Json::object();
    for (const auto& [_, key] : indices) out[key] = AsJavaScriptValue(value.at(key));
    for (const auto& key : others) out[key] = AsJavaScriptValue(value.at(key));
    return out;
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& item : value) out.push_back(AsJavaScriptValue(item));
    return out;
  }
  if (value.is_number_float()) {
    double d = value.get<double>();
    // JSON.stringify prints integral numbers without a fraction (and -0 as 0).
    if (std::trunc(d) == d && std::fabs(d) < 9007199254740992.0)
      return static_cast<std::int64_t>(d);
  }
  return value;
}

Json PackageReport(const std::string& env_type, const Json& details) {
  bool all_installed = true;
  Json not_installed = Json::array();
  if (details.is_object()) {
    for (const auto& [name, info] : details.items()) {
      bool installed = info.is_object() && info.contains("installed") && Truthy(info["installed"]);
      if (!installed) {
        all_installed = false;
        not_installed.push_back(name);
      }
    }
  }
  return Json{{"status", "success"},
              {"env_type", env_type},
              {"all_installed", all_installed},
              {"not_installed", std::move(not_installed)},
              {"package_details", details}};
}

}  // namespace sbx::servers::code_executor
