#include "archive/path_rules.h"

#include <climits>
#include <cstdio>

namespace sbx::archive::internal {
namespace {

// A name is shown up to this many bytes; the rest is summarised.
constexpr std::size_t kQuotedNameMax = 200;

// Longest file name component Linux accepts; checked here so that an archive
// gets a message about its entry rather than an ENAMETOOLONG "I/O error".
constexpr std::size_t kComponentMax = NAME_MAX;

// Length of the valid UTF-8 sequence starting at s[i], or 0 if there is none.
std::size_t Utf8SequenceLength(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}

std::vector<std::string_view> SplitComponents(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string_view::npos) next = path.size();
    std::string_view part = path.substr(pos, next - pos);
    if (!part.empty() && part != ".") out.push_back(part);
    pos = next + 1;
  }
  return out;
}

}  // namespace

std::string EntryPath::Joined() const { return Prefix(parts.size()); }

std::string EntryPath::Prefix(std::size_t n) const {
  std::string out;
  for (std::size_t i = 0; i < n && i < parts.size(); ++i) {
    if (i > 0) out.push_back('/');
    out.append(parts[i]);
  }
  return out;
}

std::string Quote(std::string_view name) {
  std::string out = "\"";
  std::size_t i = 0;
  while (i < name.size() && i < kQuotedNameMax) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (std::size_t len = c >= 0x80 ? Utf8SequenceLength(name, i) : 0; len > 0) {
      out.append(name.substr(i, len));
      i += len;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out.append(hex);
      ++i;
    }
  }
  out.push_back('"');
  if (i < name.size()) out.append(" (" + std::to_string(name.size()) + " bytes, shortened)");
  return out;
}

Result<EntryPath> NormalizeEntryName(std::string_view raw, std::size_t max_name_bytes,
                                     int max_depth, const std::string& subject) {
  if (raw.size() > max_name_bytes) {
    return MakeError(ErrorCode::kTooLarge, subject + " has a name longer than the limit of " +
                                               std::to_string(max_name_bytes) + " bytes");
  }
  if (raw.empty()) return MakeError(ErrorCode::kInvalidArgument, subject + " has an empty name");
  if (raw.front() == '/') {
    return MakeError(ErrorCode::kInvalidArgument,
                     subject + " has an absolute path: names must be relative to the workspace");
  }
  EntryPath path;
  for (std::string_view part : SplitComponents(raw)) {
    if (part == "..") {
      return MakeError(ErrorCode::kInvalidArgument, subject + " escapes the workspace (\"..\")");
    }
    if (part.size() > kComponentMax) {
      return MakeError(ErrorCode::kInvalidArgument, subject + " has a path component longer than " +
                                                        std::to_string(kComponentMax) + " bytes");
    }
    path.parts.emplace_back(part);
  }
  if (max_depth >= 0 && path.parts.size() > static_cast<std::size_t>(max_depth)) {
    return MakeError(ErrorCode::kTooLarge, subject + " is nested deeper than the limit of " +
                                               std::to_string(max_depth) + " levels");
  }
  return path;
}

LinkTarget ClassifySymlinkTarget(const EntryPath& link, std::string_view target) {
  if (target.empty()) return LinkTarget::kEmpty;
  if (target.front() == '/') return LinkTarget::kAbsolute;
  // Depth below the root of the directory the link lives in; every ".." of
  // the target climbs one level from there.
  std::size_t depth = link.parts.empty() ? 0 : link.parts.size() - 1;
  for (std::string_view part : SplitComponents(target)) {
    if (part == "..") {
      if (depth == 0) return LinkTarget::kEscapes;
      --depth;
    } else {
      ++depth;
    }
  }
  return LinkTarget::kInside;
}

}  // namespace sbx::archive::internal
