// The SQLite implementation of Store. Internal to store/: the rest of
// sandboxd gets one through OpenSqliteStore() in store.h.
//
// One connection serialised by a mutex: SQLite allows one writer at a time
// anyway, and every method is a handful of indexed statements, so callers
// wait microseconds. Each mutating method runs in one IMMEDIATE transaction
// (the write lock is taken up front, so a concurrent writer in another
// process makes us wait for busy_timeout instead of failing mid-way).
#pragma once

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>

#include <exception>
#include <mutex>
#include <string>
#include <string_view>

#include "store/rows.h"
#include "store/store.h"

namespace sbx::store::sqlite {

class SqliteStore final : public Store {
 public:
  // `db` is configured and migrated (see schema.h).
  explicit SqliteStore(SQLite::Database db) : db_(std::move(db)) {}

  Status InsertKey(const ApiKeyRecord& key) override;
  Result<std::optional<ApiKeyRecord>> FindActiveKeyByHash(const std::string& key_hash) override;
  Result<std::vector<ApiKeyRecord>> ListKeys() override;
  Status RevokeKey(const std::string& id, UnixMicros now) override;
  Result<std::int64_t> CountKeys() override;

  Status InsertSandbox(const SandboxRecord& sandbox) override;
  Result<std::optional<SandboxRecord>> GetSandbox(const std::string& id) override;
  Result<std::vector<SandboxRecord>> ListActiveSandboxes(const std::string& owner) override;
  Status SetStatus(const std::string& id, const std::string& status, UnixMicros now) override;
  Result<bool> BeginRelease(const std::string& id) override;
  Result<std::vector<std::string>> ExpiredSandboxes(UnixMicros now) override;
  Result<std::vector<std::string>> AllSandboxIds() override;
  Result<std::vector<std::string>> ReleasingSandboxes() override;
  Status DeleteSandbox(const std::string& id) override;

  Status InsertArchive(const ArchiveRecord& archive) override;
  Result<std::optional<ArchiveRecord>> GetArchive(const std::string& object_id) override;
  Status CompleteArchive(const std::string& object_id, std::uint64_t size, UnixMicros now) override;
  Result<std::optional<ArchiveRecord>> LatestComplete(const std::string& sandbox_id,
                                                      ArchiveKind kind,
                                                      const std::string& label) override;
  Result<std::vector<ArchiveRecord>> ListArchives(const std::string& sandbox_id) override;
  Result<std::vector<ArchiveRecord>> ExpiredArchives(ArchiveKind kind, UnixMicros now) override;
  Status DeleteArchive(const std::string& object_id) override;

 private:
  // Runs `fn` under the connection mutex and turns every exception into an
  // error value, so none crosses the Store interface. A transaction opened
  // inside `fn` and not committed rolls back as the exception unwinds.
  template <class Fn>
  auto Run(std::string_view op, Fn&& fn) -> decltype(fn()) {
    std::lock_guard lock(mu_);
    try {
      return fn();
    } catch (const SQLite::Exception& e) {
      return ErrorFromSqlite(op, e);
    } catch (const std::exception& e) {
      return MakeError(ErrorCode::kInternal, "store: " + std::string(op) + ": " + e.what());
    }
  }

  // Needs mu_ held.
  std::vector<ServerRecord> ServersOf(const std::string& sandbox_id);
  std::vector<std::string> SelectIds(const std::string& sql, std::optional<UnixMicros> bound);

  std::mutex mu_;
  SQLite::Database db_;
};

}  // namespace sbx::store::sqlite
