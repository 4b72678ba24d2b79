// The SpreadsheetML shared string table ("/xl/sharedStrings.xml", root
// <sst>). A string item is either plain (<si><t>) or rich (<si><r><t>...):
// the text is the concatenation of its runs' <t>; phonetic runs (<rPh>) are
// not part of the text. Like openpyxl, "_x005F_" escapes are folded on read
// ("x005F_" removed) and other "_xHHHH_" escapes are left as written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ooxml/error.h"
#include "ooxml/limits.h"

namespace sbx::ooxml {

class SharedStrings {
 public:
  // kBadXml / kTooLarge from the parse; kBadValue if the root is not sst.
  static Result<SharedStrings> Parse(std::string_view xml, const Limits& limits = {},
                                     std::string_view part = "/xl/sharedStrings.xml");

  std::size_t size() const { return items_.size(); }
  // nullptr if index is out of range (a cell pointing past the table).
  const std::string* Get(std::size_t index) const;
  // The index of an equal string, appending it if there is none.
  std::size_t Intern(std::string_view text);

  // Plain items only (rich formatting of read items is not kept).
  // `references` is the sst count attribute: how many cells use the table;
  // uniqueCount is size(). A <t> whose text starts or ends with whitespace
  // or holds a newline/tab carries xml:space="preserve". C0 controls (which
  // XML cannot carry) are written as "_xHHHH_", and a literal "_xHHHH_" as
  // "_x005F_xHHHH_" so that readers give it back as written.
  std::string Serialize(std::size_t references) const;

 private:
  std::vector<std::string> items_;
  std::unordered_map<std::string, std::size_t> index_;  // first index of each text
};

}  // namespace sbx::ooxml
