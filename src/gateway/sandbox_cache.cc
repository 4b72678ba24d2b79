#include "gateway/sandbox_cache.h"

#include "core/crypto.h"

namespace sbx::gateway {

Result<store::SandboxRecord> SandboxCache::GetWithToken(const std::string& id, const std::string& token) {
  // Read the epoch before the store: a release that lands in between bumps
  // it after its store change, so this entry is already stale when stored.
  const std::uint64_t epoch = manager_.access_epoch();
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(id);
    if (it != entries_.end() && it->second.epoch == epoch) {
      if (!crypto::ConstantTimeEqual(it->second.record.mcp_token, token))
        return MakeError(ErrorCode::kUnauthenticated, "Invalid or missing sandbox token");
      return it->second.record;
    }
  }
  auto fresh = manager_.GetWithToken(id, token);
  if (!fresh) return fresh;
  Put(*fresh, epoch);
  return fresh;
}

void SandboxCache::Put(const store::SandboxRecord& record, std::uint64_t epoch) {
  std::lock_guard lock(mu_);
  if (entries_.size() >= max_entries_) entries_.clear();  // bounded; refills on use
  entries_.insert_or_assign(record.id, Entry{record, epoch});
}

}  // namespace sbx::gateway
