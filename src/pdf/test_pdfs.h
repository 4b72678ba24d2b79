// Test helper: small PDFs written by hand (one Helvetica text line per
// entry, Letter pages, an optional Info dictionary), and hostile ones, so
// tests need no binary fixture.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace sbx::pdf::testing {

// One page per element; each page holds its lines top to bottom (ASCII).
std::string MakePdf(const std::vector<std::vector<std::string>>& pages,
                    const std::map<std::string, std::string>& info = {});

}  // namespace sbx::pdf::testing
