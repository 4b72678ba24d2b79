// One resolution of every path sandboxd is given, at startup: each one a
// flag, its environment variable or an embedded default names (the data dir,
// the agent binary, the paper store, the server settings file, the test
// clock file) becomes absolute and symlink-free, and is checked for what
// sandboxd will need of it. After this the rest of sandboxd never sees a
// relative path, whatever the working directory, and a path that cannot work
// stops sandboxd here with a message naming its flag, not at the first
// acquire (the overlay code, for one, takes only absolute layer paths).
#pragma once

#include "core/result.h"
#include "daemon/config.h"

namespace sbx::daemon {

// Rewrites the path fields of `config` in place. Creates the data directory
// (0700) if it is missing. On error, names the flag and leaves `config`
// unchanged.
Status ResolvePaths(DaemonConfig& config);

}  // namespace sbx::daemon
