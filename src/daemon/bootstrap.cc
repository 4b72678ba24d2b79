#include "daemon/bootstrap.h"

#include <sys/stat.h>

#include "api/auth.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/fs.h"
#include "core/ids.h"

namespace sbx::daemon {

Status PrepareDataDir(const std::string& dir) {
  if (auto s = fs::MakeDirs(dir, 0700); !s) return s;
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) return MakeError(ErrorCode::kInternal, "cannot stat " + dir);
  if (st.st_mode & 022) {
    // Keys, secrets and every workspace live here: others must not write.
    if (::chmod(dir.c_str(), st.st_mode & ~077) != 0)
      return MakeError(ErrorCode::kInternal, dir + " is writable by others and cannot be fixed");
  }
  return Ok();
}

Result<std::string> LoadOrCreateSecret(const std::string& dir) {
  std::string path = dir + "/secret.key";
  auto existing = fs::ReadFile(path, 4096);
  if (existing) {
    if (existing->size() < 32) return MakeError(ErrorCode::kInternal, path + " is too short");
    return *existing;
  }
  if (existing.error().code != ErrorCode::kNotFound) return existing.error();
  std::string secret = crypto::RandomBytes(32);
  if (auto s = fs::WriteFileAtomic(path, secret, 0600); !s) return s.error();
  return secret;
}

Result<std::string> EnsureAdminKey(store::Store& store, const std::string& dir) {
  auto count = store.CountKeys();
  if (!count) return count.error();
  if (*count > 0) return std::string();
  std::string key = api::NewApiKey();
  store::ApiKeyRecord record{ids::NewUuid(), "admin", api::HashApiKey(key), api::KeyPrefix(key),
                             true, SystemClock().Now(), std::nullopt};
  // File first: if the insert then fails, the next start tries again and
  // overwrites it; the other order could lose the only admin key.
  if (auto s = fs::WriteFileAtomic(dir + "/admin.key", key + "\n", 0600); !s) return s.error();
  if (auto s = store.InsertKey(record); !s) return s.error();
  return key;
}

}  // namespace sbx::daemon
