// Deployment settings of the localmemory server: which file under /data
// holds the graph, and how large it may grow.
#include <string>
#include <string_view>

#include "servers/localmemory/localmemory.h"

namespace sbx::servers::localmemory {
namespace {

constexpr std::string_view kWorkspace = "/data";
constexpr std::size_t kMaxPathBytes = 4096;
constexpr std::size_t kMaxNameBytes = 255;

Error Invalid(const std::string& message) {
  return MakeError(ErrorCode::kInvalidArgument, "localmemory: " + message);
}

// "/data/a/b.json" or "a/b.json" -> "a/b.json", refusing anything that does
// not name a file strictly below /data by plain names. The kernel confines
// the path again at every call (memory_file.cc); this check is for the
// deployment's benefit: a typo fails at startup, not on the first call.
Result<std::string> RelativeMemoryPath(const std::string& given) {
  const std::string shown = "memory_file_path \"" + given + "\"";
  if (given.empty()) return Invalid("memory_file_path must not be empty");
  if (given.size() > kMaxPathBytes) return Invalid("memory_file_path is longer than 4096 bytes");
  if (given.find('\0') != std::string::npos)
    return Invalid("memory_file_path must not contain NUL bytes");
  std::string_view rest = given;
  if (rest.front() == '/') {
    if (rest.substr(0, kWorkspace.size()) != kWorkspace || rest.size() <= kWorkspace.size() ||
        rest[kWorkspace.size()] != '/')
      return Invalid(shown +
                     " must lie inside the workspace /data (absolute, or relative to /data)");
    rest.remove_prefix(kWorkspace.size() + 1);
  }
  if (rest.empty() || rest.back() == '/')
    return Invalid(shown + " must name a file, not a directory");
  std::string out;
  while (!rest.empty()) {
    std::size_t slash = rest.find('/');
    std::string_view name = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (name.empty()) return Invalid(shown + " has an empty component (\"//\")");
    if (name == "." || name == "..")
      return Invalid(shown + " must not contain \".\" or \"..\" components");
    if (name.size() > kMaxNameBytes)
      return Invalid(shown + " has a component longer than 255 bytes");
    if (!out.empty()) out += '/';
    out += name;
  }
  return out;
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  Options options;
  if (settings.is_null()) return options;
  if (!settings.is_object()) return Invalid("settings must be a JSON object");
  for (const auto& [key, value] : settings.items()) {
    if (key == "memory_file_path") {
      if (!value.is_string()) return Invalid("memory_file_path must be a string");
      auto rel = RelativeMemoryPath(value.get<std::string>());
      if (!rel) return rel.error();
      options.memory_file = *rel;
    } else if (key == "max_file_bytes") {
      if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
          value.get<std::uint64_t>() > kMaxMaxFileBytes)
        return Invalid("max_file_bytes must be an integer from 1 to " +
                       std::to_string(kMaxMaxFileBytes));
      options.max_file_bytes = value.get<std::uint64_t>();
    } else {
      return Invalid("unknown setting \"" + key + "\" (known: memory_file_path, max_file_bytes)");
    }
  }
  return options;
}

}  // namespace sbx::servers::localmemory
