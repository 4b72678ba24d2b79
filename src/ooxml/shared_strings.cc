#include "ooxml/shared_strings.h"

#include "ooxml/xml.h"

namespace sbx::ooxml {
namespace {

constexpr const char* kMainNs = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

// The text of one <si>: its own <t>, or the <t> of each <r> run; <rPh>
// (phonetic guide) runs are not part of the text.
std::string ItemText(pugi::xml_node si) {
  std::string text;
  for (pugi::xml_node c = si.first_child(); c; c = c.next_sibling()) {
    std::string_view local = LocalName(c);
    if (local == "t") {
      text += c.text().get();
    } else if (local == "r") {
      for (pugi::xml_node t : Children(c, "t")) text += t.text().get();
    }
  }
  // openpyxl's reader removes "x005F_" so that "_x005F_xHHHH_" (an escaped
  // literal "_xHHHH_") reads as "_xHHHH_"; the same here, for equal values.
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 6, "x005F_") == 0) {
      i += 6;
      continue;
    }
    out += text[i++];
  }
  return out;
}

bool NeedsPreserve(std::string_view s) {
  if (s.empty()) return false;
  auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  if (ws(s.front()) || ws(s.back())) return true;
  return s.find_first_of("\n\t\r") != std::string_view::npos;
}

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// XML 1.0 cannot carry C0 controls other than tab/LF/CR, even as
// references: they go out as OOXML's "_xHHHH_" escape. A literal text that
// already looks like such an escape gets "_x005F_" (an escaped '_') in front
// so that readers give it back as written.
std::string EscapeForXml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '_' && i + 6 < s.size() && s[i + 1] == 'x' && IsHex(s[i + 2]) && IsHex(s[i + 3]) && IsHex(s[i + 4]) &&
        IsHex(s[i + 5]) && s[i + 6] == '_') {
      out += "_x005F_";
      continue;
    }
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "_x00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      out += '_';
      continue;
    }
    out += static_cast<char>(c);
  }
  return out;
}

}  // namespace

Result<SharedStrings> SharedStrings::Parse(std::string_view xml, const Limits& limits, std::string_view part) {
  auto doc = ParseXml(xml, part, limits);
  if (!doc.ok()) return doc.error();
  pugi::xml_node root = doc->document_element();
  if (LocalName(root) != "sst")
    return MakeFault(Fault::kBadValue, part, "the root element is <" + std::string(root.name()) + ">, not <sst>");
  SharedStrings out;
  for (pugi::xml_node si : Children(root, "si")) {
    // Duplicates are kept: cells refer to items by position.
    std::string text = ItemText(si);
    out.index_.emplace(text, out.items_.size());
    out.items_.push_back(std::move(text));
  }
  return out;
}

const std::string* SharedStrings::Get(std::size_t index) const {
  return index < items_.size() ? &items_[index] : nullptr;
}

std::size_t SharedStrings::Intern(std::string_view text) {
  std::string key(text);
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  std::size_t i = items_.size();
  items_.push_back(key);
  index_.emplace(std::move(key), i);
  return i;
}

std::string SharedStrings::Serialize(std::size_t references) const {
  pugi::xml_document doc;
  pugi::xml_node root = doc.append_child("sst");
  root.append_attribute("xmlns") = kMainNs;
  root.append_attribute("count") = static_cast<unsigned long long>(references);
  root.append_attribute("uniqueCount") = static_cast<unsigned long long>(items_.size());
  for (const auto& s : items_) {
    pugi::xml_node t = root.append_child("si").append_child("t");
    if (NeedsPreserve(s)) t.append_attribute("xml:space") = "preserve";
    std::string escaped = EscapeForXml(s);
    t.text().set(escaped.c_str(), escaped.size());
  }
  return WriteXml(doc);
}

}  // namespace sbx::ooxml
