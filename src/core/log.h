// Logging setup. Modules log through spdlog's default logger.
#pragma once

#include <string>

namespace sbx::log {

// Sets the default logger to stderr with `level` (trace, debug, info, warn,
// error, off). Unknown levels fall back to info.
void Init(const std::string& level);

}  // namespace sbx::log
