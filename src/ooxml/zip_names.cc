#include "ooxml/zip_names.h"

#include <cstdint>

namespace sbx::ooxml::internal {
namespace {

std::uint32_t Le(std::string_view s, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

}  // namespace

std::optional<std::vector<std::string>> RawEntryNames(std::string_view zip, std::size_t max_entries) {
  constexpr std::size_t kEocd = 22;
  if (zip.size() < kEocd) return std::nullopt;
  // The end record sits in the last 22 + 65535 (comment) bytes; search backwards.
  std::size_t lowest = zip.size() > kEocd + 0xFFFF ? zip.size() - kEocd - 0xFFFF : 0;
  std::size_t at = zip.size() - kEocd;
  while (true) {
    if (Le(zip, at, 4) == 0x06054b50) break;
    if (at == lowest) return std::nullopt;
    --at;
  }
  std::uint32_t count = Le(zip, at + 10, 2);
  std::uint32_t cd_size = Le(zip, at + 12, 4);
  std::uint32_t cd_offset = Le(zip, at + 16, 4);
  if (count == 0xFFFF || cd_size == 0xFFFFFFFF || cd_offset == 0xFFFFFFFF) return std::nullopt;  // zip64
  if (count > max_entries) return std::nullopt;  // the entry bound is libzip's count's to report
  if (std::uint64_t{cd_offset} + cd_size > at) return std::nullopt;
  std::vector<std::string> names;
  std::size_t pos = cd_offset;
  std::size_t end = std::size_t{cd_offset} + cd_size;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (pos + 46 > end || Le(zip, pos, 4) != 0x02014b50) return std::nullopt;
    std::size_t name_len = Le(zip, pos + 28, 2);
    std::size_t extra_len = Le(zip, pos + 30, 2);
    std::size_t comment_len = Le(zip, pos + 32, 2);
    if (pos + 46 + name_len + extra_len + comment_len > end) return std::nullopt;
    names.emplace_back(zip.substr(pos + 46, name_len));
    pos += 46 + name_len + extra_len + comment_len;
  }
  return names;
}

}  // namespace sbx::ooxml::internal
