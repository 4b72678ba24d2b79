// core/json_text writes every MCP reply. Differential: for any JSON value,
// and for any bytes as a string (invalid UTF-8 included), its text must be
// byte for byte what nlohmann's dump writes (with the replace handler).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/json_text.h"
#include "core/utf8.h"

namespace {

constexpr auto kReplace = sbx::Json::error_handler_t::replace;

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string out;
  sbx::AppendJsonString(out, bytes);
  Check(out == sbx::Json(std::string(bytes)).dump(-1, ' ', false, kReplace));
  // The well-formedness check agrees with nlohmann's strict dump.
  bool strict_ok = true;
  try {
    (void)sbx::Json(std::string(bytes)).dump();
  } catch (const sbx::Json::exception&) {
    strict_ok = false;
  }
  Check(sbx::utf8::IsWellFormed(bytes) == strict_ok);

  sbx::Json value = sbx::Json::parse(bytes, nullptr, false);
  if (value.is_discarded()) return 0;
  out.clear();
  sbx::AppendJson(out, value);
  Check(out == value.dump(-1, ' ', false, kReplace));
  out.clear();
  sbx::AppendJsonIndented(out, value, 2);
  Check(out == value.dump(2, ' ', false, kReplace));
  return 0;
}
