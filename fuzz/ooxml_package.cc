// Office documents (.xlsx, .docx, .pptx): any bytes as a zip package
// through ooxml::Package::Read, then every XML part, the content types,
// every relationships part, the shared strings and the styles, the
// relationship graph, and adding a chart to the first worksheet. A refusal is fine; a crash, a hang or an unbounded
// allocation is not. What is read must also survive Write() and a re-read,
// and parsed styles must re-parse from their own serialisation.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ooxml/chart.h"
#include "ooxml/content_types.h"
#include "ooxml/package.h"
#include "ooxml/relationships.h"
#include "ooxml/shared_strings.h"
#include "ooxml/styles.h"
#include "ooxml/xml.h"

namespace {

bool EndsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sbx::ooxml;
  Limits limits;
  limits.max_part_bytes = 4 << 20;
  limits.max_total_bytes = 16 << 20;
  limits.max_parts = 256;
  limits.max_xml_nodes = 200'000;
  auto pkg = Package::Read(std::string_view(reinterpret_cast<const char*>(data), size), limits);
  if (!pkg.ok()) return 0;
  for (const std::string& name : pkg->Names()) {
    std::string_view bytes = *pkg->Bytes(name);
    if (name == kContentTypesPart) {
      if (auto ct = ContentTypes::Parse(bytes, limits); ct.ok()) {
        if (!ContentTypes::Parse(ct->Serialize(), limits).ok()) std::abort();
      }
    } else if (EndsWith(name, ".rels")) {
      if (auto rels = Relationships::Parse(bytes, name, limits); rels.ok()) {
        for (const auto& r : rels->all()) (void)Resolve(name, r.target);
        if (!Relationships::Parse(rels->Serialize(), name, limits).ok()) std::abort();
      }
    } else if (SamePartName(name, "/xl/sharedStrings.xml")) {
      if (auto sst = SharedStrings::Parse(bytes, limits, name); sst.ok()) {
        if (!SharedStrings::Parse(sst->Serialize(sst->size()), limits, name).ok()) std::abort();
      }
    } else if (SamePartName(name, "/xl/styles.xml")) {
      if (auto st = Styles::Parse(bytes, limits, name); st.ok()) {
        for (std::uint32_t i = 0; i < st->cell_xfs().size(); ++i) (void)st->IsDateStyle(i);
        auto again = Styles::Parse(st->Serialize(), limits, name);
        if (!again.ok() || again->Serialize() != st->Serialize()) std::abort();
      }
    } else if (EndsWith(name, ".xml")) {
      (void)ParseXml(bytes, name, limits);
    }
  }
  (void)CheckRelationships(*pkg, limits);
  // Adding a chart reads the sheet, its rels, its drawing and the drawing's
  // rels: hostile ones must be refused with the package left as it was.
  if (pkg->Has("/xl/worksheets/sheet1.xml")) {
    sbx::ooxml::Package copy = *pkg;
    sbx::ooxml::ChartSpec spec;
    spec.series.push_back({"'S'!B1", "'S'!$A$2:$A$4", "'S'!$B$2:$B$4"});
    if (!AddChartToWorksheet(copy, "/xl/worksheets/sheet1.xml", spec, ChartAnchor{}, limits).ok() &&
        copy.Names() != pkg->Names())
      std::abort();
  }
  auto zip = pkg->Write();
  if (!zip.ok()) std::abort();
  auto back = Package::Read(*zip, limits);
  if (!back.ok() || back->Names() != pkg->Names()) std::abort();
  return 0;
}
