#include "http/io_loop.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <atomic>
#include <future>
#include <thread>

namespace sbx::http {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

struct ThreadUsage {
  long sleeps;  // times the thread waited for something other than a page from disk
  long cpu_us;
};

ThreadUsage Usage() {
  struct rusage ru {};
  ::getrusage(RUSAGE_THREAD, &ru);
  return {ru.ru_nvcsw - ru.ru_majflt,
          (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1'000'000 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec};
}

TEST(RunPollingTest, RunsEveryHandlerAndReturnsWhenOutOfWork) {
  for (auto spin : {microseconds(0), microseconds(500)}) {
    asio::io_context io(1);
    int ran = 0;
    for (int i = 0; i < 3; ++i) asio::post(io, [&] { ++ran; });
    RunPolling(io, spin);
    EXPECT_EQ(ran, 3);
    EXPECT_TRUE(io.stopped());
  }
}

TEST(RunPollingTest, ReturnsWhenStoppedFromAnotherThreadWhileSpinningOrAsleep) {
  for (auto pause : {milliseconds(0), milliseconds(50)}) {
    asio::io_context io(1);
    auto guard = asio::make_work_guard(io);
    std::promise<void> started;
    asio::post(io, [&] { started.set_value(); });
    auto done = std::async(std::launch::async, [&] { RunPolling(io, microseconds(20'000)); });
    started.get_future().wait();
    std::this_thread::sleep_for(pause);  // 0: still spinning; 50 ms: asleep
    io.stop();
    ASSERT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  }
}

// Handlers posted from another thread every 2 ms: the io thread either sleeps
// between them (spin 0) or is still polling when each arrives. (Under load a
// late wake-up can serve two posts at once, or a contended lock can put the
// polling thread to sleep briefly: hence the margins below.)
long SleepsWhileServing(microseconds spin) {
  asio::io_context io(1);
  auto guard = asio::make_work_guard(io);
  std::atomic<long> before{0}, after{0};
  auto loop = std::async(std::launch::async, [&] { RunPolling(io, spin); });
  asio::post(io, [&] { before = Usage().sleeps; });
  std::this_thread::sleep_for(milliseconds(5));
  for (int i = 0; i < 20; ++i) {
    asio::post(io, [] {});
    std::this_thread::sleep_for(milliseconds(2));
  }
  std::promise<void> measured;
  asio::post(io, [&] {
    after = Usage().sleeps;
    measured.set_value();
  });
  measured.get_future().wait();
  io.stop();
  loop.wait();
  return after - before;
}

TEST(RunPollingTest, AThreadStillPollingNeedsNoWakeUp) {
  long asleep = SleepsWhileServing(microseconds(0));
  long spinning = SleepsWhileServing(microseconds(2'000'000));
  EXPECT_GE(asleep, 10) << "spin 0 should sleep between the 20 handlers";
  EXPECT_LE(spinning, 5) << "a 2 s spin should not sleep between them";
}

TEST(RunPollingTest, AnIdleContextSleepsOnceTheSpinIsOver) {
  asio::io_context io(1);
  auto guard = asio::make_work_guard(io);
  std::atomic<long> cpu_before{0}, cpu_after{0};
  auto loop = std::async(std::launch::async, [&] { RunPolling(io, microseconds(1'000)); });
  asio::post(io, [&] { cpu_before = Usage().cpu_us; });
  std::this_thread::sleep_for(milliseconds(300));  // 1 ms of spin, then sleep
  std::promise<void> measured;
  asio::post(io, [&] {
    cpu_after = Usage().cpu_us;
    measured.set_value();
  });
  measured.get_future().wait();
  io.stop();
  loop.wait();
  EXPECT_LT(cpu_after - cpu_before, 30'000) << "the thread kept spinning while idle";
}

}  // namespace
}  // namespace sbx::http
