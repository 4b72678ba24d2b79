// Progress display for long transfers (pack, upload, download).
//
// On a terminal the bar is redrawn in place on stderr (stdout stays clean for
// the result, so `sandboxctl dump ... > x` or --json output is never mixed
// with it); when stderr is not a terminal (logs, CI) only one summary line is
// written at the end, because carriage-return redraws make logs unreadable.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace sbx::cli {

// 1023 -> "1023 B", 1536 -> "1.5 KiB", then MiB, GiB, TiB with one decimal.
std::string FormatBytes(std::uint64_t bytes);

// Whole percent of `done` out of `total`, rounded down and clamped to 100
// (a transfer at 99.9% is not done); a zero total is "100%".
std::string FormatPercent(std::uint64_t done, std::uint64_t total);

// One redraw of the bar, e.g. "upload   [#####.....]  50%  1.0 MiB / 2.0 MiB".
// Without a known total: "download  1.0 MiB". `bar_width` is the number of
// cells between the brackets.
std::string FormatProgressLine(std::string_view label, std::uint64_t done,
                               std::optional<std::uint64_t> total, int bar_width = 30);

// "1.3 s (1.5 MiB/s)": elapsed time and, when measurable, the mean rate.
std::string FormatElapsed(std::uint64_t bytes, double seconds);

// The final line: "upload: 2.0 MiB in 1.3 s (1.5 MiB/s)"; the rate is left
// out when the time is too short to measure.
std::string FormatSummaryLine(std::string_view label, std::uint64_t bytes, double seconds);

// Not thread-safe; one per transfer.
class ProgressReporter {
 public:
  // `out` is where lines go (stderr); `interactive` says whether it is a
  // terminal (bar redrawn) or not (summary line only).
  ProgressReporter(std::string label, std::FILE* out, bool interactive);

  // Reports `done` bytes out of `total` (if known). Redraws at most ~10 times
  // a second, so a fast local transfer does not spend its time on the terminal.
  void Update(std::uint64_t done, std::optional<std::uint64_t> total);

  // Writes the final state: the bar completed with a newline, or the summary.
  // Safe to call once; the destructor does nothing.
  void Finish(std::uint64_t done);

  // Ends an interactive bar's line without a summary (on failure), so an
  // error message starts on a fresh line.
  void Abandon();

 private:
  std::string label_;
  std::FILE* out_;
  bool interactive_;
  std::optional<std::uint64_t> total_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
  std::size_t last_width_ = 0;

  // Redraws the line in place (with `suffix` appended), padded over the last one.
  void Draw(std::uint64_t done, std::string_view suffix = {});
};

// Whether stderr is a terminal.
bool StderrIsTerminal();

}  // namespace sbx::cli
