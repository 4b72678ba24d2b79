#include "servers/excel/validation_rules.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "ooxml/xml.h"

namespace sbx::servers::excel {
namespace {

using ooxml::Children;
using ooxml::Child;

std::optional<std::string> AttrText(pugi::xml_node node, std::string_view name) {
  auto a = ooxml::Attr(node, name);
  if (!a) return std::nullopt;
  return std::string(a.value());
}

std::optional<std::string> ChildText(pugi::xml_node node, std::string_view name) {
  auto c = ooxml::Child(node, name);
  if (!c) return std::nullopt;
  return std::string(c.text().get());
}

}  // namespace

std::vector<DataValidation> ReadValidations(const Sheet& sheet) {
  std::vector<DataValidation> out;
  for (auto dv : Children(Child(sheet.root(), "dataValidations"), "dataValidation")) {
    DataValidation v;
    v.type = AttrText(dv, "type");
    v.op = AttrText(dv, "operator");
    v.prompt = AttrText(dv, "prompt");
    v.prompt_title = AttrText(dv, "promptTitle");
    v.error = AttrText(dv, "error");
    v.error_title = AttrText(dv, "errorTitle");
    auto blank = AttrText(dv, "allowBlank");
    v.allow_blank = blank && (*blank == "1" || *blank == "true");
    v.formula1 = ChildText(dv, "formula1");
    v.formula2 = ChildText(dv, "formula2");
    std::string sqref = AttrText(dv, "sqref").value_or("");
    std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>> seen;
    std::size_t i = 0;
    while (i < sqref.size()) {
      std::size_t j = sqref.find(' ', i);
      std::string token = sqref.substr(i, j == std::string::npos ? std::string::npos : j - i);
      i = j == std::string::npos ? sqref.size() : j + 1;
      if (token.empty()) continue;
      auto b = RangeBoundaries(token);
      if (!b) continue;
      if (seen.insert({b->min_col, b->min_row, b->max_col, b->max_row}).second) v.ranges.push_back(*b);
    }
    std::sort(v.ranges.begin(), v.ranges.end(), [](const Bounds& a, const Bounds& b) {
      return std::tie(a.min_col, a.min_row, a.max_col, a.max_row) < std::tie(b.min_col, b.min_row, b.max_col, b.max_row);
    });
    out.push_back(std::move(v));
  }
  return out;
}

std::string SqrefText(const DataValidation& dv) {
  std::string out;
  for (const auto& b : dv.ranges) out += (out.empty() ? "" : " ") + RangeText(b);
  return out;
}

}  // namespace sbx::servers::excel
