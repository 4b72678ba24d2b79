// OptionsFromSettings: the deployment's settings for the arxiv server.
#include <string>

#include "servers/arxiv/arxiv.h"
#include "servers/arxiv/server_state.h"

namespace sbx::servers::arxiv {
namespace {

Error Bad(const std::string& message) { return MakeError(ErrorCode::kInvalidArgument, "arxiv: " + message); }

Result<std::uint64_t> PositiveInteger(const Json& value, const std::string& key, std::uint64_t max) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
      value.get<std::uint64_t>() > max)
    return Bad("\"" + key + "\" must be an integer from 1 to " + std::to_string(max));
  return value.get<std::uint64_t>();
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  if (!settings.is_object()) return Bad("settings must be a JSON object");
  Options o;
  for (const auto& [key, value] : settings.items()) {
    if (key == "store_dir") {
      if (!value.is_string() || !value.get<std::string>().starts_with('/'))
        return Bad("\"store_dir\" must be an absolute path");
      o.store_dir = value.get<std::string>();
    } else if (key == "storage_path") {
      if (!value.is_string()) return Bad("\"storage_path\" must be a string");
      auto rel = StorageRelativeDir(o.workspace, value.get<std::string>());
      if (!rel) return Bad(rel.error().message);
      o.storage_path = value.get<std::string>();
    } else if (key == "max_pdf_bytes") {
      auto v = PositiveInteger(value, key, 1ull << 32);
      if (!v) return v.error();
      o.max_pdf_bytes = *v;
    } else if (key == "max_pdf_pages") {
      auto v = PositiveInteger(value, key, 100'000);
      if (!v) return v.error();
      o.max_pdf_pages = static_cast<int>(*v);
    } else if (key == "max_markdown_bytes") {
      auto v = PositiveInteger(value, key, 8ull << 20);
      if (!v) return v.error();
      o.max_markdown_bytes = *v;
    } else if (key == "live_api") {
      if (!value.is_boolean()) return Bad("\"live_api\" must be a boolean");
      if (value.get<bool>())
        return Bad("\"live_api\": true is not supported: this build serves papers from the paper store only "
                   "(the jail has no network)");
    } else {
      return Bad("unknown setting \"" + key + "\" (known: store_dir, storage_path, max_pdf_bytes, "
                 "max_pdf_pages, max_markdown_bytes, live_api)");
    }
  }
  return o;
}

}  // namespace sbx::servers::arxiv
