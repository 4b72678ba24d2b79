#include "cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace sbx::cli {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

// Below this a rate is mostly noise (and a division by almost nothing).
constexpr double kMinSecondsForRate = 0.05;

}  // namespace

std::string FormatBytes(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr std::array<const char*, 5> kUnits = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  // 1023.96 KiB would print as "1024.0 KiB"; step up before rounding does.
  while (value >= 1023.95 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", value, kUnits[unit]);
  return buf;
}

std::string FormatPercent(std::uint64_t done, std::uint64_t total) {
  if (total == 0 || done >= total) return "100%";
  // Floating point avoids overflow of done * 100 and is exact enough for
  // whole percents; the clamp guards against rounding up to 100.
  auto pct = static_cast<int>(static_cast<double>(done) * 100.0 / static_cast<double>(total));
  return std::to_string(std::min(pct, 99)) + "%";
}

std::string FormatProgressLine(std::string_view label, std::uint64_t done,
                               std::optional<std::uint64_t> total, int bar_width) {
  std::string line(label);
  if (!total) return line + "  " + FormatBytes(done);
  int filled = bar_width;
  if (*total > 0 && done < *total) {
    filled = static_cast<int>(static_cast<double>(done) * bar_width / static_cast<double>(*total));
  }
  filled = std::clamp(filled, 0, bar_width);
  std::string pct = FormatPercent(done, *total);
  line += " [" + std::string(filled, '#') + std::string(bar_width - filled, '.') + "] ";
  line += std::string(4 - std::min<std::size_t>(pct.size(), 4), ' ') + pct;
  line += "  " + FormatBytes(done) + " / " + FormatBytes(*total);
  return line;
}

std::string FormatElapsed(std::uint64_t bytes, double seconds) {
  char time[32];
  std::snprintf(time, sizeof time, "%.1f s", seconds);
  std::string text = time;
  if (seconds >= kMinSecondsForRate) {
    text += " (" + FormatBytes(static_cast<std::uint64_t>(static_cast<double>(bytes) / seconds)) +
            "/s)";
  }
  return text;
}

std::string FormatSummaryLine(std::string_view label, std::uint64_t bytes, double seconds) {
  return std::string(label) + ": " + FormatBytes(bytes) + " in " + FormatElapsed(bytes, seconds);
}

ProgressReporter::ProgressReporter(std::string label, std::FILE* out, bool interactive)
    : label_(std::move(label)),
      out_(out),
      interactive_(interactive),
      start_(std::chrono::steady_clock::now()) {}

void ProgressReporter::Update(std::uint64_t done, std::optional<std::uint64_t> total) {
  if (total) total_ = total;
  if (!interactive_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  Draw(done);
}

void ProgressReporter::Draw(std::uint64_t done, std::string_view suffix) {
  std::string line = FormatProgressLine(label_, done, total_) + std::string(suffix);
  // Pad over the previous, possibly longer, line instead of relying on a
  // terminal escape sequence.
  std::size_t width = line.size();
  if (width < last_width_) line.append(last_width_ - width, ' ');
  last_width_ = width;
  std::fprintf(out_, "\r%s", line.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void ProgressReporter::Finish(std::uint64_t done) {
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (interactive_) {
    if (!total_) total_ = done;
    Draw(done, "  in " + FormatElapsed(done, seconds));
    std::fputc('\n', out_);
  } else {
    std::fprintf(out_, "%s\n", FormatSummaryLine(label_, done, seconds).c_str());
  }
  std::fflush(out_);
}

void ProgressReporter::Abandon() {
  if (interactive_ && drawn_) {
    std::fputc('\n', out_);
    std::fflush(out_);
  }
}

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace sbx::cli
