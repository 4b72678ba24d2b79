#include "servers/filesystem/zod3_issues.h"

#include <cmath>
#include <string>

#include "core/json_text.h"
#include "mcp/schema.h"

namespace sbx::servers::filesystem {
namespace {

// zod 3's getParsedType names, for what JSON can carry.
std::string ParsedType(const Json* v) {
  if (v == nullptr) return "undefined";
  if (v->is_null()) return "null";
  if (v->is_boolean()) return "boolean";
  if (v->is_number()) return v->is_number_float() && std::isnan(v->get<double>()) ? "nan" : "number";
  if (v->is_string()) return "string";
  if (v->is_array()) return "array";
  return "object";
}

// z.enum's options as its messages print them: 'a' | 'b'.
std::string EnumOptions(const Json& options) {
  std::string out;
  for (const auto& o : options) out += (out.empty() ? "'" : " | '") + o.get<std::string>() + "'";
  return out;
}

Json InvalidType(const std::string& expected, const std::string& received, const Json& path) {
  return Json{{"code", "invalid_type"},
              {"expected", expected},
              {"received", received},
              {"path", path},
              {"message", received == "undefined" ? "Required" : "Expected " + expected + ", received " + received}};
}

void Check(const Json& schema, const Json* value, const Json& path, Json& issues) {
  const std::string received = ParsedType(value);
  if (schema.contains("enum")) {
    const Json& options = schema["enum"];
    if (received != "string") {
      issues.push_back(InvalidType(EnumOptions(options), received, path));
      return;
    }
    for (const auto& o : options)
      if (o == *value) return;
    const std::string v = value->get<std::string>();
    issues.push_back(Json{{"received", v},
                          {"code", "invalid_enum_value"},
                          {"options", options},
                          {"path", path},
                          {"message", "Invalid enum value. Expected " + EnumOptions(options) + ", received '" + v + "'"}});
    return;
  }
  const std::string type = schema.value("type", "");
  if (type != received) {
    issues.push_back(InvalidType(type, received, path));
    return;
  }
  if (type == "array") {
    const Json& items = schema.contains("items") ? schema["items"] : Json::object();
    for (std::size_t i = 0; i < value->size(); ++i) {
      Json p = path;
      p.push_back(i);
      Check(items, &(*value)[i], p, issues);
    }
  } else if (type == "object") {
    const Json required = schema.value("required", Json::array());
    const Json properties = schema.value("properties", Json::object());
    for (const auto& [key, property] : properties.items()) {
      auto it = value->find(key);
      bool needed = false;
      for (const auto& r : required) needed = needed || r == key;
      if (it == value->end() && !needed) continue;  // optional, or its default fills it
      Json p = path;
      p.push_back(key);
      Check(property, it == value->end() ? nullptr : &*it, p, issues);
    }
  }
}

}  // namespace

Json Zod3Issues(const Json& schema, const Json* value) {
  Json issues = Json::array();
  Check(schema, value, Json::array(), issues);
  return issues;
}

std::string Zod3ErrorText(const Json& issues) {
  std::string text;
  AppendJsonIndented(text, issues, 2);
  return text;
}

Json Zod3Parsed(const Json& schema, const Json& value) {
  Json out = Json::object();
  const Json properties = schema.value("properties", Json::object());
  for (const auto& [key, property] : properties.items()) {
    auto it = value.find(key);
    if (it == value.end()) continue;
    // Objects inside arrays (edit_file's edits) lose their unknown keys too.
    if (property.value("type", "") == "array" && property.contains("items") &&
        property["items"].value("type", "") == "object") {
      Json items = Json::array();
      for (const auto& item : *it) items.push_back(Zod3Parsed(property["items"], item));
      out[key] = std::move(items);
    } else {
      out[key] = *it;
    }
  }
  return mcp::WithDefaults(schema, std::move(out));
}

}  // namespace sbx::servers::filesystem
