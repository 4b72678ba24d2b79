#include "ooxml/relationships.h"

#include <set>
#include <unordered_set>
#include <vector>

#include "core/strings.h"
#include "ooxml/xml.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kRelsNs = "http://schemas.openxmlformats.org/package/2006/relationships";

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The folder of a part name: "/xl/workbook.xml" -> "/xl/", "/" -> "/".
std::string_view Folder(std::string_view part) {
  auto slash = part.rfind('/');
  return slash == std::string_view::npos ? std::string_view("/") : part.substr(0, slash + 1);
}

}  // namespace

std::string RelsPartName(std::string_view source_part) {
  if (source_part.empty() || source_part == "/") return "/_rels/.rels";
  auto slash = source_part.rfind('/');
  return std::string(source_part.substr(0, slash + 1)) + "_rels/" + std::string(source_part.substr(slash + 1)) + ".rels";
}

Result<std::string> Resolve(std::string_view source_part, std::string_view target) {
  std::string_view t = target;
  if (auto hash = t.find('#'); hash != std::string_view::npos) t = t.substr(0, hash);
  if (t.empty()) return MakeFault(Fault::kBadRelationship, source_part, "a relationship has an empty target");
  std::string joined = t[0] == '/' ? std::string(t) : std::string(Folder(source_part.empty() ? "/" : source_part)) + std::string(t);
  std::vector<std::string_view> stack;
  for (std::string_view seg : Segments(std::string_view(joined).substr(1))) {
    if (seg.empty() || seg == ".") continue;
    if (seg == "..") {
      if (stack.empty())
        return MakeFault(Fault::kBadRelationship, source_part,
                         "the relationship target \"" + std::string(target) + "\" climbs above the package root");
      stack.pop_back();
      continue;
    }
    stack.push_back(seg);
  }
  if (stack.empty())
    return MakeFault(Fault::kBadRelationship, source_part, "the relationship target \"" + std::string(target) + "\" names no part");
  std::string out;
  for (auto seg : stack) {
    out += '/';
    out += seg;
  }
  return out;
}

std::string RelativeTarget(std::string_view source_part, std::string_view target_part) {
  std::vector<std::string_view> from = Segments(Folder(source_part).substr(1));
  if (!from.empty() && from.back().empty()) from.pop_back();
  std::vector<std::string_view> to = Segments(target_part.substr(1));
  std::size_t common = 0;
  while (common < from.size() && common + 1 < to.size() && from[common] == to[common]) ++common;
  std::string out;
  for (std::size_t i = common; i < from.size(); ++i) out += "../";
  for (std::size_t i = common; i < to.size(); ++i) {
    out += to[i];
    if (i + 1 < to.size()) out += '/';
  }
  return out;
}

Result<Relationships> Relationships::Parse(std::string_view xml, std::string_view rels_part, const Limits& limits) {
  auto doc = ParseXml(xml, rels_part, limits);
  if (!doc.ok()) return doc.error();
  pugi::xml_node root = doc->document_element();
  if (LocalName(root) != "Relationships")
    return MakeFault(Fault::kBadRelationship, rels_part,
                     "the root element is <" + std::string(root.name()) + ">, not <Relationships>");
  Relationships out;
  std::unordered_set<std::string> ids;
  for (pugi::xml_node n : Children(root, "Relationship")) {
    pugi::xml_attribute id = n.attribute("Id"), type = n.attribute("Type"), target = n.attribute("Target");
    if (!id || !type || !target || !*id.value())
      return MakeFault(Fault::kBadRelationship, rels_part, "a <Relationship> lacks Id, Type or Target");
    if (!ids.insert(id.value()).second)
      return MakeFault(Fault::kBadRelationship, rels_part, "the relationship id \"" + std::string(id.value()) + "\" is used twice");
    Relationship r;
    r.id = id.value();
    r.type = type.value();
    r.target = target.value();
    r.external = std::string_view(n.attribute("TargetMode").value()) == "External";
    out.items_.push_back(std::move(r));
  }
  return out;
}

std::string Relationships::Serialize() const {
  pugi::xml_document doc;
  pugi::xml_node root = doc.append_child("Relationships");
  root.append_attribute("xmlns") = kRelsNs;
  for (const auto& r : items_) {
    pugi::xml_node n = root.append_child("Relationship");
    n.append_attribute("Id") = r.id.c_str();
    n.append_attribute("Type") = r.type.c_str();
    n.append_attribute("Target") = r.target.c_str();
    if (r.external) n.append_attribute("TargetMode") = "External";
  }
  return WriteXml(doc);
}

const Relationship* Relationships::FindById(std::string_view id) const {
  for (const auto& r : items_)
    if (r.id == id) return &r;
  return nullptr;
}

const Relationship* Relationships::FindByType(std::string_view type) const {
  for (const auto& r : items_)
    if (r.type == type) return &r;
  return nullptr;
}

std::vector<const Relationship*> Relationships::AllOfType(std::string_view type) const {
  std::vector<const Relationship*> out;
  for (const auto& r : items_)
    if (r.type == type) out.push_back(&r);
  return out;
}

std::string Relationships::Add(std::string_view type, std::string_view target, bool external) {
  unsigned long long largest = 0;
  for (const auto& r : items_) {
    if (r.id.size() < 4 || r.id.compare(0, 3, "rId") != 0 || r.id.size() > 3 + 18) continue;
    unsigned long long n = 0;
    bool digits = true;
    for (std::size_t i = 3; i < r.id.size(); ++i) {
      if (r.id[i] < '0' || r.id[i] > '9') {
        digits = false;
        break;
      }
      n = n * 10 + static_cast<unsigned>(r.id[i] - '0');
    }
    if (digits && n > largest) largest = n;
  }
  std::string id = "rId" + std::to_string(largest + 1);
  items_.push_back(Relationship{id, std::string(type), std::string(target), external});
  return id;
}

bool Relationships::Remove(std::string_view id) {
  for (auto it = items_.begin(); it != items_.end(); ++it)
    if (it->id == id) {
      items_.erase(it);
      return true;
    }
  return false;
}

Status CheckRelationships(const Package& package, const Limits& limits) {
  if (!package.Has("/_rels/.rels"))
    return MakeFault(Fault::kMissingPart, "/_rels/.rels", "the package has no relationships part");
  std::vector<std::string> queue{"/"};
  std::unordered_set<std::string> visited{"/"};
  while (!queue.empty()) {
    std::string source = std::move(queue.back());
    queue.pop_back();
    std::string rels_name = RelsPartName(source);
    auto bytes = package.Bytes(rels_name);
    if (!bytes.ok()) continue;  // a part without relationships
    auto rels = Relationships::Parse(*bytes, rels_name, limits);
    if (!rels.ok()) return rels.error();
    for (const auto& r : rels->all()) {
      if (r.external) continue;
      auto target = Resolve(source, r.target);
      if (!target.ok()) return MakeFault(Fault::kBadRelationship, rels_name, target.error().message.substr(source.size() + 2));
      if (!package.Has(*target))
        return MakeFault(Fault::kMissingPart, *target,
                         "the part is missing; relationship " + r.id + " of " + rels_name + " points at it");
      if (visited.insert(strings::AsciiLower(*target)).second) queue.push_back(*target);
    }
  }
  return {};
}

}  // namespace sbx::ooxml
