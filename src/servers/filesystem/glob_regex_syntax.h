// Parsing of the JavaScript regular-expression subset minimatch emits, into
// the node tree glob_regex.cc evaluates. Internal to glob_regex.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "servers/filesystem/glob_regex.h"

namespace sbx::servers::filesystem {
namespace regex_syntax {

// Input and pattern units: UTF-16 code units, or code points with the u flag.
using Units = std::vector<char32_t>;
Units ToUnits(const std::u16string& s, bool unicode);

bool IsWordChar(char32_t c);

// A character class: ranges, general categories (\p{…}), JS built-ins
// (\d \w \s) and complemented sub-classes (\D, \P{…}, …).
struct ClassSet {
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::uint32_t categories = 0;    // bit per UCharCategory
  std::vector<ClassSet> excluded;  // matches what these do not
  int builtin = 0;                 // 'd', 'w', 's' or 0
  bool negate = false;

  bool Contains(char32_t c) const;
};

struct SyntaxError {
  std::string reason;  // V8's wording: "Invalid escape", "Unterminated group", …
};

}  // namespace regex_syntax

struct JsRegex::Node {
  enum Kind { kChar, kSeq, kAlt, kRepeat, kBol, kEol, kWordBoundary, kNotWordBoundary, kLook } kind;
  regex_syntax::ClassSet set;                   // kChar
  std::vector<std::unique_ptr<Node>> children;  // kSeq, kAlt; one for kRepeat, kLook
  int min = 0, max = -1;                        // kRepeat (-1: unbounded)
  bool negative = false;                        // kLook
  int memo = -1;                                // composite nodes
};

namespace regex_syntax {

// Parses `source`; numbers each composite node's memo slot from 0 and sets
// `memo_count`. Throws SyntaxError.
std::unique_ptr<JsRegex::Node> Parse(const Units& source, bool unicode, int& memo_count);

}  // namespace regex_syntax
}  // namespace sbx::servers::filesystem
