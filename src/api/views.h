// JSON views of sandboxes in the reference's field order.
#pragma once

#include <string>

#include "core/json.h"
#include "sandbox/manager.h"
#include "store/store.h"

namespace sbx::api {

// LocalSandboxServerItem.
Json ServerItemView(const sandbox::Manager& manager, const store::SandboxRecord& sandbox,
                    const store::ServerRecord& server);
// LocalSandboxInfo (+ ttl_seconds, expires_at, test_account_email).
Json SandboxInfoView(const sandbox::Manager& manager, const store::SandboxRecord& sandbox);
// AcquireLocalSandboxResponse (+ the same extensions).
Json AcquireView(const sandbox::Manager& manager, const store::SandboxRecord& sandbox);

}  // namespace sbx::api
