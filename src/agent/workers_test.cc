// Workers: the hand-over of the agent's I/O loop relies on PostFirstIfFree
// never queueing work no thread will take, and on the work it queues going
// first.
#include "agent/workers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>

namespace sbx::agent {
namespace {

using namespace std::chrono_literals;

// Work that blocks its thread until released.
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened{open.get_future().share()};
  std::function<void()> Wait() {
    return [f = opened] { f.wait(); };
  }
};

template <class Pred>
bool WaitFor(Pred pred) {
  for (int i = 0; i < 500 && !pred(); ++i) std::this_thread::sleep_for(2ms);
  return pred();
}

TEST(Workers, PostFirstIfFreeStartsAThreadUnderTheCap) {
  Workers w(1);
  std::atomic<bool> ran{false};
  EXPECT_TRUE(w.PostFirstIfFree([&] { ran = true; }));
  EXPECT_TRUE(WaitFor([&] { return ran.load(); }));
}

TEST(Workers, PostFirstIfFreeRefusesWhenEveryThreadIsBusyAtTheCap) {
  Workers w(1);
  Gate gate;
  std::atomic<bool> started{false};
  w.Post([&, wait = gate.Wait()] {
    started = true;
    wait();
  });
  ASSERT_TRUE(WaitFor([&] { return started.load(); }));
  std::atomic<bool> ran{false};
  EXPECT_FALSE(w.PostFirstIfFree([&] { ran = true; }));
  gate.open.set_value();
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(ran.load()) << "refused work must not have been queued";
}

TEST(Workers, PostFirstIfFreeUsesAnIdleThread) {
  Workers w(3);
  Gate gate;
  std::atomic<int> busy{0};
  for (int i = 0; i < 2; ++i)
    w.Post([&, wait = gate.Wait()] {
      ++busy;
      wait();
    });
  ASSERT_TRUE(WaitFor([&] { return busy.load() == 2; }));
  std::mutex mu;
  std::string order;
  // Third thread starts for this one and then idles.
  w.Post([&] {
    std::lock_guard lock(mu);
    order += "a";
  });
  ASSERT_TRUE(WaitFor([&] {
    std::lock_guard lock(mu);
    return order == "a";
  }));
  std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(w.PostFirstIfFree([&] {
    std::lock_guard lock(mu);
    order += "b";
  }));
  EXPECT_TRUE(WaitFor([&] {
    std::lock_guard lock(mu);
    return order == "ab";
  }));
  gate.open.set_value();
}

}  // namespace
}  // namespace sbx::agent
