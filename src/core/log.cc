#include "core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace sbx::log {

void Init(const std::string& level) {
  auto logger = spdlog::stderr_color_mt("sandboxd");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") lvl = spdlog::level::info;
  spdlog::set_level(lvl);
}

}  // namespace sbx::log

namespace sbx::log {

void IfFailed(const Status& status, const char* what) {
  if (!status) spdlog::warn("{} failed: {}", what, status.error().message);
}

}  // namespace sbx::log
