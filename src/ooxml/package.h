// An OPC package (the zip container of .xlsx/.docx/.pptx) held in memory.
//
// Parts are named by OPC part names: "/xl/workbook.xml". The zip entry
// "[Content_Types].xml" is held as the part "/[Content_Types].xml" so that
// it is read and written like any other. Names compare equal ignoring ASCII
// case (OPC's rule) and are stored as first given.
//
// Read() trusts nothing in the archive: sizes are counted while inflating
// and cut at the Limits, entry names are checked before use, and any
// failure is a Result, never a crash. Write() is deterministic: the same
// parts in the same order give the same bytes (fixed timestamps, deflate,
// "[Content_Types].xml" first).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ooxml/error.h"
#include "ooxml/limits.h"

namespace sbx::ooxml {

inline constexpr std::string_view kContentTypesPart = "/[Content_Types].xml";

// Checks an OPC part name ("/a/b.xml"): leading '/', no empty, "." or ".."
// segment, no backslash, NUL or control character, no trailing '/' or '.'.
Status CheckPartName(std::string_view name);

// ASCII-case-insensitive equality, OPC's rule for part names.
bool SamePartName(std::string_view a, std::string_view b);

class Package {
 public:
  // Fault kinds: kTooLarge, kNotZip, kCorruptEntry, kBadEntryName,
  // kDuplicatePart, kEncrypted, kUnsupported, kMissingPart (no
  // "[Content_Types].xml"). Directory entries ("xl/") are skipped.
  static Result<Package> Read(std::string_view zip_bytes, const Limits& limits = {});
  static Package Empty();

  bool Has(std::string_view name) const;
  // The part's bytes; kMissingPart naming the part when absent. The view is
  // valid until the next Set/Remove on this package.
  Result<std::string_view> Bytes(std::string_view name) const;
  // Adds or replaces; a replaced part keeps its place in Names(). kBadEntryName
  // if name is not a valid part name.
  Status Set(std::string_view name, std::string bytes);
  bool Remove(std::string_view name);  // false if absent
  // Part names in stable order: the order read, new ones appended.
  std::vector<std::string> Names() const;
  std::size_t size() const { return parts_.size(); }

  // The zip bytes. kMissingPart if there is no "[Content_Types].xml";
  // kInternal if libzip fails.
  Result<std::string> Write() const;

 private:
  struct Part {
    std::string name;
    std::string key;  // name folded to ASCII lowercase
    std::string bytes;
  };
  std::ptrdiff_t IndexOf(std::string_view name) const;
  void Append(std::string name, std::string key, std::string bytes);
  std::vector<Part> parts_;
  std::unordered_map<std::string, std::size_t> index_;  // key -> position in parts_
};

}  // namespace sbx::ooxml
