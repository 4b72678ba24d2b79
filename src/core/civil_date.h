// Days since 1970-01-01 <-> proleptic Gregorian dates, for the text of
// dates that Python (datetime) and JavaScript (Date) print: both count in
// this calendar without leap seconds, over ranges where time_t and gmtime
// are not to be relied on (years 1..9999 for Python, ±275760 for Date).
#pragma once

#include <cstdint>

namespace sbx::civil {

struct Date {
  std::int64_t year = 1970;
  unsigned month = 1;  // 1..12
  unsigned day = 1;    // 1..31
};

// Howard Hinnant's civil_from_days / days_from_civil.
Date FromDays(std::int64_t days);
std::int64_t ToDays(const Date& date);

// 0 = Sunday .. 6 = Saturday.
unsigned Weekday(std::int64_t days);

// floor(a / b) and the matching remainder (0 <= r < b), for splitting
// seconds before 1970 into days.
inline std::int64_t FloorDiv(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline std::int64_t FloorMod(std::int64_t a, std::int64_t b) { return a - FloorDiv(a, b) * b; }

}  // namespace sbx::civil
