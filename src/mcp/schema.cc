#include "mcp/schema.h"

#include <cmath>

#include "core/utf8.h"

namespace sbx::mcp {
namespace {

// zod's name for the type of a JSON value ("undefined" for a missing one).
std::string Received(const Json* v) {
  if (v == nullptr) return "undefined";
  switch (v->type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::string: return "string";
    case Json::value_t::array: return "array";
    case Json::value_t::object: return "object";
    default: return "number";
  }
}

bool IsInteger(const Json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return true;
  if (!v.is_number_float()) return false;
  double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

bool MatchesType(const std::string& type, const Json& v) {
  if (type == "string") return v.is_string();
  if (type == "number") return v.is_number();
  if (type == "integer") return v.is_number() && IsInteger(v);
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "null") return v.is_null();
  return true;  // an unknown type name constrains nothing
}

std::string NumberText(const Json& n) {
  if (n.is_number_float()) {
    double d = n.get<double>();
    if (std::floor(d) == d && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  }
  return n.dump();
}

class Validator {
 public:
  std::vector<SchemaIssue> issues;

  void Check(const Json& schema, const Json* value, Json& path) {
    if (!schema.is_object()) return;  // `true` / absent schemas accept anything
    if (schema.contains("anyOf") || schema.contains("oneOf")) {
      const Json& options = schema.contains("anyOf") ? schema["anyOf"] : schema["oneOf"];
      if (value == nullptr) return Add("Invalid input: expected " + TypeName(schema) + ", received undefined", path);
      for (const auto& option : options) {
        Validator trial;
        Json p = path;
        trial.Check(option, value, p);
        if (trial.issues.empty()) return;
      }
      return Add("Invalid input", path);
    }
    if (schema.contains("allOf"))
      for (const auto& part : schema["allOf"]) Check(part, value, path);
    if (value == nullptr) return Add("Invalid input: expected " + TypeName(schema) + ", received undefined", path);
    if (schema.contains("const")) {
      if (*value != schema["const"]) Add("Invalid input: expected " + schema["const"].dump(), path);
      return;
    }
    if (schema.contains("enum")) {
      const Json& options = schema["enum"];
      for (const auto& o : options)
        if (o == *value) return;
      if (options.size() == 1) return Add("Invalid input: expected " + options[0].dump(), path);
      std::string list;
      for (const auto& o : options) list += (list.empty() ? "" : "|") + o.dump();
      return Add("Invalid option: expected one of " + list, path);
    }
    if (schema.contains("type")) {
      const Json& t = schema["type"];
      bool ok = false;
      if (t.is_string()) ok = MatchesType(t.get<std::string>(), *value);
      if (t.is_array())
        for (const auto& one : t) ok = ok || (one.is_string() && MatchesType(one.get<std::string>(), *value));
      if (!ok) {
        if (t == "integer" && value->is_number()) return Add("Invalid input: expected int, received number", path);
        return Add("Invalid input: expected " + TypeName(schema) + ", received " + Received(value), path);
      }
    }
    if (value->is_string()) CheckString(schema, *value, path);
    if (value->is_number()) CheckNumber(schema, *value, path);
    if (value->is_array()) CheckArray(schema, *value, path);
    if (value->is_object()) CheckObject(schema, *value, path);
  }

 private:
  void Add(std::string message, const Json& path) { issues.push_back({std::move(message), path}); }

  static std::string TypeName(const Json& schema) {
    if (schema.contains("type")) {
      const Json& t = schema["type"];
      if (t.is_string()) return t == "integer" ? "number" : t.get<std::string>();
      if (t.is_array() && !t.empty() && t[0].is_string()) return t[0].get<std::string>();
    }
    if (schema.contains("const")) return schema["const"].dump();
    if (schema.contains("enum") && !schema["enum"].empty()) return schema["enum"][0].dump();
    return "value";
  }

  void CheckString(const Json& schema, const Json& v, const Json& path) {
    // zod counts UTF-16 code units; code points are the close, honest measure.
    std::size_t n = utf8::CountCodePoints(v.get_ref<const std::string&>());
    if (schema.contains("minLength") && n < schema["minLength"].get<std::size_t>())
      Add("Too small: expected string to have >=" + NumberText(schema["minLength"]) + " characters", path);
    if (schema.contains("maxLength") && n > schema["maxLength"].get<std::size_t>())
      Add("Too big: expected string to have <=" + NumberText(schema["maxLength"]) + " characters", path);
  }

  void CheckNumber(const Json& schema, const Json& v, const Json& path) {
    double d = v.get<double>();
    auto num = [&](const char* k) { return schema[k].get<double>(); };
    if (schema.contains("minimum") && d < num("minimum"))
      Add("Too small: expected number to be >=" + NumberText(schema["minimum"]), path);
    if (schema.contains("exclusiveMinimum") && schema["exclusiveMinimum"].is_number() && d <= num("exclusiveMinimum"))
      Add("Too small: expected number to be >" + NumberText(schema["exclusiveMinimum"]), path);
    if (schema.contains("maximum") && d > num("maximum"))
      Add("Too big: expected number to be <=" + NumberText(schema["maximum"]), path);
    if (schema.contains("exclusiveMaximum") && schema["exclusiveMaximum"].is_number() && d >= num("exclusiveMaximum"))
      Add("Too big: expected number to be <" + NumberText(schema["exclusiveMaximum"]), path);
  }

  void CheckArray(const Json& schema, const Json& v, Json& path) {
    if (schema.contains("minItems") && v.size() < schema["minItems"].get<std::size_t>())
      Add("Too small: expected array to have >=" + NumberText(schema["minItems"]) + " items", path);
    if (schema.contains("maxItems") && v.size() > schema["maxItems"].get<std::size_t>())
      Add("Too big: expected array to have <=" + NumberText(schema["maxItems"]) + " items", path);
    if (!schema.contains("items")) return;
    for (std::size_t i = 0; i < v.size(); ++i) {
      path.push_back(i);
      Check(schema["items"], &v[i], path);
      path.erase(path.size() - 1);
    }
  }

  void CheckObject(const Json& schema, const Json& v, Json& path) {
    const Json empty = Json::object();
    const Json& props = schema.contains("properties") ? schema["properties"] : empty;
    std::vector<std::string> required;
    if (schema.contains("required") && schema["required"].is_array())
      for (const auto& r : schema["required"])
        if (r.is_string()) required.push_back(r.get<std::string>());
    auto is_required = [&](const std::string& k) {
      for (const auto& r : required)
        if (r == k) return true;
      return false;
    };
    // Declared properties in schema order (zod's order), then unknown keys.
    for (const auto& [key, sub] : props.items()) {
      auto it = v.find(key);
      path.push_back(key);
      if (it != v.end()) Check(sub, &*it, path);
      else if (is_required(key)) Check(sub, nullptr, path);
      path.erase(path.size() - 1);
    }
    for (const auto& r : required) {
      if (props.contains(r) || v.contains(r)) continue;
      path.push_back(r);
      Add("Invalid input: expected value, received undefined", path);
      path.erase(path.size() - 1);
    }
    if (!schema.contains("additionalProperties")) return;
    const Json& extra = schema["additionalProperties"];
    for (const auto& [key, value] : v.items()) {
      if (props.contains(key)) continue;
      if (extra.is_boolean() && !extra.get<bool>()) {
        Add("Unrecognized key: \"" + key + "\"", path);
      } else if (extra.is_object()) {
        path.push_back(key);
        Check(extra, &value, path);
        path.erase(path.size() - 1);
      }
    }
  }
};

}  // namespace

std::vector<SchemaIssue> Validate(const Json& schema, const Json& value) {
  Validator v;
  Json path = Json::array();
  v.Check(schema, &value, path);
  return std::move(v.issues);
}

std::string FormatIssues(const std::vector<SchemaIssue>& issues) {
  std::string out;
  for (const auto& issue : issues) {
    if (!out.empty()) out += '\n';
    out += issue.message;
    if (issue.path.empty()) continue;
    std::string dotted;
    for (std::size_t i = 0; i < issue.path.size(); ++i) {
      const Json& seg = issue.path[i];
      if (seg.is_number()) dotted += i == 0 ? seg.dump() : "[" + seg.dump() + "]";
      else dotted += (i == 0 ? "" : ".") + seg.get<std::string>();
    }
    out += " at " + dotted;
  }
  return out;
}

Json WithDefaults(const Json& schema, Json arguments) {
  if (!arguments.is_object() || !schema.is_object() || !schema.contains("properties")) return arguments;
  for (const auto& [key, sub] : schema["properties"].items())
    if (!arguments.contains(key) && sub.is_object() && sub.contains("default")) arguments[key] = sub["default"];
  return arguments;
}

}  // namespace sbx::mcp
