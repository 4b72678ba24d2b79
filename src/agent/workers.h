// The agent's worker threads for MCP tool calls. Threads start on demand (an
// idle sandbox holds none) up to a cap, and stay to serve later calls; work
// beyond the cap waits in order. Calls run here so the agent's I/O loop keeps
// reading — a cancellation or another session's call is never stuck behind
// a slow tool.
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
