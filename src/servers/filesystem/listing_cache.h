// Directory listings kept between calls. Reading a directory of 1,000
// entries costs this machine class ~270 µs in the kernel alone (getdents on
// ext4), more than a whole small tool call; agents list the same directories
// over and over, so the sorted entries are kept, keyed on the directory's
// identity and change times.
//
// Correctness rests on one rule: every change to a directory's entries (a
// create, unlink or rename in it) sets its ctime and mtime to the current
// time. A listing is kept only when the directory's ctime is older than the
// read by more than kSettleTime, so a later change, which happens after the
// read, lands on a later clock tick and gives a different ctime even with
// coarse (jiffy) file timestamps. A listing read while the directory was
// being changed is simply not kept. Entry types cannot change without a
// rename or unlink, so they are covered too.
//
// Thread-safety: Read may be called concurrently.
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "confine/dir_cursor.h"

namespace sbx::servers::filesystem {

using Entries = std::shared_ptr<const std::vector<confine::DirEntry>>;

class ListingCache {
 public:
  static constexpr std::chrono::milliseconds kSettleTime{100};

  ListingCache(std::size_t max_listings, std::size_t max_bytes)
      : max_listings_(max_listings), max_bytes_(max_bytes) {}

  // The entries of `dir_fd` as ReadDirectory gives them, from the cache when
  // the directory has not changed. Returns 0 or ReadDirectory's errno.
  int Read(int dir_fd, std::size_t max_entries, Entries& out);

  // The process-wide cache the filesystem tools share.
  static ListingCache& Shared();

 private:
  struct Key {
    dev_t dev;
    ino_t ino;
    bool operator<(const Key& o) const { return dev != o.dev ? dev < o.dev : ino < o.ino; }
  };
  struct Stamp {
    std::int64_t ctime_ns, mtime_ns;
    off_t size;
    nlink_t nlink;
    bool operator==(const Stamp&) const = default;
  };
  struct Slot {
    Stamp stamp;
    Entries entries;
    std::size_t bytes;
    std::list<Key>::iterator lru;
  };
  void Store(const Key& key, const Stamp& stamp, Entries entries);

  std::size_t max_listings_, max_bytes_;
  std::mutex mu_;
  std::map<Key, Slot> slots_;
  std::list<Key> lru_;  // front: most recently used
  std::size_t bytes_ = 0;
};

}  // namespace sbx::servers::filesystem
