// code-runner's deployment settings (sandboxd --server-settings), checked
// before any sandbox starts: a typo must fail the daemon's start, not the
// first call.
#include <cstdint>
#include <string>

#include "servers/code_runner/code_runner.h"
#include "servers/code_runner/languages.h"

namespace sbx::servers::code_runner {
namespace {

constexpr std::int64_t kMaxTimeoutMs = 3'600'000;          // an hour
constexpr std::int64_t kMaxOutputBytes = 16 * 1024 * 1024;  // the whole result must cross the gateway
constexpr std::size_t kMaxPathBytes = 1024;
constexpr std::size_t kMaxCommandBytes = 4096;

Error Invalid(const std::string& message) {
  return MakeError(ErrorCode::kInvalidArgument, "code-runner: " + message);
}

Result<std::int64_t> Integer(const Json& value, const char* key, std::int64_t max) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1 || value.get<std::int64_t>() > max)
    return Invalid(std::string(key) + " must be an integer from 1 to " + std::to_string(max));
  return value.get<std::int64_t>();
}

// A command line for /bin/sh: any text a shell takes, but one line of it.
bool IsCommandLine(const std::string& text) {
  return !ProgramOf(text).empty() && text.size() <= kMaxCommandBytes &&
         text.find_first_of(std::string("\0\n\r", 3)) == std::string::npos;
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  Options options;
  if (settings.is_null()) return options;
  if (!settings.is_object()) return Invalid("settings must be a JSON object");
  for (const auto& [key, value] : settings.items()) {
    if (key == "timeout_ms") {
      auto ms = Integer(value, "timeout_ms", kMaxTimeoutMs);
      if (!ms) return ms.error();
      options.timeout = std::chrono::milliseconds(*ms);
    } else if (key == "max_output_bytes") {
      auto bytes = Integer(value, "max_output_bytes", kMaxOutputBytes);
      if (!bytes) return bytes.error();
      options.max_output_bytes = static_cast<std::size_t>(*bytes);
    } else if (key == "temp_dir") {
      if (!value.is_string() || value.get_ref<const std::string&>().empty() ||
          value.get_ref<const std::string&>()[0] != '/' || value.get_ref<const std::string&>().size() > kMaxPathBytes ||
          value.get_ref<const std::string&>().find('\0') != std::string::npos)
        return Invalid("temp_dir must be an absolute path (at most 1024 bytes)");
      options.temp_dir = value.get<std::string>();
    } else if (key == "commands") {
      if (!value.is_object()) return Invalid("commands must be an object of languageId to command line");
      for (const auto& [language, command] : value.items()) {
        if (FindLanguage(language) == nullptr)
          return Invalid("commands: '" + language + "' is not one of the tool's languageIds");
        if (!command.is_string() || !IsCommandLine(command.get_ref<const std::string&>()))
          return Invalid("commands: '" + language +
                         "' must be a non-empty command line (one line, at most 4096 bytes)");
        options.commands[language] = command.get<std::string>();
      }
    } else {
      return Invalid("unknown setting '" + key +
                     "' (known: timeout_ms, max_output_bytes, temp_dir, commands)");
    }
  }
  return options;
}

}  // namespace sbx::servers::code_runner
