// The tools/list check every server's tests make against its upstream
// capture (shared/reference/tools/<server>.json): one loop, so all servers
// are held to the same rules and a capture's shape is read one way.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::servers::test_support {

// The JSON file at `path`, or nullopt when it is not there (the caller skips:
// the captures live beside the source tree, not in every checkout).
inline std::optional<Json> ReadJsonFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  return Json::parse(f);
}

// What our tools/list must share with upstream's.
struct ToolListRules {
  std::vector<std::string> exact = {};   // keys whose JSON equals upstream's, key order included
  std::vector<std::string> absent = {};  // keys upstream never sends
  bool titled = false;                   // each tool has a non-empty title
  bool described = true;                 // each tool has a non-empty description
};

// `tools` (ours) against `want` (the capture's tools), in order: the same
// names, the `exact` keys alike, the `absent` ones missing, and non-empty
// texts as `rules` ask. Callers wrap it in ASSERT_NO_FATAL_FAILURE.
inline void ExpectToolsMatch(const Json& tools, const Json& want, const ToolListRules& rules) {
  ASSERT_EQ(tools.size(), want.size());
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const Json& ref = want[i];
    EXPECT_EQ(tools[i]["name"], ref["name"]);
    for (const auto& key : rules.exact) EXPECT_EQ(tools[i][key].dump(), ref[key].dump()) << ref["name"] << " " << key;
    for (const auto& key : rules.absent) EXPECT_FALSE(tools[i].contains(key)) << ref["name"] << " " << key;
    if (rules.titled) {
      EXPECT_FALSE(tools[i]["title"].get<std::string>().empty());
    }
    if (rules.described) {
      EXPECT_FALSE(tools[i]["description"].get<std::string>().empty());
    }
  }
}

}  // namespace sbx::servers::test_support
