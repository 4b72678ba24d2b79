// AddChartToWorksheet: hooking a chart part into a worksheet.
#include <set>

#include "ooxml/chart.h"
#include "ooxml/content_types.h"
#include "ooxml/relationships.h"
#include "ooxml/xml.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kRelNs = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

// Children of <worksheet> that come after <drawing> (CT_Worksheet's order):
// a new <drawing> goes before the first of them.
constexpr std::string_view kAfterDrawing[] = {"legacyDrawing", "legacyDrawingHF", "drawingHF", "picture", "oleObjects",
                                              "controls", "webPublishItems", "tableParts", "extLst"};

std::string FirstFree(const Package& p, std::string_view folder, std::string_view stem) {
  for (unsigned n = 1;; ++n) {
    std::string name = std::string(folder) + std::string(stem) + std::to_string(n) + ".xml";
    if (!p.Has(name)) return name;
  }
}

Result<Relationships> ReadRels(const Package& p, const std::string& rels_part, const Limits& limits) {
  if (!p.Has(rels_part)) return Relationships();
  return Relationships::Parse(*p.Bytes(rels_part), rels_part, limits);
}

// The r:id of the sheet's <drawing>, if it has one.
std::string DrawingRelId(pugi::xml_node worksheet) {
  pugi::xml_node d = Child(worksheet, "drawing");
  return d ? std::string(Attr(d, "id").value()) : std::string();
}

}  // namespace

Result<ChartPlacement> AddChartToWorksheet(Package& package, std::string_view sheet_part, const ChartSpec& spec,
                                           const ChartAnchor& anchor, const Limits& limits) {
  auto sheet_bytes = package.Bytes(sheet_part);
  if (!sheet_bytes.ok()) return sheet_bytes.error();
  auto ct_bytes = package.Bytes(kContentTypesPart);
  if (!ct_bytes.ok()) return ct_bytes.error();
  auto content_types = ContentTypes::Parse(*ct_bytes, limits);
  if (!content_types.ok()) return content_types.error();
  auto sheet = ParseXml(*sheet_bytes, sheet_part, limits);
  if (!sheet.ok()) return sheet.error();
  pugi::xml_node worksheet = sheet->document_element();
  if (LocalName(worksheet) != "worksheet")
    return MakeFault(Fault::kBadValue, sheet_part, "the root element is <" + std::string(worksheet.name()) + ">, not <worksheet>");
  const std::string sheet_rels_part = RelsPartName(sheet_part);
  auto sheet_rels = ReadRels(package, sheet_rels_part, limits);
  if (!sheet_rels.ok()) return sheet_rels.error();

  // Everything is computed first and written to the package at the end, so
  // that an error leaves the package as it was.
  ChartPlacement placed;
  placed.chart_part = FirstFree(package, "/xl/charts/", "chart");
  std::string existing_id = DrawingRelId(worksheet);
  std::string drawing_xml;
  std::string drawing_rels_xml;
  std::string sheet_xml;
  std::string sheet_rels_xml;
  if (!existing_id.empty()) {
    const Relationship* rel = sheet_rels->FindById(existing_id);
    if (rel == nullptr || rel->external)
      return MakeFault(Fault::kBadRelationship, sheet_part,
                       "the <drawing> names relationship " + existing_id + ", which " + sheet_rels_part + " does not hold");
    auto target = Resolve(sheet_part, rel->target);
    if (!target.ok()) return target.error();
    placed.drawing_part = *target;
    auto dbytes = package.Bytes(placed.drawing_part);
    if (!dbytes.ok()) return dbytes.error();
    auto drawing = ParseXml(*dbytes, placed.drawing_part, limits);
    if (!drawing.ok()) return drawing.error();
    const std::string drels_part = RelsPartName(placed.drawing_part);
    auto drels = ReadRels(package, drels_part, limits);
    if (!drels.ok()) return drels.error();
    std::string chart_id = drels->Add(kChartRelType, RelativeTarget(placed.drawing_part, placed.chart_part));
    // A shape id one past the largest in the drawing, and the chart count for its name.
    std::uint32_t max_id = 0;
    std::size_t frames = 0;
    std::vector<pugi::xml_node> stack{drawing->document_element()};
    while (!stack.empty()) {
      pugi::xml_node n = stack.back();
      stack.pop_back();
      if (LocalName(n) == "cNvPr") max_id = std::max<std::uint32_t>(max_id, n.attribute("id").as_uint());
      if (LocalName(n) == "graphicFrame") ++frames;
      for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling())
        if (c.type() == pugi::node_element) stack.push_back(c);
    }
    DrawingChart dc{anchor, chart_id, max_id + 1, "Chart " + std::to_string(frames + 1)};
    // The new anchor is written with its own namespace declarations, so it
    // fits whatever prefixes the existing drawing uses.
    auto fresh = ParseXml(DrawingXml({dc}), placed.drawing_part, limits);
    if (!fresh.ok()) return fresh.error();
    pugi::xml_node root = drawing->document_element();
    pugi::xml_node added = root.append_copy(fresh->document_element().first_child());
    for (pugi::xml_attribute a = fresh->document_element().first_attribute(); a; a = a.next_attribute())
      added.prepend_attribute(a.name()) = a.value();
    drawing_xml = WriteXml(*drawing);
    drawing_rels_xml = drels->Serialize();
  } else {
    placed.drawing_part = FirstFree(package, "/xl/drawings/", "drawing");
    Relationships drels;
    std::string chart_id = drels.Add(kChartRelType, RelativeTarget(placed.drawing_part, placed.chart_part));
    drawing_xml = DrawingXml({DrawingChart{anchor, chart_id, 1, "Chart 1"}});
    drawing_rels_xml = drels.Serialize();
    std::string drawing_id = sheet_rels->Add(kDrawingRelType, RelativeTarget(sheet_part, placed.drawing_part));
    pugi::xml_node before;
    for (pugi::xml_node c = worksheet.first_child(); c && !before; c = c.next_sibling())
      for (std::string_view after : kAfterDrawing)
        if (c.type() == pugi::node_element && LocalName(c) == after) {
          before = c;
          break;
        }
    // The element takes the worksheet's own prefix, if it has one.
    std::string_view root_name = worksheet.name();
    auto colon = root_name.find(':');
    std::string tag = colon == std::string_view::npos ? "drawing" : std::string(root_name.substr(0, colon)) + ":drawing";
    pugi::xml_node d = before ? worksheet.insert_child_before(tag.c_str(), before) : worksheet.append_child(tag.c_str());
    d.append_attribute("xmlns:r") = kRelNs;
    d.append_attribute("r:id") = drawing_id.c_str();
    sheet_xml = WriteXml(*sheet);
    sheet_rels_xml = sheet_rels->Serialize();
    content_types->SetOverride(placed.drawing_part, kDrawingContentType);
  }
  content_types->SetOverride(placed.chart_part, kChartContentType);

  // Every name below was checked or built from checked names: Set cannot fail.
  (void)package.Set(placed.chart_part, ChartXml(spec));
  (void)package.Set(placed.drawing_part, drawing_xml);
  (void)package.Set(RelsPartName(placed.drawing_part), drawing_rels_xml);
  if (!sheet_xml.empty()) {
    (void)package.Set(sheet_part, sheet_xml);
    (void)package.Set(sheet_rels_part, sheet_rels_xml);
  }
  (void)package.Set(kContentTypesPart, content_types->Serialize());
  return placed;
}

}  // namespace sbx::ooxml
