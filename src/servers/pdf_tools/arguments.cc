#include "servers/pdf_tools/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "python_text/value.h"

namespace sbx::servers::pdf_tools {
namespace {

struct Problem {
  std::string location, message, type;
  Json input;
};

// pydantic-core shows at most 50 characters of an input's repr.
std::string InputRepr(const Json& value) {
  std::string repr = py::Repr(py::FromJson(value));
  // Counted in code points; the reprs here are mostly ASCII.
  std::u32string cps;
  for (std::size_t i = 0; i < repr.size();) {
    unsigned char c = static_cast<unsigned char>(repr[i]);
    std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    cps.push_back(static_cast<char32_t>(i));  // start offsets
    i += n;
  }
  if (cps.size() <= 50) return repr;
  return repr.substr(0, cps[25]) + "..." + repr.substr(cps[cps.size() - 24]);
}

std::string TypeName(const Json& value) {
  if (value.is_null()) return "NoneType";
  if (value.is_boolean()) return "bool";
  if (value.is_number_integer()) return "int";
  if (value.is_number_float()) return "float";
  if (value.is_string()) return "str";
  if (value.is_array()) return "list";
  return "dict";
}

// pydantic's lax int: ints, bools, integral floats, numeric strings.
std::optional<Problem> AsInt(const std::string& loc, const Json& value, Json& out) {
  if (value.is_number_integer() || value.is_boolean()) {
    out = value.is_boolean() ? Json(value.get<bool>() ? 1 : 0) : value;
    return std::nullopt;
  }
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) {
      out = static_cast<long long>(d);
      return std::nullopt;
    }
    if (!std::isfinite(d))
      return Problem{loc, "Input should be a finite number", "finite_number", value};
    return Problem{loc, "Input should be a valid integer, got a number with a fractional part", "int_from_float", value};
  }
  if (value.is_string()) {
    std::string s = value.get<std::string>();
    std::size_t b = s.find_first_not_of(" \t\n\r\f\v"), e = s.find_last_not_of(" \t\n\r\f\v");
    std::string t = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    std::string digits = t;
    for (std::size_t i = digits.size(); i-- > 0;)
      if (digits[i] == '_' && i > 0 && i + 1 < digits.size()) digits.erase(i, 1);
    char* end = nullptr;
    errno = 0;
    long long n = digits.empty() ? 0 : std::strtoll(digits.c_str(), &end, 10);
    if (!digits.empty() && errno == 0 && end && *end == '\0') {
      out = n;
      return std::nullopt;
    }
    return Problem{loc, "Input should be a valid integer, unable to parse string as an integer", "int_parsing", value};
  }
  return Problem{loc, "Input should be a valid integer", "int_type", value};
}

std::optional<Problem> AsString(const std::string& loc, const Json& value, Json& out) {
  if (value.is_string()) {
    out = value;
    return std::nullopt;
  }
  return Problem{loc, "Input should be a valid string", "string_type", value};
}

// FastMCP's pre_parse_json: a string argument for a non-string field that
// parses as JSON (and not to a string) is replaced by what it parses to.
Json PreParse(const Json& value, Kind kind) {
  if (kind == Kind::kString || !value.is_string()) return value;
  Json parsed = Json::parse(value.get<std::string>(), nullptr, false);
  if (parsed.is_discarded() || parsed.is_string()) return value;
  return parsed;
}

}  // namespace

Parsed ParseArguments(const std::string& tool, const std::vector<Field>& fields, const Json& arguments) {
  Parsed out;
  const Json args = arguments.is_object() ? arguments : Json::object();
  std::vector<Problem> problems;
  for (const Field& f : fields) {
    auto it = args.find(f.name);
    if (it == args.end()) {
      if (f.fallback) out.values[f.name] = *f.fallback;
      else problems.push_back(Problem{f.name, "Field required", "missing", args});
      continue;
    }
    const Json value = PreParse(*it, f.kind);
    Json converted;
    if (f.kind == Kind::kString) {
      if (auto p = AsString(f.name, value, converted)) problems.push_back(*p);
    } else if (f.kind == Kind::kInt) {
      if (auto p = AsInt(f.name, value, converted)) problems.push_back(*p);
    } else if (!value.is_array()) {
      problems.push_back(Problem{f.name, "Input should be a valid list", "list_type", value});
    } else {
      converted = Json::array();
      for (std::size_t i = 0; i < value.size(); ++i) {
        Json item;
        const std::string loc = std::string(f.name) + "." + std::to_string(i);
        auto p = f.kind == Kind::kIntList ? AsInt(loc, value[i], item) : AsString(loc, value[i], item);
        if (p) problems.push_back(*p);
        else converted.push_back(item);
      }
    }
    out.values[f.name] = converted;
  }
  if (problems.empty()) return out;
  std::string text = "Error executing tool " + tool + ": " + std::to_string(problems.size()) + " validation error" +
                     (problems.size() == 1 ? "" : "s") + " for " + tool + "Arguments";
  for (const Problem& p : problems)
    text += "\n" + p.location + "\n  " + p.message + " [type=" + p.type + ", input_value=" + InputRepr(p.input) +
            ", input_type=" + TypeName(p.input) + "]\n    For further information visit https://errors.pydantic.dev/2.11/v/" +
            p.type;
  out.error = text;
  return out;
}

}  // namespace sbx::servers::pdf_tools
