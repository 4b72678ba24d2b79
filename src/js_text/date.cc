#include "js_text/date.h"

#include <unicode/locid.h>
#include <unicode/timezone.h>
#include <unicode/unistr.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "core/civil_date.h"

namespace sbx::js {

std::string ToIsoString(std::int64_t epoch_ms) {
  std::int64_t days = civil::FloorDiv(epoch_ms, 86'400'000), ms = civil::FloorMod(epoch_ms, 86'400'000);
  civil::Date d = civil::FromDays(days);
  char year[32];
  if (d.year >= 0 && d.year <= 9999)
    std::snprintf(year, sizeof year, "%04lld", static_cast<long long>(d.year));
  else  // the expanded years of ECMA-262's date time string format
    std::snprintf(year, sizeof year, "%c%06lld", d.year < 0 ? '-' : '+',
                  static_cast<long long>(d.year < 0 ? -d.year : d.year));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s-%02u-%02uT%02d:%02d:%02d.%03dZ", year, d.month, d.day,
                static_cast<int>(ms / 3'600'000), static_cast<int>(ms / 60'000 % 60),
                static_cast<int>(ms / 1000 % 60), static_cast<int>(ms % 1000));
  return buf;
}

std::string DateToString(std::int64_t seconds) {
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
  std::int64_t days = civil::FloorDiv(local, 86400), secs_of_day = civil::FloorMod(local, 86400);
  civil::Date d = civil::FromDays(days);

  icu::UnicodeString uname;
  zone->getDisplayName(dst != 0, icu::TimeZone::LONG, icu::Locale("en", "US"), uname);
  std::string name;
  uname.toUTF8String(name);

  std::int64_t abs_offset = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buf[160];
  std::snprintf(buf, sizeof buf,
                d.year < 0 ? "%s %s %02u %05lld %02d:%02d:%02d GMT%c%02d%02d (%s)"
                           : "%s %s %02u %04lld %02d:%02d:%02d GMT%c%02d%02d (%s)",
                kDays[civil::Weekday(days)], kMonths[d.month - 1], d.day, static_cast<long long>(d.year),
                static_cast<int>(secs_of_day / 3600), static_cast<int>(secs_of_day / 60 % 60),
                static_cast<int>(secs_of_day % 60), offset_minutes < 0 ? '-' : '+',
                static_cast<int>(abs_offset / 60), static_cast<int>(abs_offset % 60), name.c_str());
  return buf;
}

std::int64_t DateNow() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace sbx::js
