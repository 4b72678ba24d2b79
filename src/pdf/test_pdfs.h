// Test helper: small PDFs written by hand (one Helvetica text line per
// entry, Letter pages, an optional Info dictionary), and hostile ones, so
// tests need no binary fixture.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace sbx::pdf::testing {

// A PDF literal string's body: `(`, `)` and `\` escaped.
std::string PdfString(const std::string& text);

// The file around numbered objects (object i + 1 is objects[i]): header,
// bodies, the cross-reference table, and a trailer with /Root 1 0 R plus
// `trailer_extra` (e.g. " /Info 4 0 R").
std::string AssemblePdf(const std::vector<std::string>& objects, const std::string& trailer_extra = "");

// One page per element; each page holds its lines top to bottom (ASCII).
std::string MakePdf(const std::vector<std::vector<std::string>>& pages,
                    const std::map<std::string, std::string>& info = {});

}  // namespace sbx::pdf::testing
