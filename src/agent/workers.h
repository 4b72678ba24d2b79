// The agent's worker threads. Threads start on demand (an idle sandbox
// holds none) up to a cap, and stay to serve later work; work beyond the cap
// waits in order. They run MCP tool calls and, one at a time, the agent's
// I/O loop (agent_loop.cc: the thread that reads a tool call hands the loop
// to another thread and runs the call itself), so the loop keeps reading — a
// cancellation or another session's call is never stuck behind a slow tool.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sbx::agent {

class Workers {
 public:
  explicit Workers(std::size_t max_threads) : max_threads_(max_threads) {}
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  void Post(std::function<void()> work);
  // Puts `work` first in line, but only if a thread is sure to take it
  // now: an idle one, or a new one under the cap. Otherwise false and
  // nothing queued.
  bool PostFirstIfFree(std::function<void()> work);
  // Makes the calling thread one more worker, for good (the agent's main
  // thread, once it has handed the I/O loop on).
  void Join();

 private:
  void Loop();

  std::size_t max_threads_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace sbx::agent
