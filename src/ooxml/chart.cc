#include "ooxml/chart.h"

#include "ooxml/xml.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kChartNs = "http://schemas.openxmlformats.org/drawingml/2006/chart";
constexpr const char* kDrawingMainNs = "http://schemas.openxmlformats.org/drawingml/2006/main";
constexpr const char* kSheetDrawingNs = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing";
constexpr const char* kRelNs = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

// openpyxl's axis ids: category (or scatter x) 10, value 100 (scatter y 20).
constexpr int kXAxisId = 10;
constexpr int kYAxisId = 100;
constexpr int kScatterYAxisId = 20;

std::string Val(std::string_view tag, std::string_view v) {
  return "<c:" + std::string(tag) + " val=\"" + EscapeXml(v) + "\"/>";
}

std::string Bool(bool b) { return b ? "1" : "0"; }

// A title of rich text: one paragraph, one run (what openpyxl's title_maker writes).
std::string TitleXml(std::string_view text) {
  return "<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr/></a:pPr><a:r><a:t>" + EscapeXml(text) +
         "</a:t></a:r></a:p></c:rich></c:tx></c:title>";
}

std::string SolidLine() { return "<c:spPr><a:ln><a:prstDash val=\"solid\"/></a:ln></c:spPr>"; }

std::string SeriesXml(const ChartSpec& spec, const ChartSeries& s, std::size_t i) {
  std::string x = "<c:ser>" + Val("idx", std::to_string(i)) + Val("order", std::to_string(i));
  if (!s.title_ref.empty()) x += "<c:tx><c:strRef><c:f>" + EscapeXml(s.title_ref) + "</c:f></c:strRef></c:tx>";
  x += SolidLine();
  if (spec.kind == ChartKind::kLine || spec.kind == ChartKind::kScatter)
    x += "<c:marker>" + Val("symbol", "none") + SolidLine() + "</c:marker>";
  bool scatter = spec.kind == ChartKind::kScatter;
  if (!s.categories_ref.empty())
    x += std::string(scatter ? "<c:xVal>" : "<c:cat>") + "<c:numRef><c:f>" + EscapeXml(s.categories_ref) +
         "</c:f></c:numRef>" + (scatter ? "</c:xVal>" : "</c:cat>");
  x += std::string(scatter ? "<c:yVal>" : "<c:val>") + "<c:numRef><c:f>" + EscapeXml(s.values_ref) + "</c:f></c:numRef>" +
       (scatter ? "</c:yVal>" : "</c:val>");
  if (scatter) x += Val("smooth", "0");
  return x + "</c:ser>";
}

std::string DataLabelsXml(const ChartDataLabels& d) {
  return "<c:dLbls>" + Val("showLegendKey", Bool(d.show_legend_key)) + Val("showVal", Bool(d.show_val)) +
         Val("showCatName", Bool(d.show_cat_name)) + Val("showSerName", Bool(d.show_ser_name)) +
         Val("showPercent", Bool(d.show_percent)) + Val("showBubbleSize", Bool(d.show_bubble_size)) + "</c:dLbls>";
}

std::string AxisXml(std::string_view tag, int id, int cross, bool gridlines, const std::optional<std::string>& title,
                    bool category) {
  std::string x = "<c:" + std::string(tag) + ">" + Val("axId", std::to_string(id)) + "<c:scaling>" +
                  Val("orientation", "minMax") + "</c:scaling>" + Val("delete", "0") + Val("axPos", "l");
  if (gridlines) x += "<c:majorGridlines/>";
  if (title) x += TitleXml(*title);
  x += Val("majorTickMark", "none") + Val("minorTickMark", "none") + Val("crossAx", std::to_string(cross));
  if (category) x += Val("lblOffset", "100");
  return x + "</c:" + std::string(tag) + ">";
}

}  // namespace

