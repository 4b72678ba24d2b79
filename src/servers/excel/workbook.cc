#include "servers/excel/workbook.h"

#include <algorithm>

#include "core/strings.h"
#include "ooxml/shared_strings.h"
#include "ooxml/xml.h"

namespace sbx::servers::excel {
namespace {

using ooxml::Attr;
using ooxml::Child;
using ooxml::Children;
using ooxml::Fault;
using ooxml::MakeFault;

constexpr std::string_view kRelBase = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
constexpr const char* kMainNs = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
constexpr const char* kRelNs = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
constexpr const char* kWorksheetType = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";

std::string RelType(std::string_view last) { return std::string(kRelBase) + std::string(last); }

// A relationship of `rels` whose type ends in "/<last>" (strict and
// transitional namespaces alike).
const ooxml::Relationship* FindRel(const ooxml::Relationships& rels, std::string_view last) {
  for (const auto& r : rels.all()) {
    std::string_view t = r.type;
    if (t.size() > last.size() && t.substr(t.size() - last.size()) == last && t[t.size() - last.size() - 1] == '/')
      return &r;
  }
  return nullptr;
}

ooxml::Result<ooxml::Relationships> ReadRels(const ooxml::Package& package, std::string_view source,
                                             const ooxml::Limits& limits) {
  std::string name = ooxml::RelsPartName(source);
  if (!package.Has(name)) return ooxml::Relationships{};
  auto bytes = package.Bytes(name);
  if (!bytes) return bytes.error();
  return ooxml::Relationships::Parse(*bytes, name, limits);
}

// The package openpyxl writes for Workbook(): its parts as we write them.
ooxml::Package NewPackage() {
  ooxml::Package p = ooxml::Package::Empty();
  (void)p.Set("/[Content_Types].xml",
              "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
              "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
              "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
              "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
              "<Override PartName=\"/xl/workbook.xml\" "
              "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
              "<Override PartName=\"/xl/styles.xml\" "
              "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
              "<Override PartName=\"/docProps/core.xml\" "
              "ContentType=\"application/vnd.openxmlformats-package.core-properties+xml\"/>"
              "<Override PartName=\"/docProps/app.xml\" "
              "ContentType=\"application/vnd.openxmlformats-officedocument.extended-properties+xml\"/>"
              "</Types>");
  (void)p.Set("/_rels/.rels",
              "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
              "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
              "<Relationship Id=\"rId1\" Type=\"" + RelType("officeDocument") + "\" Target=\"xl/workbook.xml\"/>"
              "<Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/package/2006/relationships/"
              "metadata/core-properties\" Target=\"docProps/core.xml\"/>"
              "<Relationship Id=\"rId3\" Type=\"" + RelType("extended-properties") + "\" Target=\"docProps/app.xml\"/>"
              "</Relationships>");
  (void)p.Set("/docProps/app.xml",
              "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
              "<Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties\">"
              "<Application>Microsoft Excel</Application><AppVersion>3.1</AppVersion></Properties>");
  (void)p.Set("/docProps/core.xml",
              "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
              "<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" "
              "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:creator>openpyxl</dc:creator></cp:coreProperties>");
  (void)p.Set("/xl/workbook.xml",
              std::string("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><workbook xmlns=\"") + kMainNs +
                  "\" xmlns:r=\"" + kRelNs +
                  "\"><workbookPr/><bookViews><workbookView visibility=\"visible\" minimized=\"0\" "
                  "showHorizontalScroll=\"1\" showVerticalScroll=\"1\" showSheetTabs=\"1\" tabRatio=\"600\" "
                  "firstSheet=\"0\" activeTab=\"0\" autoFilterDateGrouping=\"1\"/></bookViews><sheets/>"
                  "<calcPr calcId=\"124519\" fullCalcOnLoad=\"1\"/></workbook>");
  (void)p.Set("/xl/_rels/workbook.xml.rels",
              "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
              "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
              "<Relationship Id=\"rId1\" Type=\"" + RelType("styles") + "\" Target=\"styles.xml\"/>"
              "</Relationships>");
  (void)p.Set("/xl/styles.xml", ooxml::Styles::Default().Serialize());
  return p;
}

}  // namespace

// openpyxl's avoid_duplicate_name: a name equal to another ignoring case
// gets one more than the highest number that follows any occurrence of it
// in the comma-joined names.
std::string AvoidDuplicateName(const std::vector<std::string>& names, const std::string& value) {
  std::string lv = strings::AsciiLower(value);
  bool match = std::any_of(names.begin(), names.end(), [&](const std::string& n) { return strings::AsciiLower(n) == lv; });
  if (!match || value.empty()) return value;
  std::string joined;
  for (std::size_t i = 0; i < names.size(); ++i) joined += (i ? "," : "") + names[i];
  std::string lj = strings::AsciiLower(joined);
  long long highest = 0;
  std::size_t pos = 0;
  while ((pos = lj.find(lv, pos)) != std::string::npos) {
    std::size_t end = pos + lv.size();
    std::size_t digits = end;
    while (digits < lj.size() && lj[digits] >= '0' && lj[digits] <= '9') ++digits;
    if (digits > end) highest = std::max(highest, std::stoll(lj.substr(end, std::min<std::size_t>(digits - end, 15))));
    pos = digits < lj.size() && lj[digits] == ',' ? digits + 1 : digits;
  }
  return value + std::to_string(highest + 1);
}

ooxml::Result<Workbook> Workbook::Load(std::string_view bytes, const LoadLimits& limits) {
  auto package = ooxml::Package::Read(bytes, limits.package);
  if (!package) return package.error();
  return FromPackage(std::move(*package), limits);
}

ooxml::Result<Workbook> Workbook::FromPackage(ooxml::Package package, const LoadLimits& limits) {
  Workbook wb;
  wb.package_ = std::move(package);
  const ooxml::Limits& lim = limits.package;
  auto types_bytes = wb.package_.Bytes(ooxml::kContentTypesPart);
  if (!types_bytes) return types_bytes.error();
  auto types = ooxml::ContentTypes::Parse(*types_bytes, lim);
  if (!types) return types.error();
  wb.types_ = std::move(*types);
  auto root_rels = ReadRels(wb.package_, "/", lim);
  if (!root_rels) return root_rels.error();
  const ooxml::Relationship* office = FindRel(*root_rels, "officeDocument");
  std::string wb_part = "/xl/workbook.xml";
  if (office) {
    auto resolved = ooxml::Resolve("/", office->target);
    if (!resolved) return resolved.error();
    wb_part = *resolved;
  }
  auto wb_bytes = wb.package_.Bytes(wb_part);
  if (!wb_bytes) return wb_bytes.error();
  auto wb_doc = ooxml::ParseXml(*wb_bytes, wb_part, lim);
  if (!wb_doc) return wb_doc.error();
  wb.workbook_part_ = wb_part;
  wb.workbook_xml_ = std::make_shared<pugi::xml_document>();
  wb.workbook_xml_->reset(*wb_doc);
  auto rels = ReadRels(wb.package_, wb_part, lim);
  if (!rels) return rels.error();
  wb.workbook_rels_ = std::move(*rels);

  std::optional<ooxml::SharedStrings> strings;
  if (const auto* r = FindRel(wb.workbook_rels_, "sharedStrings")) {
    auto part = ooxml::Resolve(wb_part, r->target);
    if (!part) return part.error();
    if (wb.package_.Has(*part)) {
      auto sst = ooxml::SharedStrings::Parse(*wb.package_.Bytes(*part), lim, *part);
      if (!sst) return sst.error();
      strings = std::move(*sst);
    }
  }
  if (const auto* r = FindRel(wb.workbook_rels_, "styles")) {
    auto part = ooxml::Resolve(wb_part, r->target);
    if (!part) return part.error();
    if (wb.package_.Has(*part)) {
      auto styles = ooxml::Styles::Parse(*wb.package_.Bytes(*part), lim, *part);
      if (!styles) return styles.error();
      wb.styles_ = std::move(*styles);
      wb.styles_part_ = *part;
    }
  }
  pugi::xml_node root = wb.workbook_xml_->document_element();
  std::uint64_t cells = 0;
  for (auto s : Children(Child(root, "sheets"), "sheet")) {
    std::uint32_t id = static_cast<std::uint32_t>(std::strtoul(Attr(s, "sheetId").value(), nullptr, 10));
    wb.next_sheet_id_ = std::max(wb.next_sheet_id_, id + 1);
    const ooxml::Relationship* rel = wb.workbook_rels_.FindById(Attr(s, "id").value());
    // Chart sheets and dangling entries are left as they are.
    if (!rel || rel->external || rel->type != RelType("worksheet")) continue;
    auto part = ooxml::Resolve(wb_part, rel->target);
    if (!part) return part.error();
    auto xml = wb.package_.Bytes(*part);
    if (!xml) return xml.error();
    auto sheet = Sheet::Parse(*xml, *part, strings ? &*strings : nullptr, limits.max_cells - cells, lim);
    if (!sheet) return sheet.error();
    cells += sheet->cells().size();
    wb.sheets_.push_back({Attr(s, "name").value(), *part, rel->id, std::make_shared<Sheet>(std::move(*sheet))});
  }
  return wb;
}

Workbook Workbook::New() {
  auto wb = Load(*NewPackage().Write(), LoadLimits{});
  wb->styles_part_ = "/xl/styles.xml";
  wb->Create("Sheet");
  return std::move(*wb);
}

std::optional<std::string> TitleError(const std::string& title) {
  if (title.empty()) return "Title must have at least one character";
  std::size_t bad = title.find_first_of("\\*?:/[]");
  if (bad != std::string::npos) return "Invalid character " + title.substr(bad, 1) + " found in sheet title";
  return std::nullopt;
}

std::string Workbook::ActiveName() const {
  std::size_t active = 0;
  pugi::xml_node view = Child(Child(workbook_xml_->document_element(), "bookViews"), "workbookView");
  if (auto a = Attr(view, "activeTab")) active = std::strtoul(a.value(), nullptr, 10);
  if (sheets_.empty()) return "";
  return sheets_[active < sheets_.size() ? active : 0].name;
}

std::vector<std::string> Workbook::SheetNames() const {
  std::vector<std::string> names;
  for (const auto& e : sheets_) names.push_back(e.name);
  return names;
}

Workbook::Entry* Workbook::FindEntry(std::string_view name) {
  for (auto& e : sheets_)
    if (e.name == name) return &e;
  return nullptr;
}

Sheet* Workbook::Find(std::string_view name) {
  Entry* e = FindEntry(name);
  return e ? e->sheet.get() : nullptr;
}

std::string Workbook::PartOf(std::string_view name) const {
  for (const auto& e : sheets_)
    if (e.name == name) return e.part;
  return "";
}

std::string Workbook::FreshSheetPart() const {
  for (int n = 1;; ++n) {
    std::string part = "/xl/worksheets/sheet" + std::to_string(n) + ".xml";
    bool used = package_.Has(part);
    for (const auto& e : sheets_) used = used || ooxml::SamePartName(e.part, part);
    for (const auto& r : removed_parts_) used = used || ooxml::SamePartName(r, part);
    if (!used) return part;
  }
}

Sheet& Workbook::Create(const std::string& name) {
  std::string part = FreshSheetPart();
  std::string id = workbook_rels_.Add(RelType("worksheet"), ooxml::RelativeTarget(workbook_part_, part));
  types_.SetOverride(part, kWorksheetType);
  pugi::xml_node root = workbook_xml_->document_element();
  pugi::xml_node sheets = Child(root, "sheets");
  std::string prefix;
  if (auto colon = std::string_view(root.name()).find(':'); colon != std::string_view::npos)
    prefix = std::string(root.name()).substr(0, colon + 1);
  if (!sheets) sheets = root.insert_child_after((prefix + "sheets").c_str(), Child(root, "bookViews"));
  pugi::xml_node s = sheets.append_child((prefix + "sheet").c_str());
  std::string title = AvoidDuplicateName(SheetNames(), name);
  s.append_attribute("name") = title.c_str();
  s.append_attribute("sheetId") = std::to_string(next_sheet_id_++).c_str();
  s.append_attribute("r:id") = id.c_str();
  if (!root.attribute("xmlns:r")) root.append_attribute("xmlns:r") = kRelNs;
  sheets_.push_back({title, part, id, std::make_shared<Sheet>(Sheet::New())});
  return *sheets_.back().sheet;
}

void Workbook::Copy(std::string_view source, const std::string& name) {
  Entry* src = FindEntry(source);
  if (!src) return;
  std::shared_ptr<Sheet> from = src->sheet;
  Sheet& copy = Create(std::string(source) + " Copy");
  copy.cells() = from->cells();
  copy.merges() = from->merges();
  // The layout openpyxl's WorksheetCopy carries: sheet properties, format,
  // column widths, row heights, margins, page setup, print options.
  pugi::xml_node src_root = from->root(), dst_root = copy.root();
  for (const char* local : {"sheetPr", "sheetFormatPr", "cols", "printOptions", "pageMargins", "pageSetup"}) {
    pugi::xml_node s = Child(src_root, local);
    if (!s) continue;
    pugi::xml_node d = EnsureWorksheetChild(dst_root, local);
    pugi::xml_node placed = dst_root.insert_copy_before(s, d);
    dst_root.remove_child(d);
    if (std::string_view(local) == "pageSetup")
      for (auto a = placed.first_attribute(); a;) {
        auto next = a.next_attribute();
        if (ooxml::LocalName(a.name()) == "id") placed.remove_attribute(a);
        a = next;
      }
  }
  pugi::xml_node src_data = Child(src_root, "sheetData"), dst_data = Child(dst_root, "sheetData");
  for (auto row : Children(src_data, "row")) dst_data.append_copy(row);
  Rename(sheets_.back().name, name);
}

void Workbook::Remove(std::string_view name) {
  auto it = std::find_if(sheets_.begin(), sheets_.end(), [&](const Entry& e) { return e.name == name; });
  if (it == sheets_.end()) return;
  pugi::xml_node root = workbook_xml_->document_element();
  pugi::xml_node sheets = Child(root, "sheets");
  long index = 0, removed = -1;
  for (auto s : Children(sheets, "sheet")) {
    if (Attr(s, "id").value() == it->rel_id) {
      removed = index;
      sheets.remove_child(s);
    }
    ++index;
  }
  // Names scoped to the removed sheet go with it (openpyxl keeps them on
  // the worksheet); those of later sheets follow their sheet's new index.
  if (pugi::xml_node names = Child(root, "definedNames"); names && removed >= 0) {
    for (auto n : Children(names, "definedName")) {
      auto local = Attr(n, "localSheetId");
      if (!local) continue;
      long at = local.as_int();
      if (at == removed) names.remove_child(n);
      else if (at > removed) local.set_value(at - 1);
    }
    if (!names.first_child()) root.remove_child(names);
  }
  // A view pointing past the last sheet would make Excel repair the file.
  std::size_t count = Children(sheets, "sheet").size();
  for (auto view : Children(Child(root, "bookViews"), "workbookView"))
    for (const char* a : {"activeTab", "firstSheet"})
      if (auto attr = Attr(view, a); attr && count > 0 && attr.as_uint() >= count) attr.set_value(count - 1);
  workbook_rels_.Remove(it->rel_id);
  types_.RemoveOverride(it->part);
  package_.Remove(it->part);
  package_.Remove(ooxml::RelsPartName(it->part));
  removed_parts_.push_back(it->part);
  sheets_.erase(it);
}

void Workbook::Rename(std::string_view old_name, const std::string& new_name) {
  Entry* e = FindEntry(old_name);
  if (!e) return;
  std::string title = new_name == e->name ? new_name : AvoidDuplicateName(SheetNames(), new_name);
  for (auto s : Children(Child(workbook_xml_->document_element(), "sheets"), "sheet"))
    if (Attr(s, "id").value() == e->rel_id) s.attribute("name").set_value(title.c_str());
  e->name = title;
}

bool Workbook::IsDateStyle(std::uint32_t style) const { return style != 0 && styles_.IsDateStyle(style); }

std::uint64_t Workbook::CellCount() const {
  std::uint64_t n = 0;
  for (const auto& e : sheets_) n += e.sheet->cells().size();
  return n;
}

ooxml::Result<std::string> Workbook::Save() {
  if (auto st = Flush(); !st) return st.error();
  return package_.Write();
}

ooxml::Status Workbook::Flush() {
  for (const auto& e : sheets_)
    if (auto st = package_.Set(e.part, e.sheet->Serialize()); !st) return st.error();
  // openpyxl writes no calculation chain, and asks for a full recalculation
  // on load since it writes no cached values.
  if (const auto* chain = FindRel(workbook_rels_, "calcChain")) {
    if (auto part = ooxml::Resolve(workbook_part_, chain->target)) {
      package_.Remove(*part);
      types_.RemoveOverride(*part);
    }
    workbook_rels_.Remove(std::string(chain->id));
  }
  pugi::xml_node root = workbook_xml_->document_element();
  pugi::xml_node calc = Child(root, "calcPr");
  if (!calc) {
    std::string prefix;
    if (auto colon = std::string_view(root.name()).find(':'); colon != std::string_view::npos)
      prefix = std::string(root.name()).substr(0, colon + 1);
    pugi::xml_node after = Child(root, "definedNames") ? Child(root, "definedNames") : Child(root, "sheets");
    calc = root.insert_child_after((prefix + "calcPr").c_str(), after);
  }
  if (!calc.attribute("calcId")) calc.append_attribute("calcId") = "124519";
  if (auto full = calc.attribute("fullCalcOnLoad")) full.set_value("1");
  else calc.append_attribute("fullCalcOnLoad") = "1";
  if (auto st = package_.Set(workbook_part_, ooxml::WriteXml(*workbook_xml_)); !st) return st.error();
  if (auto st = package_.Set(ooxml::RelsPartName(workbook_part_), workbook_rels_.Serialize()); !st) return st.error();
  if (!styles_part_.empty())
    if (auto st = package_.Set(styles_part_, styles_.Serialize()); !st) return st.error();
  if (auto st = package_.Set(ooxml::kContentTypesPart, types_.Serialize()); !st) return st.error();
  return {};
}

}  // namespace sbx::servers::excel
