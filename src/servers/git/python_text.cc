#include "servers/git/python_text.h"

#include <atomic>
#include <cstdio>
#include <random>
#include <vector>

namespace sbx::servers::git::py {

std::string PurePathStr(std::string_view path) {
  std::string root;
  if (!path.empty() && path[0] == '/')
    root = (path.size() >= 2 && path[1] == '/' && (path.size() == 2 || path[2] != '/')) ? "//" : "/";
  std::string out = root;
  bool first = true;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view part = path.substr(i, j - i);
    if (!part.empty() && part != ".") {
      if (!first) out += '/';
      out.append(part);
      first = false;
    }
    i = j + 1;
  }
  return out.empty() ? "." : out;
}

std::string NormPath(std::string_view path) {
  if (path.empty()) return ".";
  int initial = 0;
  if (path[0] == '/') initial = (path.size() >= 2 && path[1] == '/' && (path.size() == 2 || path[2] != '/')) ? 2 : 1;
  std::vector<std::string_view> comps;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view c = path.substr(i, j - i);
    i = j + 1;
    if (c.empty() || c == ".") continue;
    if (c != ".." || (initial == 0 && comps.empty()) || (!comps.empty() && comps.back() == ".."))
      comps.push_back(c);
    else if (!comps.empty())
      comps.pop_back();
  }
  std::string out(static_cast<std::size_t>(initial), '/');
  for (std::size_t k = 0; k < comps.size(); ++k) {
    if (k) out += '/';
    out.append(comps[k]);
  }
  return out.empty() ? "." : out;
}

namespace {

// GitPython's from_timestamp: astimezone() refuses offsets of a day or
// more, which then show as UTC.
::sbx::py::DateTime Break(const DateTime& dt) {
  int offset = (dt.offset_east > -86400 && dt.offset_east < 86400) ? dt.offset_east : 0;
  return ::sbx::py::DateTime::FromUnixMicros(dt.timestamp * 1'000'000, offset);
}

}  // namespace

std::string DateTimeStr(const DateTime& dt) { return ::sbx::py::Str(Break(dt)); }

std::string DateTimeRepr(const DateTime& dt) {
  return ::sbx::py::Repr(Break(dt), "<git.objects.util.tzoffset object at " + NextObjectAddress() + ">");
}

std::string NextObjectAddress() {
  // CPython objects of this size sit 16-byte aligned in a 0x7f… arena.
  static const std::uint64_t base = [] {
    std::random_device rd;
    return 0x7f0000000000ULL | ((static_cast<std::uint64_t>(rd()) << 8) & 0xffffffff00ULL);
  }();
  static std::atomic<std::uint64_t> counter{0};
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(base + 0x40 * counter.fetch_add(1)));
  return buf;
}

}  // namespace sbx::servers::git::py
