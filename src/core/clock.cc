#include "core/clock.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>

namespace sbx {

UnixMicros SystemClock::Now() const {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

UnixMicros OffsetFileClock::Now() const {
  std::int64_t offset_seconds = 0;
  std::ifstream in(path_);
  if (in) in >> offset_seconds;
  if (!in) offset_seconds = in.eof() ? offset_seconds : 0;
  return SystemClock().Now() + offset_seconds * 1'000'000;
}

std::string FormatIso8601(UnixMicros t) {
  std::time_t secs = static_cast<std::time_t>(t / 1'000'000);
  long micros = static_cast<long>(t % 1'000'000);
  if (micros < 0) {
    micros += 1'000'000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld+00:00", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
  return buf;
}

}  // namespace sbx
