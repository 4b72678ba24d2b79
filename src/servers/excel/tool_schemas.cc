// Each tool is written once as its Python parameter list; the pydantic
// shapes are produced here. Pydantic writes every property's keys in
// alphabetical order ("anyOf", "default", "items", "title", "type"), so the
// shapes are built as sorted maps.
#include "servers/excel/tool_schemas.h"

#include <initializer_list>
#include <map>
#include <optional>

#include "python_text/fastmcp_arguments.h"

namespace sbx::servers::excel {
namespace {

enum class Kind { kStr, kInt, kBool, kDict, kListStr, kListList };

struct Param {
  const char* name;
  Kind kind;
  // Absent: required. A JSON null: `Optional[...] = None`.
  std::optional<Json> default_value = std::nullopt;
};

// The type keys of one kind, without title or default.
std::map<std::string, Json> TypeKeys(Kind kind) {
  switch (kind) {
    case Kind::kStr: return {{"type", "string"}};
    case Kind::kInt: return {{"type", "integer"}};
    case Kind::kBool: return {{"type", "boolean"}};
    case Kind::kDict: return {{"additionalProperties", true}, {"type", "object"}};
    case Kind::kListStr: return {{"items", Json{{"type", "string"}}}, {"type", "array"}};
    case Kind::kListList:
      return {{"items", Json{{"items", Json::object()}, {"type", "array"}}}, {"type", "array"}};
  }
  return {};
}

Json Sorted(const std::map<std::string, Json>& keys) {
  Json out = Json::object();
  for (const auto& [k, v] : keys) out[k] = v;
  return out;
}

Json Property(const Param& p) {
  std::map<std::string, Json> keys;
  if (p.default_value && p.default_value->is_null()) {
    // Optional[X] = None: anyOf [X, null].
    keys["anyOf"] = Json::array({Sorted(TypeKeys(p.kind)), Json{{"type", "null"}}});
  } else {
    keys = TypeKeys(p.kind);
  }
  if (p.default_value) keys["default"] = *p.default_value;
  keys["title"] = py::FieldTitle(p.name);
  return Sorted(keys);
}

Json Input(const std::string& tool, std::initializer_list<Param> params) {
  Json props = Json::object(), required = Json::array();
  for (const auto& p : params) {
    props[p.name] = Property(p);
    if (!p.default_value) required.push_back(p.name);
  }
  return Json{{"properties", std::move(props)},
              {"required", std::move(required)},
              {"title", tool + "Arguments"},
              {"type", "object"}};
}

const Json kNull = nullptr;

std::vector<ToolSchema> Build() {
  const Param file{"filepath", Kind::kStr};
  const Param sheet{"sheet_name", Kind::kStr};
  std::vector<ToolSchema> out;
  auto add = [&](const std::string& name, std::initializer_list<Param> params) {
    out.push_back({name, Input(name, params), ResultOutputSchema(name)});
  };
  const std::initializer_list<Param> formula = {file, sheet, {"cell", Kind::kStr}, {"formula", Kind::kStr}};
  add("apply_formula", formula);
  add("validate_formula_syntax", formula);
  add("format_range", {file,
                       sheet,
                       {"start_cell", Kind::kStr},
                       {"end_cell", Kind::kStr, kNull},
                       {"bold", Kind::kBool, false},
                       {"italic", Kind::kBool, false},
                       {"underline", Kind::kBool, false},
                       {"font_size", Kind::kInt, kNull},
                       {"font_color", Kind::kStr, kNull},
                       {"bg_color", Kind::kStr, kNull},
                       {"border_style", Kind::kStr, kNull},
                       {"border_color", Kind::kStr, kNull},
                       {"number_format", Kind::kStr, kNull},
                       {"alignment", Kind::kStr, kNull},
                       {"wrap_text", Kind::kBool, false},
                       {"merge_cells", Kind::kBool, false},
                       {"protection", Kind::kDict, kNull},
                       {"conditional_format", Kind::kDict, kNull}});
  add("read_data_from_excel", {file,
                               sheet,
                               {"start_cell", Kind::kStr, "A1"},
                               {"end_cell", Kind::kStr, kNull},
                               {"preview_only", Kind::kBool, false}});
  add("write_data_to_excel", {file, sheet, {"data", Kind::kListList}, {"start_cell", Kind::kStr, "A1"}});
  add("create_workbook", {file});
  add("create_worksheet", {file, sheet});
  add("create_chart", {file,
                       sheet,
                       {"data_range", Kind::kStr},
                       {"chart_type", Kind::kStr},
                       {"target_cell", Kind::kStr},
                       {"title", Kind::kStr, ""},
                       {"x_axis", Kind::kStr, ""},
                       {"y_axis", Kind::kStr, ""}});
  add("create_pivot_table", {file,
                             sheet,
                             {"data_range", Kind::kStr},
                             {"rows", Kind::kListStr},
                             {"values", Kind::kListStr},
                             {"columns", Kind::kListStr, kNull},
                             {"agg_func", Kind::kStr, "mean"}});
  add("create_table", {file,
                       sheet,
                       {"data_range", Kind::kStr},
                       {"table_name", Kind::kStr, kNull},
                       {"table_style", Kind::kStr, "TableStyleMedium9"}});
  add("copy_worksheet", {file, {"source_sheet", Kind::kStr}, {"target_sheet", Kind::kStr}});
  add("delete_worksheet", {file, sheet});
  add("rename_worksheet", {file, {"old_name", Kind::kStr}, {"new_name", Kind::kStr}});
  add("get_workbook_metadata", {file, {"include_ranges", Kind::kBool, false}});
  const std::initializer_list<Param> span = {file, sheet, {"start_cell", Kind::kStr}, {"end_cell", Kind::kStr}};
  add("merge_cells", span);
  add("unmerge_cells", span);
  add("get_merged_cells", {file, sheet});
  add("copy_range", {file,
                     sheet,
                     {"source_start", Kind::kStr},
                     {"source_end", Kind::kStr},
                     {"target_start", Kind::kStr},
                     {"target_sheet", Kind::kStr, kNull}});
  add("delete_range",
      {file, sheet, {"start_cell", Kind::kStr}, {"end_cell", Kind::kStr}, {"shift_direction", Kind::kStr, "up"}});
  add("validate_excel_range", {file, sheet, {"start_cell", Kind::kStr}, {"end_cell", Kind::kStr, kNull}});
  add("get_data_validation_info", {file, sheet});
  add("insert_rows", {file, sheet, {"start_row", Kind::kInt}, {"count", Kind::kInt, 1}});
  add("insert_columns", {file, sheet, {"start_col", Kind::kInt}, {"count", Kind::kInt, 1}});
  add("delete_sheet_rows", {file, sheet, {"start_row", Kind::kInt}, {"count", Kind::kInt, 1}});
  add("delete_sheet_columns", {file, sheet, {"start_col", Kind::kInt}, {"count", Kind::kInt, 1}});
  return out;
}

}  // namespace

Json ResultOutputSchema(const std::string& name) {
  return Json{{"properties", Json{{"result", Json{{"title", "Result"}, {"type", "string"}}}}},
              {"required", Json::array({"result"})},
              {"title", name + "Output"},
              {"type", "object"}};
}

const std::vector<ToolSchema>& ToolSchemas() {
  static const std::vector<ToolSchema> schemas = Build();
  return schemas;
}

}  // namespace sbx::servers::excel
