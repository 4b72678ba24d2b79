// One glob path segment to what minimatch (10.x) matches it with: either a
// literal string or JavaScript regex source, built by the same rules as
// minimatch's AST (extglobs @() *() +() ?() !() with their flattening and
// negation tails, character classes with POSIX classes, dot protection).
// Strings are JavaScript strings (UTF-16). Internal to minimatch.cc.
#pragma once

#include <string>

namespace sbx::servers::filesystem::glob {

struct SegmentPattern {
  bool magic = false;  // false: match `literal` exactly
  std::u16string literal;
  std::u16string source;  // regex source without ^…$ (when magic)
  bool unicode = false;   // the u flag (POSIX classes)
};

// AST.fromGlob(segment, {dot}).toMMPattern()
SegmentPattern CompileSegment(const std::u16string& segment, bool dot);

}  // namespace sbx::servers::filesystem::glob
