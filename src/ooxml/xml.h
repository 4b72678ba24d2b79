// XML parsing for untrusted parts: pugixml with no DOCTYPE allowed (so no
// entity can be declared, expanded or fetched), and bounds on nesting depth
// and node count checked after the parse with an iterative walk (our
// walkers over the tree may recurse; the depth bound keeps them safe).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

#include "ooxml/error.h"
#include "ooxml/limits.h"

namespace sbx::ooxml {

// kBadXml (not well-formed, DOCTYPE, no root element) or kTooLarge (depth,
// nodes), the message naming `part`.
Result<pugi::xml_document> ParseXml(std::string_view bytes, std::string_view part, const Limits& limits = {});

// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` then the
// document without indentation or line breaks.
std::string WriteXml(const pugi::xml_document& doc);

// Text escaped for an XML attribute value or element content written by
// hand (the chart and styles writers build their XML as text): & < > ".
std::string EscapeXml(std::string_view text);

// Namespace helpers. OOXML writers differ in prefixes ("x:sst" vs "sst"),
// so lookups go by local name; the element's own namespace is what pugixml
// reports for its prefix.
std::string_view LocalName(std::string_view qualified);  // "r:id" -> "id"
std::string_view LocalName(pugi::xml_node node);
pugi::xml_node Child(pugi::xml_node parent, std::string_view local);
std::vector<pugi::xml_node> Children(pugi::xml_node parent, std::string_view local);
pugi::xml_attribute Attr(pugi::xml_node node, std::string_view local);
// The namespace URI bound to the node's prefix (walking up the ancestors).
std::string_view NamespaceOf(pugi::xml_node node);

}  // namespace sbx::ooxml
