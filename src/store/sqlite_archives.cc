// The archive-object half of SqliteStore.
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include "store/sqlite_store.h"

namespace sbx::store::sqlite {
namespace {

using SQLite::TransactionBehavior;

std::vector<ArchiveRecord> ReadAll(SQLite::Statement& st) {
  std::vector<ArchiveRecord> archives;
  while (st.executeStep()) archives.push_back(ReadArchive(st));
  return archives;
}

std::string SelectArchives(const char* rest) {
  return std::string("SELECT ") + kArchiveColumns + " FROM archives " + rest;
}

}  // namespace

Status SqliteStore::InsertArchive(const ArchiveRecord& archive) {
  return Run("InsertArchive", [&]() -> Status {
    SQLite::Transaction tx(db_, TransactionBehavior::IMMEDIATE);
    SQLite::Statement st(db_, std::string("INSERT INTO archives (") + kArchiveColumns +
                                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, archive.object_id);
    st.bind(2, archive.sandbox_id);
    st.bind(3, KindText(archive.kind));
    st.bind(4, static_cast<std::int64_t>(archive.size));
    st.bind(5, archive.label);
    st.bind(6, archive.created_at);
    st.bind(7, archive.expires_at);
    // A record born complete (a dump) completed when it was created.
    BindOptional(st, 8,
                 archive.complete ? std::optional<std::int64_t>(archive.created_at) : std::nullopt);
    st.exec();
    tx.commit();
    return Ok();
  });
}

Result<std::optional<ArchiveRecord>> SqliteStore::GetArchive(const std::string& object_id) {
  return Run("GetArchive", [&]() -> Result<std::optional<ArchiveRecord>> {
    SQLite::Statement st(db_, SelectArchives("WHERE object_id = ?"));
    st.bind(1, object_id);
    if (!st.executeStep()) return std::optional<ArchiveRecord>();
    return std::optional<ArchiveRecord>(ReadArchive(st));
  });
}

Status SqliteStore::CompleteArchive(const std::string& object_id, std::uint64_t size,
                                    UnixMicros now) {
  return Run("CompleteArchive", [&]() -> Status {
    // A second PUT to the same upload URL replaced the file, so it also
    // moves completed_at: LatestComplete must see the newest content.
    SQLite::Transaction tx(db_, TransactionBehavior::IMMEDIATE);
    SQLite::Statement st(db_, "UPDATE archives SET size = ?, completed_at = ? WHERE object_id = ?");
    st.bind(1, static_cast<std::int64_t>(size));
    st.bind(2, now);
    st.bind(3, object_id);
    if (st.exec() == 0) {
      return MakeError(ErrorCode::kNotFound, "store: no archive object with id " + object_id);
    }
    tx.commit();
    return Ok();
  });
}

Result<std::optional<ArchiveRecord>> SqliteStore::LatestComplete(const std::string& sandbox_id,
                                                                 ArchiveKind kind,
                                                                 const std::string& label) {
  return Run("LatestComplete", [&]() -> Result<std::optional<ArchiveRecord>> {
    // `?3 = ''` turns the label filter off without a second statement.
    SQLite::Statement st(
        db_, SelectArchives("WHERE sandbox_id = ?1 AND kind = ?2 AND completed_at IS NOT NULL "
                            "AND (?3 = '' OR label = ?3) "
                            "ORDER BY completed_at DESC, rowid DESC LIMIT 1"));
    st.bind(1, sandbox_id);
    st.bind(2, KindText(kind));
    st.bind(3, label);
    if (!st.executeStep()) return std::optional<ArchiveRecord>();
    return std::optional<ArchiveRecord>(ReadArchive(st));
  });
}

Result<std::vector<ArchiveRecord>> SqliteStore::ListArchives(const std::string& sandbox_id) {
  return Run("ListArchives", [&]() -> Result<std::vector<ArchiveRecord>> {
    SQLite::Statement st(db_, SelectArchives("WHERE sandbox_id = ? ORDER BY created_at, rowid"));
    st.bind(1, sandbox_id);
    return ReadAll(st);
  });
}

Result<std::vector<ArchiveRecord>> SqliteStore::ExpiredArchives(ArchiveKind kind, UnixMicros now) {
  return Run("ExpiredArchives", [&]() -> Result<std::vector<ArchiveRecord>> {
    SQLite::Statement st(
        db_, SelectArchives("WHERE kind = ? AND expires_at <= ? ORDER BY expires_at, rowid"));
    st.bind(1, KindText(kind));
    st.bind(2, now);
    return ReadAll(st);
  });
}

Status SqliteStore::DeleteArchive(const std::string& object_id) {
  return Run("DeleteArchive", [&]() -> Status {
    SQLite::Transaction tx(db_, TransactionBehavior::IMMEDIATE);
    SQLite::Statement st(db_, "DELETE FROM archives WHERE object_id = ?");
    st.bind(1, object_id);
    st.exec();
    tx.commit();
    return Ok();
  });
}

}  // namespace sbx::store::sqlite
