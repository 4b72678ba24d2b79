// "[Content_Types].xml": Default entries map an extension to a content
// type, Override entries a part name. Extensions and part names compare
// ignoring ASCII case.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ooxml/error.h"
#include "ooxml/limits.h"

namespace sbx::ooxml {

struct ContentTypeDefault {
  std::string extension;  // without the dot: "xml"
  std::string content_type;
};

struct ContentTypeOverride {
  std::string part;  // "/xl/workbook.xml"
  std::string content_type;
};

class ContentTypes {
 public:
  // kBadXml / kTooLarge from the parse, kBadContentTypes if the root is not
  // Types or an entry lacks its attributes.
  static Result<ContentTypes> Parse(std::string_view xml, const Limits& limits = {});
  std::string Serialize() const;

  // Override first, then the Default for the part's extension.
  std::optional<std::string> TypeOf(std::string_view part) const;
  void SetDefault(std::string_view extension, std::string_view content_type);
  void SetOverride(std::string_view part, std::string_view content_type);
  bool RemoveOverride(std::string_view part);  // false if there was none

  const std::vector<ContentTypeDefault>& defaults() const { return defaults_; }
  const std::vector<ContentTypeOverride>& overrides() const { return overrides_; }

 private:
  std::vector<ContentTypeDefault> defaults_;
  std::vector<ContentTypeOverride> overrides_;
};

}  // namespace sbx::ooxml
