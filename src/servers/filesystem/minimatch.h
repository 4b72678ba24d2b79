// Glob matching with the semantics of the `minimatch` npm package (10.x),
// which upstream uses for search_files patterns and excludePatterns:
// leading "!" negation, "#" comments, brace expansion, "**" globstar,
// extglobs, character and POSIX classes, the `dot` option, and minimatch's
// fast paths for "*", "*.ext", "???" (whose results can differ from the
// regular expression they shortcut, e.g. "*.t\xt").
//
// Thread-safety: a Minimatch is immutable after construction; Match may run
// concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace sbx::servers::filesystem {

class JsRegex;

class Minimatch {
 public:
  // `pattern` in UTF-8. Throws FsError with minimatch's message when the
  // pattern is too long (over 65,536 UTF-16 units: "pattern is too long") or
  // one of its segments compiles to an invalid regular expression (V8's
  // message), as minimatch throws.
  Minimatch(const std::string& pattern, bool dot);
  ~Minimatch();

  // minimatch(path, pattern, {dot}) for a '/'-separated relative path.
  bool Match(const std::string& path) const;

 private:
  struct Segment;
  bool MatchParts(const std::vector<std::u16string>& file,
                  const std::vector<Segment>& pattern) const;
  bool MatchOne(const std::vector<std::u16string>& file, const std::vector<Segment>& pattern,
                std::size_t fi, std::size_t pi, std::size_t fl) const;
  int BodySections(const std::vector<std::u16string>& file,
                   const std::vector<std::pair<std::vector<Segment>, std::size_t>>& sections,
                   std::size_t fi, std::size_t bi, int depth, bool saw_tail) const;

  bool dot_ = true;
  bool negate_ = false;
  bool comment_ = false;
  bool empty_ = false;
  std::vector<std::vector<Segment>> set_;
};

// upstream's one-off call: minimatch(path, pattern, {dot: true}), comments
// and all. Throws like the Minimatch constructor.
bool GlobMatch(const std::string& path, const std::string& pattern);

}  // namespace sbx::servers::filesystem
