// Python's datetime.date and datetime.datetime as text: str(), isoformat()
// and repr(), for results that print them (commit dates, file times, mail
// headers). An aware datetime carries a fixed UTC offset (datetime.timezone);
// a naive one none.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sbx::py {

struct Date {
  int year = 1;  // 1..9999
  int month = 1;
  int day = 1;
};

struct DateTime {
  Date date;
  int hour = 0, minute = 0, second = 0, microsecond = 0;
  // Seconds east of UTC (datetime.timezone(timedelta(seconds=…)), strictly
  // between -86400 and 86400), or nullopt for a naive datetime.
  std::optional<int> utc_offset;

  // datetime.fromtimestamp(micros / 1e6, timezone(timedelta(seconds=
  // offset))), or the naive UTC wall clock when `offset` is nullopt.
  // Throws std::out_of_range with CPython's "year N is out of range" when
  // the year leaves 1..9999.
  static DateTime FromUnixMicros(std::int64_t micros, std::optional<int> offset);
};

// str(date) == date.isoformat(): "2024-01-15".
std::string Str(const Date& date);
// repr(date): "datetime.date(2024, 1, 15)".
std::string Repr(const Date& date);

// datetime.isoformat(sep): "2024-01-15T14:30:25.000100+01:00"; str() is
// isoformat(" ").
std::string IsoFormat(const DateTime& dt, char sep = 'T');
std::string Str(const DateTime& dt);

// repr(datetime): "datetime.datetime(2024, 1, 15, 14, 30[, 25[, 100]]
// [, tzinfo=…])". The tzinfo is written as repr(datetime.timezone) would,
// unless `tzinfo_repr` gives the text of another tzinfo object.
std::string Repr(const DateTime& dt, std::optional<std::string> tzinfo_repr = std::nullopt);

// repr(datetime.timezone(timedelta(seconds=offset))):
// "datetime.timezone.utc" or
// "datetime.timezone(datetime.timedelta(days=-1, seconds=82800))".
std::string TimezoneRepr(int offset);

}  // namespace sbx::py
