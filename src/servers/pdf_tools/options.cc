// Deployment settings of the pdf-tools server: size bounds, the helper's
// bounds, and the search session lifetime.
#include <cstdint>
#include <string>

#include "servers/pdf_tools/pdf_tools.h"

namespace sbx::servers::pdf_tools {
namespace {

Error Invalid(const std::string& message) { return MakeError(ErrorCode::kInvalidArgument, "pdf-tools: " + message); }

bool InRange(const Json& value, std::uint64_t low, std::uint64_t high) {
  return value.is_number_integer() && value.get<std::int64_t>() >= 0 && value.get<std::uint64_t>() >= low &&
         value.get<std::uint64_t>() <= high;
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  Options options;
  if (settings.is_null()) return options;
  if (!settings.is_object()) return Invalid("settings must be a JSON object");
  struct Key {
    const char* name;
    std::uint64_t low, high;
    std::uint64_t* u64;
    int* i32;
  };
  const Key keys[] = {
      {"max_file_bytes", 1, 1ull << 30, &options.max_file_bytes, nullptr},
      {"helper_memory_bytes", 64ull << 20, 16ull << 30, &options.helper_memory_bytes, nullptr},
      {"helper_cpu_seconds", 1, 600, nullptr, &options.helper_cpu_seconds},
      {"helper_timeout_seconds", 1, 600, nullptr, &options.helper_timeout_seconds},
      {"max_text_bytes", 1024, 8ull << 20, &options.max_text_bytes, nullptr},
      {"search_ttl_seconds", 1, 86400, nullptr, &options.search_ttl_seconds},
  };
  for (const auto& [name, value] : settings.items()) {
    const Key* key = nullptr;
    for (const Key& k : keys)
      if (name == k.name) key = &k;
    if (key == nullptr)
      return Invalid("unknown setting \"" + name +
                     "\" (known: max_file_bytes, helper_memory_bytes, helper_cpu_seconds, helper_timeout_seconds, "
                     "max_text_bytes, search_ttl_seconds)");
    if (!InRange(value, key->low, key->high))
      return Invalid(name + " must be an integer from " + std::to_string(key->low) + " to " +
                     std::to_string(key->high));
    if (key->u64) *key->u64 = value.get<std::uint64_t>();
    else *key->i32 = value.get<int>();
  }
  return options;
}

pdf::Limits HelperLimits(const Options& options) {
  pdf::Limits limits;
  limits.memory_bytes = options.helper_memory_bytes;
  limits.cpu_seconds = options.helper_cpu_seconds;
  limits.timeout = std::chrono::seconds(options.helper_timeout_seconds);
  limits.max_input_bytes = options.max_file_bytes;
  limits.max_output_bytes = std::max(options.max_text_bytes, options.max_file_bytes);
  return limits;
}

}  // namespace sbx::servers::pdf_tools
