#include "servers/arxiv/dates.h"

#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <vector>

#include "python_text/datetime.h"

namespace sbx::servers::arxiv {
namespace {

using namespace std::chrono;

constexpr std::int64_t kMicrosPerSecond = 1'000'000;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Digits [pos, pos+n) as a number; -1 if any is not a digit or out of text.
int Digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (!IsDigit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

bool ValidDate(int y, int m, int d) {
  return year_month_day{year{y}, month{static_cast<unsigned>(m)}, day{static_cast<unsigned>(d)}}.ok();
}

std::int64_t DaysFromCivil(int y, int m, int d) {
  return sys_days{year{y} / month{static_cast<unsigned>(m)} / day{static_cast<unsigned>(d)}}
      .time_since_epoch()
      .count();
}

UnixMicros Compose(int y, int mo, int d, int h, int mi, int s, int us) {
  std::int64_t seconds = DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  return seconds * kMicrosPerSecond + us;
}

// Fraction digits after a '.', as microseconds (extra digits truncated, as
// Python does).
int Micros(std::string_view digits) {
  int us = 0;
  for (std::size_t i = 0; i < 6; ++i) us = us * 10 + (i < digits.size() ? digits[i] - '0' : 0);
  return us;
}

// ----------------------------------------------------------------- dateutil

struct Token {
  enum Kind { kNumber, kWord, kSeparator } kind;
  std::string text;
};

std::vector<Token> Lex(std::string_view s) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t j = i + 1;
    if (IsDigit(s[i])) {
      while (j < s.size() && IsDigit(s[j])) ++j;
      out.push_back({Token::kNumber, std::string(s.substr(i, j - i))});
    } else if (std::isalpha(c)) {
      while (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j]))) ++j;
      std::string w(s.substr(i, j - i));
      for (char& ch : w) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      out.push_back({Token::kWord, w});
    } else if (std::isspace(c)) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      out.push_back({Token::kSeparator, " "});
    } else {
      out.push_back({Token::kSeparator, std::string(1, s[i])});
    }
    i = j;
  }
  return out;
}

int MonthNumber(const std::string& w) {
  static constexpr std::array<std::array<const char*, 3>, 12> kNames = {{
      {"jan", "january", nullptr}, {"feb", "february", nullptr}, {"mar", "march", nullptr},
      {"apr", "april", nullptr},   {"may", nullptr, nullptr},    {"jun", "june", nullptr},
      {"jul", "july", nullptr},    {"aug", "august", nullptr},   {"sep", "sept", "september"},
      {"oct", "october", nullptr}, {"nov", "november", nullptr}, {"dec", "december", nullptr},
  }};
  for (std::size_t m = 0; m < kNames.size(); ++m)
    for (const char* name : kNames[m])
      if (name && w == name) return static_cast<int>(m) + 1;
  return 0;
}

// Words dateutil skips between the parts of a date.
bool IsJumpWord(const std::string& w) {
  for (const char* j : {"at", "on", "and", "ad", "m", "t", "of", "st", "nd", "rd", "th"})
    if (w == j) return true;
  return false;
}

// dateutil's _ymd: the year/month/day candidates in order, with the
// positions known for sure (a month name, a number written with > 2 digits).
struct Ymd {
  std::vector<int> values;
  int ystridx = -1, mstridx = -1;
  bool century_specified = false;

  bool Append(int value, std::size_t digits, char label = 0) {
    if (values.size() >= 3) return false;
    if (label == 0 && (digits > 2 || value > 100)) label = 'Y';
    if (label == 'Y') {
      if (ystridx >= 0) return false;
      century_specified = century_specified || digits > 2 || value > 100;
      ystridx = static_cast<int>(values.size());
    }
    if (label == 'M') {
      if (mstridx >= 0) return false;
      mstridx = static_cast<int>(values.size());
    }
    values.push_back(value);
    return true;
  }
};

struct Fields {
  std::optional<int> year, month, day;
};

