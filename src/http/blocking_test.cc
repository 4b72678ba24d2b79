#include "http/blocking.h"

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace sbx::http {
namespace {

// Runs `task` on a fresh io_context (its own thread: this one) to completion.
template <class T>
T RunToCompletion(asio::io_context& io, Task<T> task) {
  std::future<T> f = asio::co_spawn(io, std::move(task), asio::use_future);
  io.run();
  return f.get();
}

struct Observed {
  std::thread::id caller;
  std::thread::id worker;
  std::thread::id resumed;
};

Task<int> ComputeOnPool(asio::thread_pool& pool, Observed& seen) {
  seen.caller = std::this_thread::get_id();
  auto work = [&seen] {
    seen.worker = std::this_thread::get_id();
    return 6 * 7;
  };
  int v = co_await RunBlocking(pool, std::move(work));
  seen.resumed = std::this_thread::get_id();
  co_return v;
}

TEST(RunBlockingTest, ReturnsTheValueComputedOnThePool) {
  asio::io_context io;
  asio::thread_pool pool(2);
  Observed seen;
  EXPECT_EQ(RunToCompletion(io, ComputeOnPool(pool, seen)), 42);
  EXPECT_NE(seen.worker, seen.caller);
  // The coroutine resumes on its own executor (the io_context's thread).
  EXPECT_EQ(seen.resumed, seen.caller);
  EXPECT_EQ(seen.caller, std::this_thread::get_id());
}

Task<std::string> MoveOnlyResult(asio::thread_pool& pool) {
  auto work = [] { return std::make_unique<std::string>("moved"); };
  std::unique_ptr<std::string> p = co_await RunBlocking(pool, std::move(work));
  co_return *p;
}

TEST(RunBlockingTest, MoveOnlyResultsAreMovedOut) {
  asio::io_context io;
  asio::thread_pool pool(1);
  EXPECT_EQ(RunToCompletion(io, MoveOnlyResult(pool)), "moved");
}

Task<int> VoidWork(asio::thread_pool& pool, int& counter) {
  auto work = [&counter] { counter += 5; };
  co_await RunBlocking(pool, std::move(work));
  co_return counter;  // the write on the pool is visible after resumption
}

TEST(RunBlockingTest, VoidFunctionsComplete) {
  asio::io_context io;
  asio::thread_pool pool(1);
  int counter = 1;
  EXPECT_EQ(RunToCompletion(io, VoidWork(pool, counter)), 6);
}

Task<std::string> CatchRethrown(asio::thread_pool& pool, bool void_work) {
  try {
    if (void_work) {
      auto work = [] { throw std::invalid_argument("void boom"); };
      co_await RunBlocking(pool, std::move(work));
    } else {
      auto work = []() -> int { throw std::runtime_error("value boom"); };
      co_await RunBlocking(pool, std::move(work));
    }
  } catch (const std::invalid_argument& e) {
    co_return std::string("invalid_argument: ") + e.what();
  } catch (const std::runtime_error& e) {
    co_return std::string("runtime_error: ") + e.what();
  }
  co_return "no exception";
}

TEST(RunBlockingTest, ExceptionsAreRethrownInTheCallerWithTheirType) {
  asio::io_context io;
  asio::thread_pool pool(1);
  EXPECT_EQ(RunToCompletion(io, CatchRethrown(pool, false)), "runtime_error: value boom");
  io.restart();
  EXPECT_EQ(RunToCompletion(io, CatchRethrown(pool, true)), "invalid_argument: void boom");
}

Task<int> ManyInParallel(asio::thread_pool& pool, int n) {
  int sum = 0;
  for (int i = 1; i <= n; ++i) {
    auto work = [i] { return i * i; };
    sum += co_await RunBlocking(pool, std::move(work));
  }
  co_return sum;
}

TEST(RunBlockingTest, ManyCoroutinesShareThePool) {
  asio::io_context io;
  asio::thread_pool pool(3);
  std::vector<std::future<int>> futures;
  for (int k = 0; k < 10; ++k)
    futures.push_back(asio::co_spawn(io, ManyInParallel(pool, 20), asio::use_future));
  io.run();
  for (auto& f : futures) EXPECT_EQ(f.get(), 2870);  // 1^2 + ... + 20^2
}

}  // namespace
}  // namespace sbx::http
