#include "servers/git/variants.h"

#include "servers/git/tool_schemas.h"

namespace sbx::servers::git {
namespace {

// Today's tools in upstream's order (tags 2025.11.25 to 2026.7.10).
const std::vector<std::string> kToday = {
    "git_status",        "git_diff_unstaged", "git_diff_staged", "git_diff",
    "git_commit",        "git_add",           "git_reset",       "git_log",
    "git_create_branch", "git_checkout",      "git_show",        "git_branch",
};

}  // namespace

const Behaviour& BehaviourOf(const std::string& variant) {
  static const Behaviour kNow{};
  // Tag 2025.1.14: git_diff* call repo.git.diff without --unified, headers
  // print str() of each field, repo.index.add for every git_add.
  static const Behaviour k2025_1_14{.context_lines = false,
                                    .repr_headers = false,
                                    .timestamps = false,
                                    .checked_refs = false,
                                    .late_dash_guards = false,
                                    .add = AddMode::kIndexAdd};
  // Tag 2025.7.1: context_lines and repr() are in, git_add still index.add.
  static const Behaviour k2025_7_1{.context_lines = true,
                                   .repr_headers = true,
                                   .timestamps = false,
                                   .checked_refs = false,
                                   .late_dash_guards = false,
                                   .add = AddMode::kIndexAdd};
  // Klavis's copy of tag 2025.11.25: git_add's ["."] fix (a67e3b0a) is in,
  // none of December 2025's checks are.
  static const Behaviour kKlavis{.context_lines = true,
                                 .repr_headers = true,
                                 .timestamps = true,
                                 .checked_refs = false,
                                 .late_dash_guards = false,
                                 .add = AddMode::kDotThenIndex};
  if (variant == "2025.1.14") return k2025_1_14;
  if (variant == "2025.7.1") return k2025_7_1;
  if (variant == "klavis") return kKlavis;
  return kNow;
}

std::vector<std::string> ToolNames(const std::string& variant) {
  if (variant == "2025.1.14") return std::vector<std::string>(kToday.begin(), kToday.end() - 1);
  if (variant == "2025.7.1") {
    // git_init (fc32e871) sits before git_branch (1f952310) in its list.
    std::vector<std::string> names(kToday.begin(), kToday.end() - 1);
    names.insert(names.end(), {"git_init", "git_branch"});
    return names;
  }
  return kToday;
}

Json VariantInputSchema(const std::string& variant, const std::string& tool) {
  if (tool == "git_init") {
    // GitInit has only repo_path, like GitStatus.
    Json schema = InputSchema("git_status");
    schema["title"] = "GitInit";
    return schema;
  }
  Json schema = InputSchema(tool);
  if (variant == "2025.1.14" &&
      (tool == "git_diff_unstaged" || tool == "git_diff_staged" || tool == "git_diff"))
    schema["properties"].erase("context_lines");
  // start_timestamp / end_timestamp came with 09adff0b (2025.8.25).
  if ((variant == "2025.1.14" || variant == "2025.7.1") && tool == "git_log") {
    schema["properties"].erase("start_timestamp");
    schema["properties"].erase("end_timestamp");
  }
  return schema;
}

bool HasAnnotations(const std::string& variant) { return variant.empty(); }

std::string ServerVersion(const std::string& variant) {
  // Tags 2025.1.14, 2025.7.1 and 2025.11.25 (uv.lock) and Klavis's uv.lock,
  // which its Dockerfile installs with `uv sync --locked`, pin mcp 1.1.0;
  // Server("mcp-git") reports the SDK's version.
  return variant.empty() ? "1.28.1" : "1.1.0";
}

}  // namespace sbx::servers::git
