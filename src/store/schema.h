// Connection set-up and schema migrations for the SQLite store.
#pragma once

#include <SQLiteCpp/Database.h>

#include "core/result.h"

namespace sbx::store::sqlite {

// The schema version this build writes (PRAGMA user_version).
int CurrentSchemaVersion();

// Sets the per-connection pragmas the store relies on (WAL, synchronous,
// foreign keys) and checks that SQLite accepted them.
Status ConfigureConnection(SQLite::Database& db);

// Brings the schema to CurrentSchemaVersion(), one transaction per step.
// Safe against another process migrating the same file at the same time.
// kInternal if the file was written by a newer sandboxd.
Status Migrate(SQLite::Database& db);

}  // namespace sbx::store::sqlite
