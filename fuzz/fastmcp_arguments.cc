// python_text/fastmcp_arguments checks every tools/call of the FastMCP
// servers (pdf_tools, excel). Any bytes as a call's arguments, against a
// schema holding every shape FastMCP derives: an answer, never a crash;
// an error is FastMCP's text; accepted values are canonical (checking
// them again accepts them unchanged) and name only the schema's fields.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "python_text/fastmcp_arguments.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

const sbx::Json& Schema() {
  static const sbx::Json schema = sbx::Json::parse(R"({
    "properties": {
      "name": {"title": "Name", "type": "string"},
      "count": {"default": 1, "title": "Count", "type": "integer"},
      "flag": {"default": false, "title": "Flag", "type": "boolean"},
      "ratio": {"default": 0.5, "title": "Ratio", "type": "number"},
      "tags": {"default": [], "items": {"type": "string"}, "title": "Tags", "type": "array"},
      "pages": {"default": [], "items": {"type": "integer"}, "title": "Pages", "type": "array"},
      "data": {"items": {"items": {}, "type": "array"}, "title": "Data", "type": "array"},
      "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "title": "Limit"},
      "cols": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null,
               "title": "Cols"},
      "extra": {"additionalProperties": true, "default": {}, "title": "Extra", "type": "object"},
      "more": {"anyOf": [{"additionalProperties": true, "type": "object"}, {"type": "null"}], "default": null}
    },
    "required": ["name", "data"],
    "title": "fuzzArguments",
    "type": "object"
  })");
  return schema;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  sbx::Json args = sbx::Json::parse(bytes, nullptr, false);
  if (args.is_discarded()) return 0;
  auto out = sbx::py::ValidateFastMcpArguments("fuzz", Schema(), args, "2.11");
  if (out.error) {
    Check(out.error->starts_with("Error executing tool fuzz: "));
    Check(out.values.empty());
    return 0;
  }
  for (const auto& [key, value] : out.values.items()) Check(Schema()["properties"].contains(key));
  auto again = sbx::py::ValidateFastMcpArguments("fuzz", Schema(), out.values, "2.11");
  // Compared as text: a NaN (from "nan") is not equal to itself.
  Check(!again.error && again.values.dump() == out.values.dump());
  return 0;
}