std::string QuoteSheetName(std::string_view sheet) {
  std::string out = "'";
  for (char c : sheet) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string ColumnLetters(std::uint32_t column) {
  std::string out;
  while (column > 0) {
    std::uint32_t rem = (column - 1) % 26;
    out.insert(out.begin(), static_cast<char>('A' + rem));
    column = (column - 1) / 26;
  }
  return out;
}

std::string CellFormula(std::string_view sheet, std::uint32_t col, std::uint32_t row) {
  return QuoteSheetName(sheet) + "!" + ColumnLetters(col) + std::to_string(row);
}

std::string RangeFormula(std::string_view sheet, std::uint32_t min_col, std::uint32_t min_row, std::uint32_t max_col,
                         std::uint32_t max_row) {
  std::string out = QuoteSheetName(sheet) + "!$" + ColumnLetters(min_col) + "$" + std::to_string(min_row);
  if (min_col == max_col && min_row == max_row) return out;
  return out + ":$" + ColumnLetters(max_col) + "$" + std::to_string(max_row);
}

std::string ChartXml(const ChartSpec& spec) {
  std::string x = std::string("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><c:chartSpace xmlns:c=\"") +
                  kChartNs + "\" xmlns:a=\"" + kDrawingMainNs + "\" xmlns:r=\"" + kRelNs + "\"><c:chart>";
  if (spec.title) x += TitleXml(*spec.title) + Val("autoTitleDeleted", "0");
  x += "<c:plotArea><c:layout/>";
  const bool pie = spec.kind == ChartKind::kPie;
  const bool scatter = spec.kind == ChartKind::kScatter;
  std::string tag;
  switch (spec.kind) {
    case ChartKind::kBar: tag = "barChart"; break;
    case ChartKind::kLine: tag = "lineChart"; break;
    case ChartKind::kPie: tag = "pieChart"; break;
    case ChartKind::kScatter: tag = "scatterChart"; break;
    case ChartKind::kArea: tag = "areaChart"; break;
  }
  x += "<c:" + tag + ">";
  switch (spec.kind) {
    case ChartKind::kBar:
      x += Val("barDir", spec.bar_direction == BarDirection::kBar ? "bar" : "col") + Val("grouping", "clustered");
      break;
    case ChartKind::kLine:
    case ChartKind::kArea: x += Val("grouping", "standard"); break;
    case ChartKind::kPie: x += Val("varyColors", "1"); break;
    case ChartKind::kScatter: x += Val("scatterStyle", "lineMarker"); break;
  }
  for (std::size_t i = 0; i < spec.series.size(); ++i) x += SeriesXml(spec, spec.series[i], i);
  if (spec.data_labels) x += DataLabelsXml(*spec.data_labels);
  if (spec.kind == ChartKind::kBar) x += Val("gapWidth", "150");
  if (pie) {
    x += Val("firstSliceAng", "0");
  } else {
    int y_id = scatter ? kScatterYAxisId : kYAxisId;
    x += Val("axId", std::to_string(kXAxisId)) + Val("axId", std::to_string(y_id));
  }
  x += "</c:" + tag + ">";
  if (!pie) {
    int y_id = scatter ? kScatterYAxisId : kYAxisId;
    // openpyxl's axes: category axes without gridlines, value axes with.
    bool x_grid = spec.x_major_gridlines.value_or(scatter);
    bool y_grid = spec.y_major_gridlines.value_or(true);
    x += AxisXml(scatter ? "valAx" : "catAx", kXAxisId, y_id, x_grid, spec.x_axis_title, !scatter);
    x += AxisXml("valAx", y_id, kXAxisId, y_grid, spec.y_axis_title, false);
  }
  x += "</c:plotArea>";
  if (spec.legend_position) x += "<c:legend>" + Val("legendPos", *spec.legend_position) + Val("overlay", "0") + "</c:legend>";
  x += Val("plotVisOnly", "1") + Val("dispBlanksAs", "gap") + "</c:chart></c:chartSpace>";
  return x;
}

std::string DrawingXml(const std::vector<DrawingChart>& charts) {
  std::string x = std::string("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><xdr:wsDr xmlns:xdr=\"") +
                  kSheetDrawingNs + "\" xmlns:a=\"" + kDrawingMainNs + "\">";
  for (const auto& c : charts) {
    x += "<xdr:oneCellAnchor><xdr:from><xdr:col>" + std::to_string(c.anchor.col) + "</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>" +
         std::to_string(c.anchor.row) + "</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx=\"" +
         std::to_string(c.anchor.width_emu) + "\" cy=\"" + std::to_string(c.anchor.height_emu) +
         "\"/><xdr:graphicFrame macro=\"\"><xdr:nvGraphicFramePr><xdr:cNvPr id=\"" + std::to_string(c.shape_id) +
         "\" name=\"" + EscapeXml(c.name) + "\"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>"
         "<xdr:xfrm><a:off x=\"0\" y=\"0\"/><a:ext cx=\"0\" cy=\"0\"/></xdr:xfrm><a:graphic><a:graphicData uri=\"" +
         kChartNs + "\"><c:chart xmlns:c=\"" + kChartNs + "\" xmlns:r=\"" + kRelNs + "\" r:id=\"" + EscapeXml(c.rel_id) +
         "\"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:oneCellAnchor>";
  }
  return x + "</xdr:wsDr>";
}

}  // namespace sbx::ooxml
