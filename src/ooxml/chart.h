// DrawingML charts in spreadsheets: a chart part (c:chartSpace), the
// spreadsheet drawing that places it (xdr:wsDr, one anchor per chart with a
// graphicFrame pointing at the chart by relationship id), and the content
// types and relationships that hook both to a worksheet.
//
// What is written follows what openpyxl 3.0 writes for the same chart (so
// openpyxl reads it back with the same type, series and references, and
// LibreOffice renders it), with the schema's required scatterStyle added.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ooxml/error.h"
#include "ooxml/limits.h"
#include "ooxml/package.h"

namespace sbx::ooxml {

enum class ChartKind { kBar, kLine, kPie, kScatter, kArea };
enum class BarDirection { kColumn, kBar };  // vertical bars ("col") or horizontal ("bar")

// Formulas as a chart holds them: "'Data'!B1", "'Data'!$A$2:$A$4".
struct ChartSeries {
  std::string title_ref;       // the cell naming the series (c:tx/c:strRef), or "" for none
  std::string categories_ref;  // c:cat (c:xVal for scatter), or "" for none
  std::string values_ref;      // c:val (c:yVal for scatter)
};

struct ChartDataLabels {
  bool show_legend_key = false;
  bool show_val = true;
  bool show_cat_name = false;
  bool show_ser_name = false;
  bool show_percent = false;
  bool show_bubble_size = false;
};

struct ChartSpec {
  ChartKind kind = ChartKind::kBar;
  BarDirection bar_direction = BarDirection::kColumn;
  // Present (even empty, as openpyxl writes for title "") -> a title element.
  std::optional<std::string> title;
  std::optional<std::string> x_axis_title;  // not for pie
  std::optional<std::string> y_axis_title;  // not for pie
  std::vector<ChartSeries> series;
  // "r", "l", "t", "b" or "tr"; nullopt: no legend.
  std::optional<std::string> legend_position = "r";
  std::optional<ChartDataLabels> data_labels;
  // nullopt: openpyxl's default, gridlines on value axes only.
  std::optional<bool> x_major_gridlines;
  std::optional<bool> y_major_gridlines;
};

// Where a chart sits: its top-left cell (zero-based, as in xdr:from) and
// its size in EMU. The defaults are openpyxl's: E15, 15 cm x 7.5 cm.
struct ChartAnchor {
  std::uint32_t col = 4;
  std::uint32_t row = 14;
  std::int64_t width_emu = 5'400'000;
  std::int64_t height_emu = 2'700'000;
};

inline constexpr std::int64_t kEmuPerCm = 360'000;

// openpyxl's formula forms: sheet names always quoted ('It''s'); a range
// with $ on both corners, one cell as "$B$2"; a title cell without $.
std::string QuoteSheetName(std::string_view sheet);
std::string ColumnLetters(std::uint32_t column);  // 1 -> "A", 27 -> "AA"
std::string CellFormula(std::string_view sheet, std::uint32_t col, std::uint32_t row);  // 'S'!B1
std::string RangeFormula(std::string_view sheet, std::uint32_t min_col, std::uint32_t min_row, std::uint32_t max_col,
                         std::uint32_t max_row);  // 'S'!$A$2:$A$4

// The chart part's XML (for /xl/charts/chartN.xml).
std::string ChartXml(const ChartSpec& spec);

// One anchor of a spreadsheet drawing: the chart's relationship id (in the
// drawing's rels), a drawing-unique shape id and a name ("Chart 1").
struct DrawingChart {
  ChartAnchor anchor;
  std::string rel_id;
  std::uint32_t shape_id = 1;
  std::string name;
};
// A drawing part's XML holding these charts (xdr:oneCellAnchor each).
std::string DrawingXml(const std::vector<DrawingChart>& charts);

inline constexpr std::string_view kChartContentType = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml";
inline constexpr std::string_view kDrawingContentType = "application/vnd.openxmlformats-officedocument.drawing+xml";
inline constexpr std::string_view kChartRelType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart";
inline constexpr std::string_view kDrawingRelType =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing";

struct ChartPlacement {
  std::string chart_part;    // "/xl/charts/chart1.xml"
  std::string drawing_part;  // "/xl/drawings/drawing1.xml"
};

// Adds a chart to a worksheet of `package`: a new chart part (the first
// free /xl/charts/chartN.xml), the sheet's drawing (its existing one, with
// an anchor appended, or a new /xl/drawings/drawingN.xml and a <drawing
// r:id> element in the sheet at its schema place), the relationships sheet
// -> drawing -> chart and the content type overrides. On error the package
// is unchanged. Faults: kMissingPart (sheet or content types), kBadXml /
// kTooLarge / kBadRelationship / kBadContentTypes from the parts read.
Result<ChartPlacement> AddChartToWorksheet(Package& package, std::string_view sheet_part, const ChartSpec& spec,
                                           const ChartAnchor& anchor, const Limits& limits = {});

}  // namespace sbx::ooxml
