#include "core/utf8.h"

namespace sbx::utf8 {

std::string ReplaceInvalid(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t end = AsciiRunEnd(bytes, i);
    out.append(bytes.data() + i, end - i);
    if ((i = end) == bytes.size()) break;
    if (std::size_t len = SequenceLength(bytes, i)) {
      out.append(bytes.data() + i, len);
      i += len;
    } else {
      Append(out, kReplacement);
      i += MaximalSubpart(bytes, i);
    }
  }
  return out;
}

std::u16string ToUtf16(std::string_view utf8) {
  std::u16string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    char32_t c = Next(utf8, i, Surrogates::kAllow);
    if (c >= 0x10000) {
      c -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (c >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(c));
    }
  }
  return out;
}

std::string FromUtf16(std::u16string_view utf16, Surrogates surrogates) {
  std::string out;
  out.reserve(utf16.size());
  for (std::size_t i = 0; i < utf16.size(); ++i) {
    char32_t c = utf16[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < utf16.size() && utf16[i + 1] >= 0xDC00 && utf16[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (utf16[i + 1] - 0xDC00);
      ++i;
    } else if (c >= 0xD800 && c <= 0xDFFF && surrogates == Surrogates::kReject) {
      c = kReplacement;
    }
    Append(out, c);
  }
  return out;
}

}  // namespace sbx::utf8
