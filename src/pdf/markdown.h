// PDF → markdown (arxiv's download_paper), with poppler-cpp (upstream uses
// pymupdf4llm). Poppler gives the words of each page in reading order with
// their boxes; words are joined into lines, lines into paragraphs where the
// vertical gap widens, and lines set clearly larger than the body text (the
// size covering most characters, measured by word box height) become
// headings, "#" for the largest size, "##" for the next, and so on. Each
// page ends with a "-----" rule between blank lines, as pymupdf4llm
// separates pages. The result reads like pymupdf4llm's but is not
// byte-identical to it (no bold or italic marks, for one).
//
// Bounds: the page count and the output size are capped (an error names
// the limit); `cancelled` is polled between pages. Poppler's diagnostics
// are silenced. Runs inside the sandbox-pdf helper only (servers call it
// through client.h), so poppler never enters the agent.
//
// Thread-safety: conversions are serialised (poppler's global state).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/result.h"

namespace sbx::pdf {

struct PdfLimits {
  int max_pages = 2000;
  std::uint64_t max_output_bytes = 8ull << 20;
};

// kInvalidArgument for a damaged, locked or over-long PDF, kTooLarge when
// the text exceeds the output bound, kUnavailable when cancelled.
Result<std::string> PdfToMarkdown(const std::string& pdf, const PdfLimits& limits,
                                  const std::function<bool()>& cancelled);

}  // namespace sbx::pdf
