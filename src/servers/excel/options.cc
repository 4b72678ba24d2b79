// Deployment settings of the excel server: the bounds on the workbooks it
// will open. The workspace is always /data inside the jail.
#include <string>

#include "servers/excel/excel.h"

namespace sbx::servers::excel {
namespace {

Error Invalid(const std::string& message) { return MakeError(ErrorCode::kInvalidArgument, "excel: " + message); }

// An integer setting within [1, max]; `out` untouched on failure.
Status ReadBound(const Json& value, const std::string& key, std::uint64_t max, std::uint64_t& out) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1 || value.get<std::uint64_t>() > max)
    return Invalid(key + " must be an integer from 1 to " + std::to_string(max));
  out = value.get<std::uint64_t>();
  return Ok();
}

}  // namespace

Result<Options> OptionsFromSettings(const Json& settings) {
  Options options;
  if (settings.is_null()) return options;
  if (!settings.is_object()) return Invalid("settings must be a JSON object");
  for (const auto& [key, value] : settings.items()) {
    Status status = Ok();
    if (key == "max_file_bytes")
      status = ReadBound(value, key, kMaxMaxFileBytes, options.max_file_bytes);
    else if (key == "max_cells")
      status = ReadBound(value, key, kMaxMaxCells, options.max_cells);
    else if (key == "max_unzipped_bytes")
      status = ReadBound(value, key, kMaxMaxUnzippedBytes, options.max_unzipped_bytes);
    else
      return Invalid("unknown setting \"" + key + "\" (known: max_file_bytes, max_cells, max_unzipped_bytes)");
    if (!status) return status.error();
  }
  return options;
}

}  // namespace sbx::servers::excel
