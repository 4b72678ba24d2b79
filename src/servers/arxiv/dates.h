// Dates the way the upstream server reads and prints them.
//
// - Paper dates (metadata "published"/"updated") are RFC 3339 timestamps, as
//   arXiv's API gives them; results print them as Python's
//   datetime.isoformat() does ("2017-06-12T17:57:34+00:00").
// - The search filters date_from/date_to go through python-dateutil's
//   parser.parse upstream. ParseFilterDate accepts the forms people write
//   (ISO dates and times, "2023/01/15", "01/15/2023", "15.01.2023",
//   "January 15, 2023", "Jan 2023", "20230115", a bare year) with dateutil's
//   rules for ambiguous orders, two-digit years and fields left out (taken
//   from today's date), and fails with dateutil's messages. Like upstream,
//   any UTC offset in the text is dropped and the wall-clock time is taken
//   as UTC (upstream calls .replace(tzinfo=timezone.utc) on the result).
//   Forms outside that subset (weekday names, AM/PM, fuzzy text) fail with
//   "Unknown string format: …" where dateutil might have accepted them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/result.h"

namespace sbx::servers::arxiv {

// An instant plus the UTC offset it was written with (isoformat keeps it).
struct Timestamp {
  UnixMicros utc = 0;
  int offset_minutes = 0;
};

// RFC 3339 ("2017-06-12T17:57:34Z", fractions and ±HH:MM offsets allowed)
// or a bare date "2017-06-12" (midnight UTC). Empty optional if malformed.
std::optional<Timestamp> ParseTimestamp(std::string_view text);

// Python's datetime.isoformat() of an aware datetime.
std::string IsoFormat(const Timestamp& t);

// Python's datetime.isoformat() of a naive datetime: the wall clock of `t`
// in UTC (the jail's local time), microseconds only when not zero.
std::string NaiveIsoFormat(UnixMicros t);

// dateutil.parser.parse(text).replace(tzinfo=utc), fields left out taken from
// the UTC date of `now`. The error is dateutil's message (without upstream's
// "Error: Invalid date format - " prefix).
Result<UnixMicros> ParseFilterDate(std::string_view text, UnixMicros now);

}  // namespace sbx::servers::arxiv
