#include "core/clock.h"

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

namespace sbx {
namespace {

TEST(Clock, FormatIso8601) {
  EXPECT_EQ(FormatIso8601(0), "1970-01-01T00:00:00.000000+00:00");
  EXPECT_EQ(FormatIso8601(1771274725770231), "2026-02-16T20:45:25.770231+00:00");
}

TEST(Clock, OffsetFileClockAddsSecondsFromFile) {
  char path[] = "/tmp/clock_test_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  OffsetFileClock clock(path);
  SystemClock wall;
  EXPECT_NEAR(clock.Now() / 1e6, wall.Now() / 1e6, 2.0);  // empty file: offset 0
  std::ofstream(path) << 7300;
  EXPECT_NEAR(clock.Now() / 1e6, wall.Now() / 1e6 + 7300, 2.0);
  std::remove(path);
  EXPECT_NEAR(clock.Now() / 1e6, wall.Now() / 1e6, 2.0);  // missing file: offset 0
}

}  // namespace
}  // namespace sbx
