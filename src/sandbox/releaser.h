// Finishes releases in the background: DELETE and the reaper answer at once
// and hand the slow part (killing, unmounting, deleting files) to this worker.
// A release that fails is retried with a back-off; one interrupted by a
// crash is found again by Manager::Recover at the next start.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "sandbox/manager.h"

namespace sbx::sandbox {

class Releaser {
 public:
  explicit Releaser(Manager& manager);
  ~Releaser();  // finishes the release under way, leaves the rest for Recover

  void Enqueue(const std::string& sandbox_id);
  // Blocks until the queue is empty and no release is running.
  void WaitIdle();

 private:
  void Run();

  Manager& manager_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;
  bool busy_ = false;
  bool stop_ = false;
  std::thread thread_;
};

// Every `interval`, begins the release of expired sandboxes (handing them to
// the Releaser) and deletes expired archive objects.
class Reaper {
 public:
  Reaper(Manager& manager, Releaser& releaser, std::chrono::milliseconds interval);
  ~Reaper();

 private:
  void Run();

  Manager& manager_;
  Releaser& releaser_;
  std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace sbx::sandbox
