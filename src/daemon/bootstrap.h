// First-start set-up of a data directory: its mode, the server's HMAC secret
// and the admin API key.
#pragma once

#include <string>

#include "core/result.h"
#include "store/store.h"

namespace sbx::daemon {

// Creates the data dir (0700) if missing and refuses one others can write to.
Status PrepareDataDir(const std::string& dir);

// The HMAC secret in DIR/secret.key (32 random bytes, 0600), created once.
Result<std::string> LoadOrCreateSecret(const std::string& dir);

// With no key in the store yet: creates an admin key for owner "admin",
// writes it to DIR/admin.key (0600) and returns it (to print once).
// Otherwise returns an empty string.
Result<std::string> EnsureAdminKey(store::Store& store, const std::string& dir);

}  // namespace sbx::daemon
