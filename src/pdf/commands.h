// The helper's commands over PDF bytes in memory (protocol.h describes
// them): poppler-cpp for text and metadata, qpdf for page surgery. Only the
// sandbox-pdf helper and the fuzz target link this.
//
// Each returns the JSON object the helper prints: the command's fields, or
// {"error", "code"} for a file it cannot use. Hostile input may still
// exhaust the helper's rlimits; that is what the helper process is for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::pdf {

struct TextBounds {
  std::uint64_t max_output_bytes = 8ull << 20;
};

Json PageTexts(const std::string& pdf, long long first, long long last, const TextBounds& bounds);
Json Info(const std::string& pdf);
// `output` receives the written PDF (empty on error).
Json Merge(const std::vector<std::string>& pdfs, std::string& output);
Json Extract(const std::string& pdf, const std::vector<long long>& pages, std::string& output);
// Every match of `pattern` (Python's re syntax through PCRE2, ignoring case,
// ^ and $ at line ends, Unicode classes: re.IGNORECASE | re.MULTILINE, see
// python_regex.h) on each page, with up to `context` code points either side: {"page_count", "matches": [[page, text, before,
// after], …]}. An invalid pattern has no matches (upstream catches
// re.error the same way); more than `max_matches` is a too_large error.
Json Search(const std::string& pdf, const std::string& pattern, std::size_t context, std::size_t max_matches,
            const TextBounds& bounds);
Json Markdown(const std::string& pdf, int max_pages, std::uint64_t max_output_bytes);

// The one text for a file poppler or qpdf cannot read: their own messages
// vary with the damage, and tool results should not.
inline constexpr const char* kUnreadablePdf = "the file is not a readable PDF (damaged, truncated or another format)";

// The error object of protocol.h.
Json ErrorReply(const std::string& message, const char* code = "invalid_argument");

}  // namespace sbx::pdf
