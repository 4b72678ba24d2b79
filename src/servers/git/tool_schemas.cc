#include "servers/git/tool_schemas.h"

#include <map>
#include <utility>
#include <vector>

namespace sbx::servers::git {
namespace {

// The few property shapes pydantic produces for these models.
Json StringProperty(const std::string& title) { return Json{{"title", title}, {"type", "string"}}; }
Json IntegerProperty(const std::string& title, int default_value) {
  return Json{{"default", default_value}, {"title", title}, {"type", "integer"}};
}
Json OptionalStringProperty(const std::string& title) {
  return Json{{"anyOf", Json::array({Json{{"type", "string"}}, Json{{"type", "null"}}})},
              {"default", nullptr},
              {"title", title}};
}

Json Model(const std::string& title, std::vector<std::pair<std::string, Json>> properties,
           std::vector<std::string> required) {
  Json props = Json::object();
  for (auto& [name, schema] : properties) props[name] = std::move(schema);
  return Json{{"properties", std::move(props)}, {"required", std::move(required)}, {"title", title}, {"type", "object"}};
}

std::pair<std::string, Json> RepoPath() { return {"repo_path", StringProperty("Repo Path")}; }
std::pair<std::string, Json> ContextLines() { return {"context_lines", IntegerProperty("Context Lines", 3)}; }

const std::map<std::string, Json>& Schemas() {
  static const std::map<std::string, Json> schemas = {
      {"git_status", Model("GitStatus", {RepoPath()}, {"repo_path"})},
      {"git_diff_unstaged", Model("GitDiffUnstaged", {RepoPath(), ContextLines()}, {"repo_path"})},
      {"git_diff_staged", Model("GitDiffStaged", {RepoPath(), ContextLines()}, {"repo_path"})},
      {"git_diff", Model("GitDiff", {RepoPath(), {"target", StringProperty("Target")}, ContextLines()},
                         {"repo_path", "target"})},
      {"git_commit", Model("GitCommit", {RepoPath(), {"message", StringProperty("Message")}}, {"repo_path", "message"})},
      {"git_add", Model("GitAdd",
                        {RepoPath(), {"files", Json{{"items", {{"type", "string"}}}, {"title", "Files"}, {"type", "array"}}}},
                        {"repo_path", "files"})},
      {"git_reset", Model("GitReset", {RepoPath()}, {"repo_path"})},
      {"git_log", Model("GitLog",
                        {RepoPath(), {"max_count", IntegerProperty("Max Count", 10)},
                         {"start_timestamp", OptionalStringProperty("Start Timestamp")},
                         {"end_timestamp", OptionalStringProperty("End Timestamp")}},
                        {"repo_path"})},
      {"git_create_branch", Model("GitCreateBranch",
                                  {RepoPath(), {"branch_name", StringProperty("Branch Name")},
                                   {"base_branch", OptionalStringProperty("Base Branch")}},
                                  {"repo_path", "branch_name"})},
      {"git_checkout", Model("GitCheckout", {RepoPath(), {"branch_name", StringProperty("Branch Name")}},
                             {"repo_path", "branch_name"})},
      {"git_show", Model("GitShow", {RepoPath(), {"revision", StringProperty("Revision")}}, {"repo_path", "revision"})},
      {"git_branch", Model("GitBranch",
                           {RepoPath(), {"branch_type", StringProperty("Branch Type")},
                            {"contains", OptionalStringProperty("Contains")},
                            {"not_contains", OptionalStringProperty("Not Contains")}},
                           {"repo_path", "branch_type"})},
  };
  return schemas;
}

Json Hints(bool read_only, bool destructive, bool idempotent) {
  return Json{{"readOnlyHint", read_only},
              {"destructiveHint", destructive},
              {"idempotentHint", idempotent},
              {"openWorldHint", false}};
}

}  // namespace

Json InputSchema(const std::string& tool) { return Schemas().at(tool); }

Json Annotations(const std::string& tool) {
  static const std::map<std::string, Json> annotations = {
      {"git_status", Hints(true, false, true)},        {"git_diff_unstaged", Hints(true, false, true)},
      {"git_diff_staged", Hints(true, false, true)},   {"git_diff", Hints(true, false, true)},
      {"git_commit", Hints(false, false, false)},      {"git_add", Hints(false, false, true)},
      {"git_reset", Hints(false, true, true)},         {"git_log", Hints(true, false, true)},
      {"git_create_branch", Hints(false, false, false)}, {"git_checkout", Hints(false, false, false)},
      {"git_show", Hints(true, false, true)},          {"git_branch", Hints(true, false, true)},
  };
  return annotations.at(tool);
}

}  // namespace sbx::servers::git
