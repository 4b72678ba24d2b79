#include "ooxml/xml.h"

#include <cstring>

namespace sbx::ooxml {
namespace {

struct StringWriter : pugi::xml_writer {
  std::string out;
  void write(const void* data, size_t size) override { out.append(static_cast<const char*>(data), size); }
};

}  // namespace

Result<pugi::xml_document> ParseXml(std::string_view bytes, std::string_view part, const Limits& limits) {
  pugi::xml_document doc;
  // parse_doctype keeps a DOCTYPE as a node so that we can refuse it;
  // pugixml expands no custom entity either way. parse_ws_pcdata_single
  // keeps text that is all whitespace when it is an element's only child
  // (<t xml:space="preserve"> </t> is a space, not nothing).
  unsigned options = pugi::parse_default | pugi::parse_doctype | pugi::parse_ws_pcdata_single;
  pugi::xml_parse_result r = doc.load_buffer(bytes.data(), bytes.size(), options);
  if (!r)
    return MakeFault(Fault::kBadXml, part,
                     std::string("not well-formed XML: ") + r.description() + " at offset " + std::to_string(r.offset));
  // Iterative walk: depth and node count, and any DOCTYPE.
  std::size_t nodes = 0;
  std::size_t depth = 0;
  bool has_root = false;
  pugi::xml_node n = doc.first_child();
  while (n) {
    ++nodes;
    if (nodes > limits.max_xml_nodes)
      return MakeFault(Fault::kTooLarge, part, "the XML has more than " + std::to_string(limits.max_xml_nodes) + " nodes");
    if (n.type() == pugi::node_doctype)
      return MakeFault(Fault::kBadXml, part, "a DOCTYPE is not allowed in an OOXML part");
    if (depth == 0 && n.type() == pugi::node_element) has_root = true;
    if (n.first_child()) {
      ++depth;
      if (depth >= limits.max_xml_depth)
        return MakeFault(Fault::kTooLarge, part, "the XML nests deeper than " + std::to_string(limits.max_xml_depth) + " levels");
      n = n.first_child();
      continue;
    }
    while (n && !n.next_sibling()) {
      n = n.parent();
      if (n == doc) {
        n = pugi::xml_node();
        break;
      }
      --depth;
    }
    if (n) n = n.next_sibling();
  }
  if (!has_root) return MakeFault(Fault::kBadXml, part, "the XML has no root element");
  return doc;
}

std::string WriteXml(const pugi::xml_document& doc) {
  StringWriter w;
  w.out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>";
  for (pugi::xml_node n = doc.first_child(); n; n = n.next_sibling()) {
    if (n.type() == pugi::node_declaration || n.type() == pugi::node_doctype) continue;
    n.print(w, "", pugi::format_raw, pugi::encoding_utf8);
  }
  return std::move(w.out);
}

std::string_view LocalName(std::string_view qualified) {
  auto colon = qualified.find(':');
  return colon == std::string_view::npos ? qualified : qualified.substr(colon + 1);
}

std::string_view LocalName(pugi::xml_node node) { return LocalName(std::string_view(node.name())); }

pugi::xml_node Child(pugi::xml_node parent, std::string_view local) {
  for (pugi::xml_node c = parent.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && LocalName(c) == local) return c;
  return {};
}

std::vector<pugi::xml_node> Children(pugi::xml_node parent, std::string_view local) {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node c = parent.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element && LocalName(c) == local) out.push_back(c);
  return out;
}

pugi::xml_attribute Attr(pugi::xml_node node, std::string_view local) {
  for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
    std::string_view name = a.name();
    if (name.starts_with("xmlns")) continue;
    if (LocalName(name) == local) return a;
  }
  return {};
}

std::string_view NamespaceOf(pugi::xml_node node) {
  std::string_view name = node.name();
  auto colon = name.find(':');
  std::string attr = colon == std::string_view::npos ? "xmlns" : "xmlns:" + std::string(name.substr(0, colon));
  for (pugi::xml_node n = node; n; n = n.parent()) {
    if (n.type() != pugi::node_element) continue;
    if (pugi::xml_attribute a = n.attribute(attr.c_str())) return a.value();
  }
  return {};
}

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace sbx::ooxml
