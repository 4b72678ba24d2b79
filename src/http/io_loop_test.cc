#include "http/io_loop.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <future>
#include <thread>

#include "core/unique_fd.h"

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

// What the io thread running RunPolling(io, spin) used while `meanwhile` ran
// on this thread: measured by handlers the io thread runs before and after.
ThreadUsage UsageWhile(asio::io_context& io, microseconds spin, const std::function<void()>& meanwhile) {
  auto guard = asio::make_work_guard(io);
  ThreadUsage before{}, after{};
  auto loop = std::async(std::launch::async, [&] { RunPolling(io, spin); });
  asio::post(io, [&] { before = Usage(); });
  meanwhile();
  std::promise<void> measured;
  asio::post(io, [&] {
    after = Usage();
    measured.set_value();
  });
  measured.get_future().wait();
  io.stop();
  loop.wait();
  return {after.sleeps - before.sleeps, after.cpu_us - before.cpu_us};
}

// Reads one byte at a time from `pipe`, counting them.
void ReadBytes(asio::posix::stream_descriptor& pipe, char& byte, std::atomic<int>& count) {
  pipe.async_read_some(asio::buffer(&byte, 1), [&](boost::system::error_code ec, std::size_t) {
    if (ec) return;
    ++count;
    ReadBytes(pipe, byte, count);
  });
}

// Twenty bytes written into a pipe 2 ms apart, each read by the io thread: it
// either sleeps in epoll between them (spin 0) or is still polling when each
// arrives. (A pipe, not asio::post, so that no lock is shared with the writer;
// under load a late wake-up can still serve two bytes at once: hence the
// margins below.)
long SleepsWhileServing(microseconds spin) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return -1;
  asio::io_context io(1);
  asio::posix::stream_descriptor reader(io, fds[0]);
  UniqueFd writer(fds[1]);
  std::atomic<int> read{0};
  char byte = 0;
  ReadBytes(reader, byte, read);
  long sleeps = UsageWhile(io, spin, [&] {
                  std::this_thread::sleep_for(milliseconds(5));
                  for (int i = 0; i < 20; ++i) {
                    EXPECT_EQ(::write(writer.get(), "x", 1), 1);
                    std::this_thread::sleep_for(milliseconds(2));
                  }
                  for (int waited = 0; read < 20 && waited < 5000; ++waited)
                    std::this_thread::sleep_for(milliseconds(1));
                }).sleeps;
  EXPECT_EQ(read, 20);
  return sleeps;
}

TEST(RunPollingTest, AThreadStillPollingNeedsNoWakeUp) {
  long asleep = SleepsWhileServing(microseconds(0));
  long spinning = SleepsWhileServing(microseconds(2'000'000));
  EXPECT_GE(asleep, 10) << "spin 0 should sleep between the 20 handlers";
  EXPECT_LE(spinning, 5) << "a 2 s spin should not sleep between them";
}

TEST(RunPollingTest, AnIdleContextSleepsOnceTheSpinIsOver) {
  // 1 ms of spin, then sleep.
  asio::io_context io(1);
  long cpu_us = UsageWhile(io, microseconds(1'000), [] { std::this_thread::sleep_for(milliseconds(300)); }).cpu_us;
  EXPECT_LT(cpu_us, 30'000) << "the thread kept spinning while idle";
}

}  // namespace
}  // namespace sbx::http
