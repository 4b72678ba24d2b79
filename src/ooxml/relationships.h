// Relationship parts ("_rels/*.rels"): who points at what. Targets of
// internal relationships are URIs relative to the source part's folder (or
// absolute from the package root); Resolve() turns them into part names and
// refuses any that climb above the root.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ooxml/error.h"
#include "ooxml/limits.h"
#include "ooxml/package.h"

namespace sbx::ooxml {

struct Relationship {
  std::string id;      // "rId1"
  std::string type;    // a relationship type URI
  std::string target;  // as written
  bool external = false;  // TargetMode="External": target is a URI, not a part
};

// "/xl/workbook.xml" -> "/xl/_rels/workbook.xml.rels"; "/" or "" (the
// package itself) -> "/_rels/.rels".
std::string RelsPartName(std::string_view source_part);

// The part name a target refers to from `source_part` ("/" for the package):
// relative to the source's folder unless it starts with '/'; "." and ".."
// segments folded, percent-escapes left as written, any "#fragment" dropped.
// kBadRelationship if it climbs above the root or is empty.
Result<std::string> Resolve(std::string_view source_part, std::string_view target);

// The shortest relative target from `source_part` to `target_part`
// ("/xl/workbook.xml", "/xl/worksheets/sheet1.xml" -> "worksheets/sheet1.xml").
std::string RelativeTarget(std::string_view source_part, std::string_view target_part);

class Relationships {
 public:
  // kBadXml / kTooLarge from the parse; kBadRelationship (naming rels_part)
  // if the root is not Relationships, an entry lacks Id/Type/Target, or an id
  // is used twice.
  static Result<Relationships> Parse(std::string_view xml, std::string_view rels_part, const Limits& limits = {});
  std::string Serialize() const;

  const std::vector<Relationship>& all() const { return items_; }
  const Relationship* FindById(std::string_view id) const;
  const Relationship* FindByType(std::string_view type) const;  // the first
  std::vector<const Relationship*> AllOfType(std::string_view type) const;
  // Appends with a fresh id "rId<N>" (one past the largest rId number in use)
  // and returns the id.
  std::string Add(std::string_view type, std::string_view target, bool external = false);
  bool Remove(std::string_view id);  // false if absent

 private:
  std::vector<Relationship> items_;
};

// Walks internal relationships from "/_rels/.rels" with a visited set
// (cycles terminate). Reports the first problem: a rels part that does not
// parse or has a duplicate id (kBadXml/kBadRelationship), a target above the
// root (kBadRelationship), or a target part that is absent (kMissingPart,
// naming the target and the rels part). A package without "/_rels/.rels"
// is kMissingPart.
Status CheckRelationships(const Package& package, const Limits& limits = {});

}  // namespace sbx::ooxml
