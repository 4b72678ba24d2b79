// PDF → markdown for download_paper (upstream uses pymupdf4llm). The
// conversion itself (src/pdf/markdown.h) runs in the sandbox-pdf helper
// process, so poppler stays out of the agent and a hostile store PDF can
// only end the helper; this is the call into it, with the same bounds and
// error texts the in-process conversion had.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/result.h"

namespace sbx::servers::arxiv {

struct PdfLimits {
  int max_pages = 2000;
  std::uint64_t max_output_bytes = 8ull << 20;
};

// kInvalidArgument for a damaged, locked or over-long PDF, kTooLarge when
// the text exceeds the output bound, kUnavailable when cancelled or when the
// helper was stopped (time, memory) or crashed.
Result<std::string> PdfToMarkdown(const std::string& pdf, const PdfLimits& limits,
                                  const std::function<bool()>& cancelled);

}  // namespace sbx::servers::arxiv
