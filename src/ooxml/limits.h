// Bounds for reading an untrusted OOXML package. Every size in a zip header
// is a claim; these bounds are enforced on the bytes actually produced while
// inflating and on the XML actually parsed. Servers override the defaults
// from their deployment settings.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sbx::ooxml {

struct Limits {
  std::uint64_t max_package_bytes = 100ull << 20;   // the zip file itself
  std::size_t max_parts = 10'000;                   // zip entries (directories included)
  std::uint64_t max_part_bytes = 256ull << 20;      // one part, uncompressed
  std::uint64_t max_total_bytes = 512ull << 20;     // all parts, uncompressed
  std::size_t max_xml_depth = 256;                  // element nesting in one part
  std::size_t max_xml_nodes = 20'000'000;           // nodes (elements, text, ...) in one part
};

}  // namespace sbx::ooxml
