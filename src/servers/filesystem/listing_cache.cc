#include "servers/filesystem/listing_cache.h"

#include <fcntl.h>
#include <time.h>

#include <cerrno>

namespace sbx::servers::filesystem {
namespace {

std::int64_t Nanos(const struct timespec& t) { return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }

}  // namespace

ListingCache& ListingCache::Shared() {
  // 256 directories or 16 MiB of names, whichever comes first.
  static ListingCache cache(256, 16u << 20);
  return cache;
}

int ListingCache::Read(int dir_fd, std::size_t max_entries, Entries& out) {
  struct stat before {};
  // fstatat with AT_EMPTY_PATH works on O_PATH descriptors too.
  if (::fstatat(dir_fd, "", &before, AT_EMPTY_PATH) != 0) return errno;
  const Key key{before.st_dev, before.st_ino};
  const Stamp stamp{Nanos(before.st_ctim), Nanos(before.st_mtim), before.st_size, before.st_nlink};
  {
    std::lock_guard lock(mu_);
    if (auto it = slots_.find(key); it != slots_.end()) {
      if (it->second.stamp == stamp && it->second.entries->size() <= max_entries) {
        lru_.splice(lru_.begin(), lru_, it->second.lru);
        out = it->second.entries;
        return 0;
      }
    }
  }
  struct timespec read_at {};
  ::clock_gettime(CLOCK_REALTIME, &read_at);
  auto entries = std::make_shared<std::vector<confine::DirEntry>>();
  if (int err = confine::ReadDirectory(dir_fd, *entries, max_entries)) return err;
  out = entries;
  struct stat after {};
  if (::fstatat(dir_fd, "", &after, AT_EMPTY_PATH) != 0) return 0;
  const Stamp after_stamp{Nanos(after.st_ctim), Nanos(after.st_mtim), after.st_size, after.st_nlink};
  const std::int64_t settle = std::chrono::nanoseconds(kSettleTime).count();
  // Changed during the read, or so recently that a change in the same clock
  // tick could follow unseen: not kept.
  if (!(after_stamp == stamp) || Nanos(read_at) - stamp.ctime_ns < settle) return 0;
  Store(key, stamp, std::move(entries));
  return 0;
}

void ListingCache::Store(const Key& key, const Stamp& stamp, Entries entries) {
  std::size_t bytes = sizeof(confine::DirEntry) * entries->size();
  for (const auto& e : *entries) bytes += e.name.size();
  if (bytes > max_bytes_ / 4) return;  // one huge directory must not flush everything else
  std::lock_guard lock(mu_);
  if (auto it = slots_.find(key); it != slots_.end()) {
    bytes_ -= it->second.bytes;
    lru_.erase(it->second.lru);
    slots_.erase(it);
  }
  while (!lru_.empty() && (slots_.size() >= max_listings_ || bytes_ + bytes > max_bytes_)) {
    auto victim = slots_.find(lru_.back());
    bytes_ -= victim->second.bytes;
    slots_.erase(victim);
    lru_.pop_back();
  }
  lru_.push_front(key);
  slots_.emplace(key, Slot{stamp, std::move(entries), bytes, lru_.begin()});
  bytes_ += bytes;
}

}  // namespace sbx::servers::filesystem
