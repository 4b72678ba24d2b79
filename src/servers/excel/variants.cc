#include "servers/excel/variants.h"

#include <map>
#include <set>

namespace sbx::servers::excel {
namespace {

// The tools 0.1.5 and later added (sheet.py's row/column helpers and
// get_merged_ranges got tools of their own).
const std::set<std::string>& AddedAfter0_1_4() {
  static const std::set<std::string> added = {"get_merged_cells", "insert_rows", "insert_columns",
                                              "delete_sheet_rows", "delete_sheet_columns"};
  return added;
}

// {"anyOf": [X, {"type": "null"}], "default": null, "title": T} -> X's keys
// plus default and title, in pydantic's alphabetical order.
Json Plain(const Json& property) {
  auto any = property.find("anyOf");
  if (any == property.end() || !any->is_array() || any->empty()) return property;
  std::map<std::string, Json> keys;
  for (const auto& [k, v] : (*any)[0].items()) keys[k] = v;
  for (const auto& [k, v] : property.items())
    if (k != "anyOf") keys[k] = v;
  Json out = Json::object();
  for (const auto& [k, v] : keys) out[k] = v;
  return out;
}

}  // namespace

bool InVariant(const std::string& variant, const std::string& tool) {
  if (variant != kVariant0_1_4) return true;
  return AddedAfter0_1_4().count(tool) == 0;
}

Json VariantInputSchema(const std::string& variant, const Json& input) {
  if (variant != kVariant0_1_4) return input;
  Json out = input;
  for (auto& [name, property] : out["properties"].items()) property = Plain(property);
  return out;
}

bool VariantHasOutputSchema(const std::string& variant) { return variant != kVariant0_1_4; }

}  // namespace sbx::servers::excel
