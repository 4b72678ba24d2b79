// Test-only helpers for the sandbox tests: a settable clock, a Manager over a
// fresh SQLite store in a temporary data dir, signed-URL parsing, uploads
// built with libarchive, and a tar.gz member lister.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "archive/archive_test_util.h"
#include "archive/signed_url.h"
#include "core/clock.h"
#include "core/fs.h"
#include "sandbox/manager.h"
#include "store/store.h"

namespace sbx::sandbox::testing {

using archive::testing::ListTree;
using archive::testing::ModeOf;
using archive::testing::ReadAll;
using archive::testing::TarWriter;
using archive::testing::TempDir;
using archive::testing::WriteFile;

// Time that only moves when the test says so.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(UnixMicros now) : now_(now) {}
  UnixMicros Now() const override { return now_; }
  void Set(UnixMicros t) { now_ = t; }
  void AdvanceSeconds(std::int64_t s) { now_ += s * 1'000'000; }

 private:
  UnixMicros now_;
};

// 2023-11-14T22:13:20.250000Z: a quarter second past a whole second, so that
// second truncation is visible.
inline constexpr UnixMicros kStart = 1'700'000'000'250'000;
inline constexpr char kPublicUrl[] = "http://sbx.test:9000";

struct ObjectUrl {
  std::string base;  // up to "/objects/"
  std::string sandbox_id, object_id, expires, signature;
};

// Splits "{base}/objects/{sandbox}/{object}?expires=E&signature=S".
inline ObjectUrl ParseObjectUrl(const std::string& url) {
  ObjectUrl u;
  std::size_t objects = url.find("/objects/");
  std::size_t q = url.find('?');
  if (objects == std::string::npos || q == std::string::npos) {
    ADD_FAILURE() << "not an object URL: " << url;
    return u;
  }
  u.base = url.substr(0, objects);
  std::string path = url.substr(objects + 9, q - objects - 9);
  u.sandbox_id = path.substr(0, path.find('/'));
  u.object_id = path.substr(path.find('/') + 1);
  std::string query = url.substr(q + 1);
  std::size_t amp = query.find('&');
  if (query.rfind("expires=", 0) == 0 && amp != std::string::npos &&
      query.compare(amp + 1, 10, "signature=") == 0) {
    u.expires = query.substr(8, amp - 8);
    u.signature = query.substr(amp + 11);
  } else {
    ADD_FAILURE() << "unexpected query: " << query;
  }
  return u;
}

// Member names of a tar.gz in archive order.
inline std::vector<std::string> ArchiveMembers(const std::string& path) {
  std::vector<std::string> out;
  struct archive* a = archive_read_new();
  archive_read_support_filter_all(a);
  archive_read_support_format_all(a);
  if (archive_read_open_filename(a, path.c_str(), 1 << 16) != ARCHIVE_OK) {
    ADD_FAILURE() << "open " << path << ": " << archive_error_string(a);
    archive_read_free(a);
    return out;
  }
  struct archive_entry* e;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    std::string type = archive_entry_filetype(e) == AE_IFDIR   ? "d "
                       : archive_entry_filetype(e) == AE_IFLNK ? "l "
                                                               : "f ";
    out.push_back(type + archive_entry_pathname(e));
    archive_read_data_skip(a);
  }
  archive_read_free(a);
  return out;
}

inline const store::SandboxRecord& NoRecord() {
  static const store::SandboxRecord r;
  return r;
}

class ManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = store::OpenSqliteStore(dir_ / "state.db");
    ASSERT_TRUE(s.ok()) << s.error().message;
    store_ = std::move(s).value();
    ManagerConfig config;
    config.data_dir = data_dir_;
    config.public_url = std::string(kPublicUrl) + "/";
    config.url_expiry_minutes = 30;
    config.max_upload_bytes = 1 << 20;
    manager_ = std::make_unique<Manager>(config, *store_, clock_, signer_);
  }

  store::SandboxRecord Acquire(const std::string& owner, std::vector<std::string> servers = {"git"},
                               std::optional<std::int64_t> ttl = 7200) {
    AcquireRequest req;
    req.server_names = std::move(servers);
    req.ttl_seconds = ttl;
    auto r = manager_->Acquire(owner, req);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? r.value() : NoRecord();
  }

  std::string SandboxDir(const std::string& id) const { return data_dir_ + "/sandboxes/" + id; }

  // Issues an upload URL, writes the archive `build` makes to the part file
  // and commits it. Returns the object id.
  std::string Upload(const std::string& owner, const std::string& id,
                     const std::function<void(TarWriter&)>& build) {
    auto url = manager_->CreateUploadUrl(owner, id);
    EXPECT_TRUE(url.ok()) << url.error().message;
    if (!url.ok()) return "";
    ObjectUrl u = ParseObjectUrl(url->url);
    auto target = manager_->BeginUpload(id, u.object_id);
    EXPECT_TRUE(target.ok());
    {
      TarWriter w(target->part_path);
      build(w);
    }
    struct stat st {};
    EXPECT_EQ(::stat(target->part_path.c_str(), &st), 0);
    Status s = manager_->CommitUpload(id, u.object_id, *target, static_cast<std::uint64_t>(st.st_size));
    EXPECT_TRUE(s.ok()) << s.error().message;
    return u.object_id;
  }

  TempDir dir_;
  std::string data_dir_ = dir_ / "data";
  FakeClock clock_{kStart};
  archive::UrlSigner signer_{std::string(32, 'k')};
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<Manager> manager_;
};

}  // namespace sbx::sandbox::testing
