#include "servers/arxiv/py_text.h"

#include <cstdio>

namespace sbx::servers::arxiv {
namespace {

std::string Describe(const std::string& bytes, std::size_t start, std::size_t end, const char* reason) {
  char buf[160];
  if (end == start + 1)
    std::snprintf(buf, sizeof buf, "'utf-8' codec can't decode byte 0x%02x in position %zu: %s",
                  static_cast<unsigned char>(bytes[start]), start, reason);
  else
    std::snprintf(buf, sizeof buf, "'utf-8' codec can't decode bytes in position %zu-%zu: %s", start, end - 1,
                  reason);
  return buf;
}

}  // namespace

std::optional<std::string> Utf8DecodeError(const std::string& bytes) {
  const std::size_t n = bytes.size();
  for (std::size_t i = 0; i < n;) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (b < 0x80) {
      ++i;
      continue;
    }
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b >= 0xC2 && b <= 0xDF) need = 1;
    else if (b >= 0xE0 && b <= 0xEF) need = 2, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) need = 3, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    else return Describe(bytes, i, i + 1, "invalid start byte");
    for (std::size_t k = 1; k <= need; ++k) {
      if (i + k >= n) return Describe(bytes, i, n, "unexpected end of data");
      const auto c = static_cast<unsigned char>(bytes[i + k]);
      const bool ok = k == 1 ? (c >= lo && c <= hi) : (c >= 0x80 && c <= 0xBF);
      if (!ok) return Describe(bytes, i, i + k, "invalid continuation byte");
    }
    i += need + 1;
  }
  return std::nullopt;
}

std::string UniversalNewlines(std::string text) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      text[out++] = '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      text[out++] = text[i];
    }
  }
  text.resize(out);
  return text;
}

}  // namespace sbx::servers::arxiv
