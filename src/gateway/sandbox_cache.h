// The sandboxes MCP requests name, remembered between requests so a tool
// call does not cost a store read (a SQLite transaction per call was the
// largest part of the gateway's CPU). An entry is trusted only while the
// manager's access epoch is the one it was read at: any release empties it
// in effect, so a released sandbox gets its 404 at once.
//
// Thread-safety: all members lock inside.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "core/result.h"
#include "sandbox/manager.h"

namespace sbx::gateway {

class SandboxCache {
 public:
  explicit SandboxCache(sandbox::Manager& manager, std::size_t max_entries = 4096)
      : manager_(manager), max_entries_(max_entries) {}

  // As Manager::GetWithToken (same errors), from memory when it can.
  Result<store::SandboxRecord> GetWithToken(const std::string& id, const std::string& token);
  // Remembers `record` as of access epoch `epoch` (read before the record
  // was made): a sandbox being handed over needs no store read on its first
  // request.
  void Put(const store::SandboxRecord& record, std::uint64_t epoch);

 private:
  struct Entry {
    store::SandboxRecord record;
    std::uint64_t epoch;
  };
  sandbox::Manager& manager_;
  std::size_t max_entries_;
  std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

}  // namespace sbx::gateway
