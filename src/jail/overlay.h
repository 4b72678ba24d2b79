// Swapping the layers under a running jail's /data (initialize and reset).
// The new overlay is assembled in sandboxd's own mount namespace, where the
// layer paths are visible, and moved over the jail's /data from a helper that
// joins only the jail's mount namespace; the old overlay is detached and
// stays readable only to processes that still had files open in it.
#pragma once

#include "core/result.h"
#include "jail/spawn.h"
#include "jail/spec.h"

namespace sbx::jail {

// Mounts an overlay of `layers` at the jail's /data in place of the old one.
// On failure the old /data is still mounted.
Status RemountData(const JailProcess& jail, const Layers& layers);

}  // namespace sbx::jail
