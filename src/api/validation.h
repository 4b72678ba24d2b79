// Request validation that answers like the reference service (FastAPI with
// pydantic v2): 422 {"detail":[{"type","loc","msg","input"[,"ctx"]}…]}, every
// problem of the request listed, each naming its field in `loc`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "http/exchange.h"

namespace sbx::api {

class ValidationErrors {
 public:
  void Add(std::string type, Json loc, std::string msg, Json input,
           std::optional<Json> ctx = std::nullopt);
  bool empty() const { return items_.empty(); }
  http::Response ToResponse() const;

 private:
  Json items_ = Json::array();
};

// Parses a JSON request body. Empty body: `missing` at ["body"]; malformed:
// `json_invalid` at ["body", position]. Returns nullopt after adding errors.
std::optional<Json> ParseJsonBody(const std::string& body, ValidationErrors& errors);

// pydantic's lax int: ints, integral floats, bools and numeric strings.
// Adds int_type / int_parsing / int_from_float errors and returns nullopt.
std::optional<std::int64_t> ValidateInt(const Json& value, const Json& loc, ValidationErrors& errors);

// An integer bound check (ge / le) adding greater_than_equal / less_than_equal.
bool ValidateRange(std::int64_t value, const Json& input, const Json& loc, std::int64_t ge,
                   std::int64_t le, ValidationErrors& errors);

// A string or null; adds string_type for anything else.
std::optional<std::optional<std::string>> ValidateOptionalString(const Json& value, const Json& loc,
                                                                  ValidationErrors& errors);

// One of `allowed` (an Enum field); adds `enum` with pydantic's wording.
std::optional<std::string> ValidateEnum(const Json& value, const std::vector<std::string>& allowed,
                                        const Json& loc, ValidationErrors& errors);

// "'a', 'b' or 'c'": pydantic's list of expected values.
std::string ExpectedList(const std::vector<std::string>& allowed);

// Query parameters: a boolean (pydantic's accepted spellings) with default.
std::optional<bool> QueryBool(const http::QueryParams& query, const std::string& name,
                              bool default_value, ValidationErrors& errors);
// The optional `region` parameter of the archive endpoints: us | asia.
void ValidateRegion(const http::QueryParams& query, ValidationErrors& errors);

}  // namespace sbx::api
