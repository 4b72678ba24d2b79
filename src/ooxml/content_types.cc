#include "ooxml/content_types.h"

#include "core/strings.h"
#include "ooxml/package.h"
#include "ooxml/xml.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kTypesNs = "http://schemas.openxmlformats.org/package/2006/content-types";

}  // namespace

Result<ContentTypes> ContentTypes::Parse(std::string_view xml, const Limits& limits) {
  auto doc = ParseXml(xml, kContentTypesPart, limits);
  if (!doc.ok()) return doc.error();
  pugi::xml_node root = doc->document_element();
  if (LocalName(root) != "Types")
    return MakeFault(Fault::kBadContentTypes, kContentTypesPart,
                     "the root element is <" + std::string(root.name()) + ">, not <Types>");
  ContentTypes out;
  for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
    if (n.type() != pugi::node_element) continue;
    std::string_view local = LocalName(n);
    if (local == "Default") {
      pugi::xml_attribute ext = n.attribute("Extension"), type = n.attribute("ContentType");
      if (!ext || !type || !*ext.value())
        return MakeFault(Fault::kBadContentTypes, kContentTypesPart, "a <Default> lacks Extension or ContentType");
      out.SetDefault(ext.value(), type.value());
    } else if (local == "Override") {
      pugi::xml_attribute part = n.attribute("PartName"), type = n.attribute("ContentType");
      if (!part || !type)
        return MakeFault(Fault::kBadContentTypes, kContentTypesPart, "an <Override> lacks PartName or ContentType");
      if (auto s = CheckPartName(part.value()); !s)
        return MakeFault(Fault::kBadContentTypes, kContentTypesPart,
                         "an <Override> names an invalid part (" + s.error().message + ")");
      out.SetOverride(part.value(), type.value());
    }
  }
  return out;
}

std::string ContentTypes::Serialize() const {
  pugi::xml_document doc;
  pugi::xml_node root = doc.append_child("Types");
  root.append_attribute("xmlns") = kTypesNs;
  for (const auto& d : defaults_) {
    pugi::xml_node n = root.append_child("Default");
    n.append_attribute("Extension") = d.extension.c_str();
    n.append_attribute("ContentType") = d.content_type.c_str();
  }
  for (const auto& o : overrides_) {
    pugi::xml_node n = root.append_child("Override");
    n.append_attribute("PartName") = o.part.c_str();
    n.append_attribute("ContentType") = o.content_type.c_str();
  }
  return WriteXml(doc);
}

std::optional<std::string> ContentTypes::TypeOf(std::string_view part) const {
  for (const auto& o : overrides_)
    if (SamePartName(o.part, part)) return o.content_type;
  auto slash = part.rfind('/');
  auto dot = part.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return std::nullopt;
  std::string ext = strings::AsciiLower(part.substr(dot + 1));
  for (const auto& d : defaults_)
    if (strings::AsciiLower(d.extension) == ext) return d.content_type;
  return std::nullopt;
}

void ContentTypes::SetDefault(std::string_view extension, std::string_view content_type) {
  for (auto& d : defaults_)
    if (strings::AsciiLower(d.extension) == strings::AsciiLower(extension)) {
      d.content_type = std::string(content_type);
      return;
    }
  defaults_.push_back({std::string(extension), std::string(content_type)});
}

void ContentTypes::SetOverride(std::string_view part, std::string_view content_type) {
  for (auto& o : overrides_)
    if (SamePartName(o.part, part)) {
      o.content_type = std::string(content_type);
      return;
    }
  overrides_.push_back({std::string(part), std::string(content_type)});
}

bool ContentTypes::RemoveOverride(std::string_view part) {
  for (auto it = overrides_.begin(); it != overrides_.end(); ++it)
    if (SamePartName(it->part, part)) {
      overrides_.erase(it);
      return true;
    }
  return false;
}

}  // namespace sbx::ooxml
