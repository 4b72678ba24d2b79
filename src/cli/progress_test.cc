#include "cli/progress.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace sbx::cli {
namespace {

TEST(FormatBytes, HumanUnits) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1024), "1.0 KiB");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(1024 * 1024 - 1), "1.0 MiB");  // not "1024.0 KiB"
  EXPECT_EQ(FormatBytes(5ull * 1024 * 1024 + 300 * 1024), "5.3 MiB");
  EXPECT_EQ(FormatBytes(3ull << 30), "3.0 GiB");
  EXPECT_EQ(FormatBytes(2ull << 40), "2.0 TiB");
}

TEST(FormatPercent, FloorsAndClamps) {
  EXPECT_EQ(FormatPercent(0, 200), "0%");
  EXPECT_EQ(FormatPercent(1, 200), "0%");
  EXPECT_EQ(FormatPercent(100, 200), "50%");
  EXPECT_EQ(FormatPercent(999, 1000), "99%");
  EXPECT_EQ(FormatPercent(1000, 1000), "100%");
  EXPECT_EQ(FormatPercent(2000, 1000), "100%");
  EXPECT_EQ(FormatPercent(0, 0), "100%");
  EXPECT_EQ(FormatPercent(~0ull - 1, ~0ull), "99%");  // no overflow
}

TEST(FormatProgressLine, BarPercentAndBytes) {
  EXPECT_EQ(FormatProgressLine("upload", 512, 1024, 10),
            "upload [#####.....]  50%  512 B / 1.0 KiB");
  EXPECT_EQ(FormatProgressLine("upload", 1024, 1024, 10),
            "upload [##########] 100%  1.0 KiB / 1.0 KiB");
  EXPECT_EQ(FormatProgressLine("upload", 0, 0, 4), "upload [####] 100%  0 B / 0 B");
  EXPECT_EQ(FormatProgressLine("download", 2048, std::nullopt), "download  2.0 KiB");
}

TEST(FormatSummaryLine, RateOnlyWhenMeasurable) {
  EXPECT_EQ(FormatSummaryLine("upload", 2 << 20, 2.0), "upload: 2.0 MiB in 2.0 s (1.0 MiB/s)");
  EXPECT_EQ(FormatSummaryLine("upload", 10, 0.001), "upload: 10 B in 0.0 s");
}

TEST(ProgressReporter, NonInteractiveWritesOnlyTheSummary) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ProgressReporter progress("download", out, /*interactive=*/false);
  progress.Update(10, 100);
  progress.Update(100, 100);
  progress.Finish(100);
  std::rewind(out);
  char buf[256] = {};
  std::size_t n = std::fread(buf, 1, sizeof buf - 1, out);
  std::fclose(out);
  std::string text(buf, n);
  EXPECT_EQ(text.rfind("download: 100 B in ", 0), 0u) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

TEST(ProgressReporter, InteractiveRedrawsInPlace) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ProgressReporter progress("upload", out, /*interactive=*/true);
  progress.Update(0, 100);
  progress.Finish(100);
  std::rewind(out);
  char buf[512] = {};
  std::size_t n = std::fread(buf, 1, sizeof buf - 1, out);
  std::fclose(out);
  std::string text(buf, n);
  EXPECT_EQ(text.front(), '\r');
  EXPECT_NE(text.find("100%  100 B / 100 B  in "), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

}  // namespace
}  // namespace sbx::cli
