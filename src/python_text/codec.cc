#include "python_text/codec.h"

#include <cctype>
#include <cstdio>

#include "core/utf8.h"

namespace sbx::py {
namespace {

std::string Hex2(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", c);
  return buf;
}

// "can't decode byte 0xNN in position P" or "can't decode bytes in position
// P-Q": CPython names the byte when the bad part is one byte long.
std::string DecodeMessage(const char* codec, std::string_view b, std::size_t start, std::size_t end,
                          const char* reason) {
  std::string out = std::string("'") + codec + "' codec can't decode ";
  if (end - start == 1)
    out += "byte " + Hex2(static_cast<unsigned char>(b[start])) + " in position " + std::to_string(start);
  else
    out += "bytes in position " + std::to_string(start) + "-" + std::to_string(end - 1);
  return out + ": " + reason;
}

}  // namespace

std::string DecodeUtf8Replace(std::string_view bytes) { return utf8::ReplaceInvalid(bytes); }

std::string DecodeReplace(std::string_view bytes, std::string_view encoding) {
  std::string enc;
  for (char c : encoding) enc += (c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (enc == "latin-1" || enc == "latin1" || enc == "iso-8859-1" || enc == "iso8859-1" || enc == "l1") {
    std::string out;
    for (unsigned char c : bytes) utf8::Append(out, c);
    return out;
  }
  if (enc == "ascii" || enc == "us-ascii") {
    std::string out;
    for (unsigned char c : bytes) utf8::Append(out, c < 0x80 ? c : utf8::kReplacement);
    return out;
  }
  return DecodeUtf8Replace(bytes);
}

std::optional<std::string> Utf8DecodeError(std::string_view b) {
  std::size_t i = 0;
  while ((i = utf8::AsciiRunEnd(b, i)) < b.size()) {
    if (std::size_t len = utf8::SequenceLength(b, i)) {
      i += len;
      continue;
    }
    // CPython's three reasons: the part is a good prefix cut off by the end
    // of the data, its first byte starts nothing, or a later byte is wrong.
    std::size_t end = i + utf8::MaximalSubpart(b, i);
    auto lead = static_cast<unsigned char>(b[i]);
    const char* reason = !utf8::IsLeadByte(lead) ? "invalid start byte"
                         : end == b.size()       ? "unexpected end of data"
                                                 : "invalid continuation byte";
    return DecodeMessage("utf-8", b, i, end, reason);
  }
  return std::nullopt;
}

std::optional<std::string> AsciiDecodeError(std::string_view b) {
  std::size_t i = utf8::AsciiRunEnd(b, 0);
  if (i == b.size()) return std::nullopt;
  return DecodeMessage("ascii", b, i, i + 1, "ordinal not in range(128)");
}

std::optional<std::string> Utf8EncodeError(std::string_view s) {
  std::size_t position = 0, first = 0, count = 0;
  std::string first_char;
  for (std::size_t i = 0; i < s.size(); ++position) {
    char32_t c = utf8::Next(s, i, utf8::Surrogates::kAllow);
    bool surrogate = c >= 0xD800 && c <= 0xDFFF;
    if (surrogate && count == 0) {
      first = position;
      char buf[16];
      std::snprintf(buf, sizeof buf, "'\\u%04x'", static_cast<unsigned>(c));
      first_char = buf;
    }
    if (surrogate) ++count;
    else if (count) break;
  }
  if (count == 0) return std::nullopt;
  if (count == 1)
    return "'utf-8' codec can't encode character " + first_char + " in position " + std::to_string(first) +
           ": surrogates not allowed";
  return "'utf-8' codec can't encode characters in position " + std::to_string(first) + "-" +
         std::to_string(first + count - 1) + ": surrogates not allowed";
}

std::string UniversalNewlines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
      continue;
    }
    out += '\n';
    if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
  }
  return out;
}

}  // namespace sbx::py
