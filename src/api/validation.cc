#include "api/validation.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace sbx::api {

void ValidationErrors::Add(std::string type, Json loc, std::string msg, Json input,
                           std::optional<Json> ctx) {
  Json item;
  item["type"] = std::move(type);
  item["loc"] = std::move(loc);
  item["msg"] = std::move(msg);
  item["input"] = std::move(input);
  if (ctx) item["ctx"] = std::move(*ctx);
  items_.push_back(std::move(item));
}

http::Response ValidationErrors::ToResponse() const {
  Json body;
  body["detail"] = items_;
  return http::Response{422, "application/json", body.dump(), {}};
}

std::optional<Json> ParseJsonBody(const std::string& body, ValidationErrors& errors) {
  // FastAPI treats only an empty body as missing; whitespace is bad JSON.
  if (body.empty()) {
    errors.Add("missing", Json::array({"body"}), "Field required", nullptr);
    return std::nullopt;
  }
  try {
    return Json::parse(body);
  } catch (const Json::parse_error& e) {
    // nlohmann counts bytes from 1 at the failing character; Python counts from 0.
    std::int64_t pos = e.byte > 0 ? static_cast<std::int64_t>(e.byte) - 1 : 0;
    errors.Add("json_invalid", Json::array({"body", pos}), "JSON decode error", Json::object(),
               Json{{"error", "Invalid JSON at byte " + std::to_string(pos)}});
    return std::nullopt;
  }
}

namespace {

constexpr std::int64_t kSaturated = INT64_MAX;

// pydantic's str -> int: surrounding whitespace, a sign, Python-style single
// underscores between digits, and an optional fraction of zeros ("120.0",
// "120."). Values past int64 saturate: they can only fail a range bound.
std::optional<std::int64_t> ParseIntString(std::string s) {
  auto b = s.find_first_not_of(" \t\n\r\f\v");
  auto e = s.find_last_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return std::nullopt;
  s = s.substr(b, e - b + 1);
  bool negative = false;
  std::size_t i = 0;
  if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
  std::string digits;
  bool last_underscore = false;
  for (; i < s.size() && s[i] != '.'; ++i) {
    char c = s[i];
    if (c == '_') {
      if (digits.empty() || last_underscore) return std::nullopt;
      last_underscore = true;
    } else if (c >= '0' && c <= '9') {
      digits.push_back(c);
      last_underscore = false;
    } else {
      return std::nullopt;
    }
  }
  if (digits.empty() || last_underscore) return std::nullopt;
  if (i < s.size()) {  // a fraction: only zeros make it an integer
    for (++i; i < s.size(); ++i)
      if (s[i] != '0') return std::nullopt;
  }
  std::int64_t out = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  if (ec == std::errc::result_out_of_range) return negative ? INT64_MIN : kSaturated;
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return negative ? -out : out;
}

}  // namespace

std::optional<std::int64_t> ValidateInt(const Json& value, const Json& loc, ValidationErrors& errors) {
  if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
  if (value.is_number_unsigned()) {
    std::uint64_t u = value.get<std::uint64_t>();
    return u > static_cast<std::uint64_t>(kSaturated) ? kSaturated : static_cast<std::int64_t>(u);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) {
      errors.Add("int_from_float", loc,
                 "Input should be a valid integer, got a number with a fractional part", value);
      return std::nullopt;
    }
    if (d >= 9.2e18) return kSaturated;
    if (d <= -9.2e18) return INT64_MIN;
    return static_cast<std::int64_t>(d);
  }
  if (value.is_string()) {
    if (auto parsed = ParseIntString(value.get<std::string>())) return parsed;
    errors.Add("int_parsing", loc, "Input should be a valid integer, unable to parse string as an integer",
               value);
    return std::nullopt;
  }
  errors.Add("int_type", loc, "Input should be a valid integer", value);
  return std::nullopt;
}

bool ValidateRange(std::int64_t value, const Json& input, const Json& loc, std::int64_t ge,
                   std::int64_t le, ValidationErrors& errors) {
  if (value < ge) {
    errors.Add("greater_than_equal", loc,
               "Input should be greater than or equal to " + std::to_string(ge), input,
               Json{{"ge", ge}});
    return false;
  }
  if (value > le) {
    errors.Add("less_than_equal", loc, "Input should be less than or equal to " + std::to_string(le),
               input, Json{{"le", le}});
    return false;
  }
  return true;
}

std::optional<std::optional<std::string>> ValidateOptionalString(const Json& value, const Json& loc,
                                                                  ValidationErrors& errors) {
  if (value.is_null()) return std::optional<std::string>();
  if (value.is_string()) return std::optional<std::string>(value.get<std::string>());
  errors.Add("string_type", loc, "Input should be a valid string", value);
  return std::nullopt;
}

std::string ExpectedList(const std::vector<std::string>& allowed) {
  std::string out;
  for (std::size_t i = 0; i < allowed.size(); ++i) {
    if (i > 0) out += i + 1 == allowed.size() ? " or " : ", ";
    out += "'" + allowed[i] + "'";
  }
  return out;
}

std::optional<std::string> ValidateEnum(const Json& value, const std::vector<std::string>& allowed,
                                        const Json& loc, ValidationErrors& errors) {
  if (value.is_string()) {
    std::string s = value.get<std::string>();
    if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return s;
  }
  std::string expected = ExpectedList(allowed);
  errors.Add("enum", loc, "Input should be " + expected, value, Json{{"expected", expected}});
  return std::nullopt;
}

std::optional<bool> QueryBool(const http::QueryParams& query, const std::string& name,
                              bool default_value, ValidationErrors& errors) {
  auto raw = query.Get(name);
  if (!raw) return default_value;
  std::string v = *raw;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* t : {"1", "on", "t", "true", "y", "yes"})
    if (v == t) return true;
  for (const char* f : {"0", "off", "f", "false", "n", "no"})
    if (v == f) return false;
  errors.Add("bool_parsing", Json::array({"query", name}),
             "Input should be a valid boolean, unable to interpret input", *raw);
  return std::nullopt;
}

void ValidateRegion(const http::QueryParams& query, ValidationErrors& errors) {
  auto raw = query.Get("region");
  if (!raw) return;
  ValidateEnum(Json(*raw), {"us", "asia"}, Json::array({"query", "region"}), errors);
}

}  // namespace sbx::api
