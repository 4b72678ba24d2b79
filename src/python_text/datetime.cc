#include "python_text/datetime.h"

#include <cstdio>
#include <stdexcept>

#include "core/civil_date.h"

namespace sbx::py {

DateTime DateTime::FromUnixMicros(std::int64_t micros, std::optional<int> offset) {
  std::int64_t local = civil::FloorDiv(micros, 1'000'000) + offset.value_or(0);
  std::int64_t days = civil::FloorDiv(local, 86400), secs = civil::FloorMod(local, 86400);
  civil::Date d = civil::FromDays(days);
  if (d.year < 1 || d.year > 9999) throw std::out_of_range("year " + std::to_string(d.year) + " is out of range");
  DateTime dt;
  dt.date = {static_cast<int>(d.year), static_cast<int>(d.month), static_cast<int>(d.day)};
  dt.hour = static_cast<int>(secs / 3600);
  dt.minute = static_cast<int>(secs % 3600 / 60);
  dt.second = static_cast<int>(secs % 60);
  dt.microsecond = static_cast<int>(civil::FloorMod(micros, 1'000'000));
  dt.utc_offset = offset;
  return dt;
}

std::string Str(const Date& date) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", date.year, date.month, date.day);
  return buf;
}

std::string Repr(const Date& date) {
  return "datetime.date(" + std::to_string(date.year) + ", " + std::to_string(date.month) + ", " +
         std::to_string(date.day) + ")";
}

std::string IsoFormat(const DateTime& dt, char sep) {
  char buf[96];
  int n = std::snprintf(buf, sizeof buf, "%s%c%02d:%02d:%02d", Str(dt.date).c_str(), sep, dt.hour, dt.minute,
                        dt.second);
  std::string out(buf, static_cast<std::size_t>(n));
  if (dt.microsecond) {
    std::snprintf(buf, sizeof buf, ".%06d", dt.microsecond);
    out += buf;
  }
  if (dt.utc_offset) {
    // The offset as +HH:MM, with :SS only when it has seconds.
    int off = *dt.utc_offset < 0 ? -*dt.utc_offset : *dt.utc_offset;
    std::snprintf(buf, sizeof buf, "%c%02d:%02d", *dt.utc_offset < 0 ? '-' : '+', off / 3600, off % 3600 / 60);
    out += buf;
    if (off % 60) {
      std::snprintf(buf, sizeof buf, ":%02d", off % 60);
      out += buf;
    }
  }
  return out;
}

std::string Str(const DateTime& dt) { return IsoFormat(dt, ' '); }

std::string TimezoneRepr(int offset) {
  if (offset == 0) return "datetime.timezone.utc";
  // timedelta normalises to days (possibly negative) and 0 <= seconds < 86400.
  std::int64_t days = civil::FloorDiv(offset, 86400), secs = civil::FloorMod(offset, 86400);
  std::string delta;
  if (days) delta = "days=" + std::to_string(days);
  if (secs) delta += (delta.empty() ? "" : ", ") + std::string("seconds=") + std::to_string(secs);
  return "datetime.timezone(datetime.timedelta(" + delta + "))";
}

std::string Repr(const DateTime& dt, std::optional<std::string> tzinfo_repr) {
  std::string out = "datetime.datetime(" + std::to_string(dt.date.year) + ", " + std::to_string(dt.date.month) +
                    ", " + std::to_string(dt.date.day) + ", " + std::to_string(dt.hour) + ", " +
                    std::to_string(dt.minute);
  // CPython drops trailing zero fields: seconds only when there are
  // seconds or microseconds, microseconds only when there are some.
  if (dt.second || dt.microsecond) out += ", " + std::to_string(dt.second);
  if (dt.microsecond) out += ", " + std::to_string(dt.microsecond);
  if (tzinfo_repr) out += ", tzinfo=" + *tzinfo_repr;
  else if (dt.utc_offset) out += ", tzinfo=" + TimezoneRepr(*dt.utc_offset);
  return out + ")";
}

}  // namespace sbx::py