// dateutil's _ymd.resolve_ymd with dayfirst = yearfirst = False.
Fields Resolve(const Ymd& ymd) {
  Fields f;
  const auto& v = ymd.values;
  const int n = static_cast<int>(v.size());
  const int known = (ymd.ystridx >= 0) + (ymd.mstridx >= 0);
  if ((n == known && n > 0) || (n == 3 && known == 2)) {
    int y = ymd.ystridx, m = ymd.mstridx, d = -1;
    if (n == 3) {
      for (int i = 0; i < 3; ++i)
        if (i != y && i != m) (y < 0 ? y : m < 0 ? m : d) = i;
    }
    if (y >= 0) f.year = v[y];
    if (m >= 0) f.month = v[m];
    if (d >= 0) f.day = v[d];
    return f;
  }
  if (n == 1 || (ymd.mstridx >= 0 && n == 2)) {
    int other = v[0];
    if (ymd.mstridx >= 0) {
      f.month = v[ymd.mstridx];
      other = v[(ymd.mstridx - 1 + n) % n];
    }
    if (n > 1 || ymd.mstridx < 0) (other > 31 ? f.year : f.day) = other;
  } else if (n == 2) {
    if (v[0] > 31) f.year = v[0], f.month = v[1];
    else if (v[1] > 31) f.month = v[0], f.year = v[1];
    else f.month = v[0], f.day = v[1];
  } else if (n == 3) {
    if (ymd.mstridx == 0) {
      if (v[1] > 31) f.month = v[0], f.year = v[1], f.day = v[2];
      else f.month = v[0], f.day = v[1], f.year = v[2];
    } else if (ymd.mstridx == 1) {
      if (v[0] > 31) f.year = v[0], f.month = v[1], f.day = v[2];
      else f.day = v[0], f.month = v[1], f.year = v[2];
    } else if (ymd.mstridx == 2) {
      if (v[1] > 31) f.day = v[0], f.year = v[1], f.month = v[2];
      else f.year = v[0], f.day = v[1], f.month = v[2];
    } else if (v[0] > 31 || ymd.ystridx == 0) {
      f.year = v[0], f.month = v[1], f.day = v[2];
    } else if (v[0] > 12) {
      f.day = v[0], f.month = v[1], f.year = v[2];
    } else {
      f.month = v[0], f.day = v[1], f.year = v[2];
    }
  }
  return f;
}

struct Time {
  int hour = 0, minute = 0, second = 0, micros = 0;
};

enum class ScanResult { kOk, kNoDate, kUnknown };

// Parses the tokens into date candidates and a time. kUnknown if some token
// does not fit (dateutil: "Unknown string format"), kNoDate if nothing but
// separators and filler words was found.
ScanResult Scan(const std::vector<Token>& tokens, Ymd& ymd, Time& time) {
  bool have_time = false;
  const std::size_t n = tokens.size();
  auto sep_at = [&](std::size_t k, const char* chars) {
    return k < n && tokens[k].kind == Token::kSeparator &&
           std::string_view(chars).find(tokens[k].text[0]) != std::string_view::npos;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Token& t = tokens[i];
    if (t.kind == Token::kSeparator) {
      if (t.text == " " || t.text == "," || t.text == ";" || t.text == "-" || t.text == "/" || t.text == "." ||
          t.text == "'")
        continue;
      // A UTC offset after the time (+05:00, +0500, +05): dropped, as upstream does.
      if ((t.text == "+") && have_time && i + 1 < n && tokens[i + 1].kind == Token::kNumber) {
        i += 1;
        if (sep_at(i + 1, ":") && i + 2 < n && tokens[i + 2].kind == Token::kNumber) i += 2;
        continue;
      }
      return ScanResult::kUnknown;
    }
    if (t.kind == Token::kWord) {
      if (int m = MonthNumber(t.text); m != 0) {
        if (!ymd.Append(m, 2, 'M')) return ScanResult::kUnknown;
        continue;
      }
      if (t.text == "z" || t.text == "utc" || t.text == "gmt") {
        if (!have_time) return ScanResult::kUnknown;
        continue;
      }
      if (IsJumpWord(t.text)) continue;
      return ScanResult::kUnknown;
    }
    // A number.
    const std::string& num = t.text;
    // "-05:00" after a time is an offset, not a date part.
    if (have_time && i > 0 && tokens[i - 1].text == "-") {
      if (sep_at(i + 1, ":") && i + 2 < n && tokens[i + 2].kind == Token::kNumber) i += 2;
      continue;
    }
    if (sep_at(i + 1, ":")) {
      if (have_time || num.size() > 2) return ScanResult::kUnknown;
      time.hour = std::stoi(num);
      if (i + 2 >= n || tokens[i + 2].kind != Token::kNumber || tokens[i + 2].text.size() > 2)
        return ScanResult::kUnknown;
      time.minute = std::stoi(tokens[i + 2].text);
      i += 2;
      if (sep_at(i + 1, ":")) {
        if (i + 2 >= n || tokens[i + 2].kind != Token::kNumber || tokens[i + 2].text.size() > 2)
          return ScanResult::kUnknown;
        time.second = std::stoi(tokens[i + 2].text);
        i += 2;
        if (sep_at(i + 1, ".") && i + 2 < n && tokens[i + 2].kind == Token::kNumber) {
          time.micros = Micros(tokens[i + 2].text);
          i += 2;
        }
      }
      have_time = true;
      continue;
    }
    if (ymd.values.empty() && (num.size() == 8 || num.size() == 6) && !sep_at(i + 1, "-/.")) {
      // YYYYMMDD (the year known) or YYMMDD (three two-digit values, order resolved below).
      if (num.size() == 8) {
        ymd.Append(std::stoi(num.substr(0, 4)), 4, 'Y');
        ymd.Append(std::stoi(num.substr(4, 2)), 2);
        ymd.Append(std::stoi(num.substr(6, 2)), 2);
      } else {
        for (std::size_t k = 0; k < 6; k += 2) ymd.Append(std::stoi(num.substr(k, 2)), 2);
      }
      continue;
    }
    if (num.size() > 4) return ScanResult::kUnknown;
    if (!ymd.Append(std::stoi(num), num.size())) return ScanResult::kUnknown;
  }
  return ymd.values.empty() && !have_time ? ScanResult::kNoDate : ScanResult::kOk;
}

