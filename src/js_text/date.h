// JavaScript's Date as text: toISOString() (UTC, milliseconds, six-digit
// signed years outside 0..9999) and toString() (the process's time zone,
// with the zone's long English name as V8 takes it from ICU).
//
// Thread-safety: pure functions (toString reads ICU's default zone).
#pragma once

#include <cstdint>
#include <string>

namespace sbx::js {

// new Date(ms).toISOString(): "2025-01-02T03:04:05.678Z",
// "+275760-09-13T00:00:00.000Z".
std::string ToIsoString(std::int64_t epoch_ms);

// new Date(seconds * 1000).toString(): "Sun Nov 22 2026 00:55:54 GMT+0000
// (Coordinated Universal Time)".
std::string DateToString(std::int64_t seconds);

// Date.now(): milliseconds since the epoch.
std::int64_t DateNow();

}  // namespace sbx::js
