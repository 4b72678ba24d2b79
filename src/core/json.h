// JSON type used across sandboxd. ordered_json keeps keys in insertion order,
// so responses list fields in the reference API's order (clients that print
// or diff responses see the same layout as the reference service).
#pragma once

#include <nlohmann/json.hpp>

namespace sbx {
using Json = nlohmann::ordered_json;
}  // namespace sbx
