// Logging setup. Modules log through spdlog's default logger.
#pragma once

#include <string>

namespace sbx::log {

// Sets the default logger to stderr with `level` (trace, debug, info, warn,
// error, off). Unknown levels fall back to info.
void Init(const std::string& level);

}  // namespace sbx::log

#include "core/result.h"

namespace sbx::log {

// Clean-up on a failure path reports the first error; a clean-up that fails
// too is logged here rather than lost.
void IfFailed(const Status& status, const char* what);

}  // namespace sbx::log
