#include "servers/filesystem/js_text.h"

#include <unicode/locid.h>
#include <unicode/timezone.h>
#include <unicode/unistr.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "core/json_text.h"
#include "core/utf8.h"

namespace sbx::servers::filesystem {
namespace {

void AppendUtf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// Decodes one code point of valid UTF-8 at s[i], advancing i.
char32_t NextCodePoint(std::string_view s, std::size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  int extra = b < 0x80 ? 0 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
  char32_t c = extra == 0 ? b : extra == 1 ? (b & 0x1F) : extra == 2 ? (b & 0x0F) : (b & 0x07);
  ++i;
  for (int k = 0; k < extra && i < s.size(); ++k, ++i)
    c = (c << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return c;
}

}  // namespace

std::string DecodeUtf8Lossy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  int needed = 0, seen = 0;
  char32_t cp = 0;
  unsigned lower = 0x80, upper = 0xBF;
  const char32_t kReplacement = 0xFFFD;
  for (std::size_t i = 0; i < bytes.size();) {
    if (needed == 0) {
      // Runs of ASCII (most text) are copied whole.
      std::size_t end = utf8::AsciiRunEnd(bytes, i);
      out.append(bytes.data() + i, end - i);
      i = end;
      if (i == bytes.size()) break;
    }
    unsigned b = static_cast<unsigned char>(bytes[i]);
    if (needed == 0) {  // b is not ASCII
      ++i;
      if (b >= 0xC2 && b <= 0xDF) {
        needed = 1;
        cp = b & 0x1F;
      } else if (b >= 0xE0 && b <= 0xEF) {
        if (b == 0xE0) lower = 0xA0;
        if (b == 0xED) upper = 0x9F;
        needed = 2;
        cp = b & 0x0F;
      } else if (b >= 0xF0 && b <= 0xF4) {
        if (b == 0xF0) lower = 0x90;
        if (b == 0xF4) upper = 0x8F;
        needed = 3;
        cp = b & 0x07;
      } else {
        AppendUtf8(out, kReplacement);
      }
      continue;
    }
    if (b < lower || b > upper) {
      // The byte ends the broken sequence and is decoded again on its own.
      needed = seen = 0;
      cp = 0;
      lower = 0x80;
      upper = 0xBF;
      AppendUtf8(out, kReplacement);
      continue;
    }
    ++i;
    lower = 0x80;
    upper = 0xBF;
    cp = (cp << 6) | (b & 0x3F);
    if (++seen == needed) {
      AppendUtf8(out, cp);
      needed = seen = 0;
      cp = 0;
    }
  }
  if (needed != 0) AppendUtf8(out, kReplacement);
  return out;
}

std::u16string Utf8ToUtf16(std::string_view utf8) {
  std::u16string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    char32_t c = NextCodePoint(utf8, i);
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

std::string Utf16ToUtf8(std::u16string_view utf16) {
  std::string out;
  out.reserve(utf16.size());
  for (std::size_t i = 0; i < utf16.size(); ++i) {
    char32_t c = utf16[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < utf16.size() && utf16[i + 1] >= 0xDC00 &&
        utf16[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (utf16[i + 1] - 0xDC00);
      ++i;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      c = 0xFFFD;
    }
    AppendUtf8(out, c);
  }
  return out;
}

std::size_t Utf16Length(std::string_view utf8) {
  std::size_t n = 0;
  for (unsigned char b : utf8) {
    if ((b & 0xC0) != 0x80) ++n;  // one per code point...
    if (b >= 0xF0) ++n;           // ...two for those outside the BMP
  }
  return n;
}

bool IsJsWhitespace(char32_t c) {
  switch (c) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:
    case 0x20:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

std::string_view LeadingJsWhitespace(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t next = i;
    if (!IsJsWhitespace(NextCodePoint(s, next))) break;
    i = next;
  }
  return s.substr(0, i);
}

std::string_view JsTrimStart(std::string_view s) { return s.substr(LeadingJsWhitespace(s).size()); }

std::string_view JsTrim(std::string_view s) {
  s = JsTrimStart(s);
  // Walk forward remembering where the last non-space code point ended.
  std::size_t end = 0;
  for (std::size_t i = 0; i < s.size();) {
    char32_t c = NextCodePoint(s, i);
    if (!IsJsWhitespace(c)) end = i;
  }
  return s.substr(0, end);
}

std::string PadEnd(std::string s, std::size_t width) {
  std::size_t len = Utf16Length(s);
  if (len < width) s.append(width - len, ' ');
  return s;
}

std::string PadStart(std::string s, std::size_t width) {
  std::size_t len = Utf16Length(s);
  if (len < width) s.insert(0, width - len, ' ');
  return s;
}

std::string ToFixed(double value, int digits) {
  bool negative = value < 0;
  // glibc prints the exact decimal expansion of a double given enough digits.
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.200f", std::fabs(value));
  std::string exact = buf;
  std::size_t dot = exact.find('.');
  std::string whole = exact.substr(0, dot);
  std::string frac = exact.substr(dot + 1);
  std::string kept = whole + frac.substr(0, static_cast<std::size_t>(digits));
  if (frac[static_cast<std::size_t>(digits)] >= '5') {
    int i = static_cast<int>(kept.size()) - 1;
    while (i >= 0 && kept[static_cast<std::size_t>(i)] == '9')
      kept[static_cast<std::size_t>(i--)] = '0';
    if (i < 0) {
      kept.insert(0, "1");
      whole.insert(0, "0");  // one more integer digit
    } else {
      ++kept[static_cast<std::size_t>(i)];
    }
  }
  std::size_t int_digits = whole.size();
  std::string out = kept.substr(0, int_digits);
  if (digits > 0) out += "." + kept.substr(int_digits);
  bool zero = out.find_first_not_of("0.") == std::string::npos;
  return (negative && !zero ? "-" : "") + out;
}

std::string JsonQuote(std::string_view utf8) {
  std::string out;
  AppendJsonString(out, utf8);
  return out;
}

std::string JsDateString(std::int64_t seconds) {
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  // V8 takes the zone's offset and long name from ICU's default time zone.
  std::unique_ptr<icu::TimeZone> zone(icu::TimeZone::createDefault());
  int32_t raw = 0, dst = 0;
  UErrorCode status = U_ZERO_ERROR;
  zone->getOffset(static_cast<UDate>(seconds) * 1000.0, false, raw, dst, status);
  if (U_FAILURE(status)) raw = dst = 0;
  std::int64_t offset_minutes = (static_cast<std::int64_t>(raw) + dst) / 60000;
  std::int64_t local = seconds + offset_minutes * 60;

  std::int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
  std::int64_t secs_of_day = local - days * 86400;
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  std::int64_t z = days + 719468;
  std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  std::int64_t doe = z - era * 146097;
  std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  std::int64_t year = yoe + era * 400;
  std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  std::int64_t mp = (5 * doy + 2) / 153;
  std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  if (month <= 2) ++year;
  std::int64_t weekday = ((days % 7) + 11) % 7;  // 1970-01-01 was a Thursday

  icu::UnicodeString uname;
  zone->getDisplayName(dst != 0, icu::TimeZone::LONG, icu::Locale("en", "US"), uname);
  std::string name;
  uname.toUTF8String(name);

  std::int64_t abs_offset = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buf[160];
  std::snprintf(buf, sizeof buf,
                year < 0 ? "%s %s %02d %05lld %02d:%02d:%02d GMT%c%02d%02d (%s)"
                         : "%s %s %02d %04lld %02d:%02d:%02d GMT%c%02d%02d (%s)",
                kDays[weekday], kMonths[month - 1], static_cast<int>(day),
                static_cast<long long>(year), static_cast<int>(secs_of_day / 3600),
                static_cast<int>(secs_of_day / 60 % 60), static_cast<int>(secs_of_day % 60),
                offset_minutes < 0 ? '-' : '+', static_cast<int>(abs_offset / 60),
                static_cast<int>(abs_offset % 60), name.c_str());
  return buf;
}

}  // namespace sbx::servers::filesystem
