// The tool bodies, one per upstream tool, each mirroring its server.py
// function and the excel_mcp helpers it calls: they return the text
// upstream returns and throw PyError where upstream raises. tools.cc turns
// those into results the way FastMCP does.
#pragma once

#include <string>

#include "core/json.h"
#include "servers/excel/book_io.h"

namespace sbx::servers::excel {

using ToolBody = std::string (*)(const Context& ctx, const Json& args);

// Data and formulas (tools_data.cc).
std::string ApplyFormula(const Context& ctx, const Json& args);
std::string ValidateFormulaSyntax(const Context& ctx, const Json& args);
std::string ReadDataFromExcel(const Context& ctx, const Json& args);
std::string WriteDataToExcel(const Context& ctx, const Json& args);
std::string ValidateExcelRange(const Context& ctx, const Json& args);
std::string GetDataValidationInfo(const Context& ctx, const Json& args);

// Workbooks, sheets and ranges (tools_sheet.cc).
std::string CreateWorkbook(const Context& ctx, const Json& args);
std::string CreateWorksheet(const Context& ctx, const Json& args);
std::string CopyWorksheet(const Context& ctx, const Json& args);
std::string DeleteWorksheet(const Context& ctx, const Json& args);
std::string RenameWorksheet(const Context& ctx, const Json& args);
std::string GetWorkbookMetadata(const Context& ctx, const Json& args);
std::string MergeCells(const Context& ctx, const Json& args);
std::string UnmergeCells(const Context& ctx, const Json& args);
std::string GetMergedCells(const Context& ctx, const Json& args);
std::string CopyRange(const Context& ctx, const Json& args);
std::string DeleteRange(const Context& ctx, const Json& args);
std::string InsertRows(const Context& ctx, const Json& args);
std::string InsertColumns(const Context& ctx, const Json& args);
std::string DeleteSheetRows(const Context& ctx, const Json& args);
std::string DeleteSheetColumns(const Context& ctx, const Json& args);

// Formatting, tables, charts and pivots (tools_format.cc, tools_chart.cc).
std::string FormatRange(const Context& ctx, const Json& args);
std::string CreateTable(const Context& ctx, const Json& args);
std::string CreateChart(const Context& ctx, const Json& args);
std::string CreatePivotTable(const Context& ctx, const Json& args);

// A table part over `data_range` of the sheet (openpyxl's Table +
// add_table): throws ValueError for a duplicate name or a bad range.
void AddTable(Workbook& wb, const std::string& sheet_name, const std::string& data_range, const std::string& table_name,
              const std::string& table_style, bool column_stripes);
// uuid4().hex[:8]'s shape: 8 random lowercase hex digits.
std::string RandomHex8();

// Argument access: FastMCP's checks (python_text/fastmcp_arguments.h) have
// coerced the types the schema names and filled defaults.
std::string Str(const Json& args, const char* key);
// An Optional[str]: "" when null or absent (upstream tests them for truth).
std::string OptStr(const Json& args, const char* key);
std::int64_t Int(const Json& args, const char* key);
bool Bool(const Json& args, const char* key);

}  // namespace sbx::servers::excel