std::string Quoted(std::string_view message, std::string_view text) {
  return std::string(message) + ": " + std::string(text);
}

}  // namespace

std::optional<Timestamp> ParseTimestamp(std::string_view s) {
  int y = Digits(s, 0, 4), mo = Digits(s, 5, 2), d = Digits(s, 8, 2);
  if (y < 1 || s.size() < 10 || s[4] != '-' || s[7] != '-' || mo < 0 || d < 0 || !ValidDate(y, mo, d))
    return std::nullopt;
  if (s.size() == 10) return Timestamp{Compose(y, mo, d, 0, 0, 0, 0), 0};
  if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return std::nullopt;
  int h = Digits(s, 11, 2), mi = Digits(s, 14, 2), se = Digits(s, 17, 2);
  if (h < 0 || mi < 0 || se < 0 || s[13] != ':' || s[16] != ':' || h > 23 || mi > 59 || se > 59)
    return std::nullopt;
  std::size_t pos = 19;
  int us = 0;
  if (pos < s.size() && s[pos] == '.') {
    std::size_t start = ++pos;
    while (pos < s.size() && IsDigit(s[pos])) ++pos;
    if (pos == start) return std::nullopt;
    us = Micros(s.substr(start, pos - start));
  }
  int offset = 0;
  std::string_view zone = s.substr(pos);
  if (zone == "Z" || zone == "z") {
    offset = 0;
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    int oh = Digits(zone, 1, 2), om = Digits(zone, 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return std::nullopt;
    offset = (zone[0] == '-' ? -1 : 1) * (oh * 60 + om);
  } else {
    return std::nullopt;
  }
  UnixMicros wall = Compose(y, mo, d, h, mi, se, us);
  return Timestamp{wall - static_cast<UnixMicros>(offset) * 60 * kMicrosPerSecond, offset};
}

std::string IsoFormat(const Timestamp& t) {
  return py::IsoFormat(py::DateTime::FromUnixMicros(t.utc, t.offset_minutes * 60));
}

std::string NaiveIsoFormat(UnixMicros t) { return py::IsoFormat(py::DateTime::FromUnixMicros(t, std::nullopt)); }

Result<UnixMicros> ParseFilterDate(std::string_view text, UnixMicros now) {
  Ymd ymd;
  Time time;
  switch (Scan(Lex(text), ymd, time)) {
    case ScanResult::kNoDate:
      return MakeError(ErrorCode::kInvalidArgument, Quoted("String does not contain a date", text));
    case ScanResult::kUnknown:
      return MakeError(ErrorCode::kInvalidArgument, Quoted("Unknown string format", text));
    case ScanResult::kOk:
      break;
  }
  Fields f = Resolve(ymd);

  year_month_day today{floor<days>(sys_time<microseconds>{microseconds{now}})};
  int y = f.year.value_or(static_cast<int>(today.year()));
  if (f.year && !ymd.century_specified && y < 100) {
    // dateutil's convertyear: the century that puts the year within 50 years of now.
    int this_year = static_cast<int>(today.year());
    y += this_year / 100 * 100;
    if (y >= this_year + 50) y -= 100;
    else if (y < this_year - 50) y += 100;
  }
  int mo = f.month.value_or(static_cast<int>(static_cast<unsigned>(today.month())));
  auto fail = [&](const char* why) { return MakeError(ErrorCode::kInvalidArgument, Quoted(why, text)); };
  if (y < 1 || y > 9999) return fail(("year " + std::to_string(y) + " is out of range").c_str());
  if (mo < 1 || mo > 12) return fail("month must be in 1..12");
  int d = 0;
  if (f.day) {
    d = *f.day;
  } else {
    // A day left out comes from today, clamped to the month's length.
    d = static_cast<int>(static_cast<unsigned>(today.day()));
    int last = static_cast<int>(static_cast<unsigned>(
        year_month_day_last{year{y}, month_day_last{month{static_cast<unsigned>(mo)}}}.day()));
    if (d > last) d = last;
  }
  if (!ValidDate(y, mo, d)) return fail("day is out of range for month");
  if (time.hour > 23) return fail("hour must be in 0..23");
  if (time.minute > 59) return fail("minute must be in 0..59");
  if (time.second > 59) return fail("second must be in 0..59");
  return Compose(y, mo, d, time.hour, time.minute, time.second, time.micros);
}

}  // namespace sbx::servers::arxiv
