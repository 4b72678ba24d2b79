// One cgroup per sandbox, on cgroup v1 (a directory per controller: memory,
// pids, cpu, and freezer when mounted) or cgroup v2 (one unified directory),
// below a parent group that belongs to one sandboxd instance (so two instances
// on a host never touch each other's groups and recovery can list exactly its
// own).
//
// Group and parent names are single path segments of [A-Za-z0-9._-], at most
// 100 characters, not "." or ".."; anything else is kInvalidArgument before
// any file is touched. A group that does not exist is kNotFound, except for
// Remove, where it is success.
//
// Thread-safety: a CgroupTree is immutable after Open; its methods only touch
// the files of the group they are given and may be called concurrently for
// different groups.
// Failure: Create leaves no directory behind when it fails; Remove fails
// (and leaves the group) while processes remain in it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace sbx::jail {

// Create refuses (kInvalidArgument) a zero memory or pids limit and a weight
// outside 1..10000.
struct CgroupLimits {
  // Hard limit with no swap beyond it; the OOM killer acts inside the group.
  std::uint64_t memory_bytes = 1ull << 30;
  // Max tasks (threads count).
  std::int64_t pids = 256;
  // Relative share 1..10000 (v2 cpu.weight; v1 cpu.shares = weight*1024/100).
  std::uint32_t cpu_weight = 100;
};

class CgroupTree {
 public:
  // Finds the hierarchy from `mountinfo` (normally /proc/self/mountinfo):
  // cgroup v2 when a cgroup2 mount offers the memory, pids and cpu
  // controllers, else the v1 mounts of memory, pids and cpu. Creates the
  // parent group `parent` (a single path segment) in each hierarchy and, on
  // v2, enables the three controllers for its children. Neither found is
  // kInternal, with what each candidate lacked.
  static Result<CgroupTree> Open(const std::string& parent,
                                 const std::string& mountinfo = "/proc/self/mountinfo");

  bool unified() const { return unified_; }
  // The directories that make up group `name`: one on v2; on v1 one per
  // distinct mount of memory, pids, cpu and freezer. Empty for an invalid name.
  std::vector<std::string> DirsOf(const std::string& name) const;

  // Creates group `name` with `limits`. A group that already exists is
  // kConflict (and is left as it was).
  Status Create(const std::string& name, const CgroupLimits& limits) const;
  // Moves `pid` into the group (every hierarchy). No such process is kNotFound.
  Status AddProcess(const std::string& name, pid_t pid) const;
  // Pids in the group, ascending (v1: from the pids hierarchy).
  Result<std::vector<pid_t>> Processes(const std::string& name) const;
  // SIGKILLs every process in the group until none is left or `timeout`
  // passes (v2: cgroup.kill; v1: freeze, kill, thaw, repeat), then
  // kUnavailable. Without a v1 freezer the pids are signalled as read, so a
  // pid that exits and is reused in between could be hit. A group that is
  // gone, or half removed (a crash during Remove), has nothing to kill: Ok.
  Status KillAll(const std::string& name, std::chrono::milliseconds timeout) const;
  // Removes the group's directories. A missing group is Ok; processes still
  // in it are kConflict.
  Status Remove(const std::string& name) const;
  // Removes the parent group itself once it has no groups left (a clean
  // shutdown with no live sandbox); kConflict while groups remain.
  Status RemoveParent() const;
  // Names of the groups below the parent (for start-up recovery), sorted,
  // including groups left half-removed in some v1 hierarchies.
  std::vector<std::string> List() const;
  // Current memory use of the group in bytes.
  Result<std::uint64_t> MemoryUsage(const std::string& name) const;
  // How many times the OOM killer killed a process of the group.
  Result<std::uint64_t> OomKills(const std::string& name) const;

 private:
  friend class CgroupTreeTestPeer;  // builds a v2 tree on a mount without controllers

  // Only Open makes trees: a default-constructed one would put groups at "/".
  CgroupTree() = default;
  std::vector<std::string> Roots() const;
  std::string ProcsDir(const std::string& name) const;

  bool unified_ = false;
  std::string parent_;
  std::string unified_root_;  // v2: <mount>/<parent>
  std::string memory_root_;   // v1: <memory mount>/<parent>
  std::string pids_root_;     // v1
  std::string cpu_root_;      // v1
  std::string freezer_root_;  // v1, empty if no freezer
};

}  // namespace sbx::jail
