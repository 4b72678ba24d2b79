// What the sandbox-pdf helper does with a PDF from the workspace (any tool
// can write one): poppler's text, metadata and search, qpdf's merge and
// page extraction, each with the helper's own output bounds. Every command
// must answer with its fields or an error object; a crash here is a crash
// of the helper, which the agent survives, but is still a finding.
// (RLIMIT_AS cannot be set under ASan: libFuzzer's -rss_limit_mb plays it.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "pdf/commands.h"

namespace {

void Check(const sbx::Json& reply) {
  if (!reply.is_object() || reply.empty()) std::abort();
  if (reply.contains("error") && !reply["error"].is_string()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string pdf(reinterpret_cast<const char*>(data), size);
  const sbx::pdf::TextBounds bounds{1u << 20};
  Check(sbx::pdf::PageTexts(pdf, 1, 50, bounds));
  Check(sbx::pdf::Info(pdf));
  Check(sbx::pdf::Search(pdf, "a.|[0-9]+", 100, 1000, bounds));
  std::string out;
  Check(sbx::pdf::Extract(pdf, {2, 1, 2}, out));
  Check(sbx::pdf::Merge({pdf, pdf}, out));
  return 0;
}
