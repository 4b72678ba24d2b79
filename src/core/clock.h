// Time as the product sees it. Everything that compares against "now" (TTL
// expiry, signed-URL expiry) asks a Clock, so tests can move time forward
// without waiting (the only thing besides faults that tests may fake).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace sbx {

// Microseconds since the Unix epoch, UTC.
using UnixMicros = std::int64_t;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual UnixMicros Now() const = 0;
  std::int64_t NowSeconds() const { return Now() / 1'000'000; }
};

// The wall clock.
class SystemClock final : public Clock {
 public:
  UnixMicros Now() const override;
};

// The wall clock plus an offset in seconds read from a file on every call
// (missing or unreadable file: offset 0). Only wired in by sandboxd's
// --test-clock-file flag, so end-to-end tests can expire TTLs and URLs.
class OffsetFileClock final : public Clock {
 public:
  explicit OffsetFileClock(std::string path) : path_(std::move(path)) {}
  UnixMicros Now() const override;

 private:
  std::string path_;
};

// "2026-02-16T20:45:25.770231+00:00": ISO 8601 with microseconds and an
// explicit UTC offset, the shape Python's datetime.isoformat() gives the
// reference service's clients.
std::string FormatIso8601(UnixMicros t);

}  // namespace sbx
