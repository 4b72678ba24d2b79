// Registration of the tools: schemas from tool_schemas (and variants for
// the pinned releases), bodies from tools_inspect / tools_change / init,
// titles and descriptions our own.
#include <functional>

#include "servers/git/failure.h"
#include "servers/git/git.h"
#include "servers/git/repository.h"
#include "servers/git/tool_schemas.h"
#include "servers/git/tools_internal.h"
#include "servers/git/variants.h"

namespace sbx::servers::git {
namespace {

using Body = std::string (*)(Repository&, const Json&);

struct Spec {
  const char* name;
  const char* title;
  const char* description;
  Body body;
};

const Spec kTools[] = {
    {"git_status", "Working tree status",
     "Show the working tree status of the repository at repo_path (git status output): the current branch, "
     "staged and unstaged changes and untracked files.",
     tools::Status},
    {"git_diff_unstaged", "Unstaged changes",
     "Show the changes in the working tree that are not staged yet, as a unified diff with context_lines lines "
     "of context (default 3).",
     tools::DiffUnstaged},
    {"git_diff_staged", "Staged changes",
     "Show the changes staged for the next commit (index against HEAD), as a unified diff with context_lines "
     "lines of context (default 3).",
     tools::DiffStaged},
    {"git_diff", "Diff against a revision",
     "Show the differences between the working tree and target (a branch, tag or commit), as a unified diff "
     "with context_lines lines of context (default 3).",
     tools::Diff},
    {"git_commit", "Commit staged changes",
     "Record the staged changes as a new commit with the given message on the current branch; returns the new "
     "commit's hash.",
     tools::Commit},
    {"git_add", "Stage files",
     "Stage the given files (paths relative to the repository, or absolute inside it) for the next commit; "
     "[\".\"] stages every change.",
     tools::Add},
    {"git_reset", "Unstage everything",
     "Unstage all staged changes (the index is reset to HEAD); the working tree is left as it is.",
     tools::Reset},
    {"git_log", "Commit history",
     "List the most recent commits (max_count, default 10) with hash, author, date and message. "
     "start_timestamp / end_timestamp restrict them by date: ISO 8601 ('2024-01-15T14:30:25'), relative "
     "('2 weeks ago', 'yesterday') or absolute ('2024-01-15', 'Jan 15 2024').",
     tools::Log},
    {"git_create_branch", "Create a branch",
     "Create a new branch named branch_name pointing at base_branch (default: the current branch). The current "
     "branch does not change.",
     tools::CreateBranch},
    {"git_checkout", "Switch branches",
     "Switch the working tree to branch_name (a branch, or any revision, which detaches HEAD).",
     tools::Checkout},
    {"git_show", "Show a commit",
     "Show a commit (revision: a hash, branch, tag or expression like HEAD~2): its hash, author, date and "
     "message, then the patch of each file it changed.",
     tools::Show},
    {"git_branch", "List branches",
     "List branches: branch_type 'local', 'remote' or 'all'; contains / not_contains keep only branches that "
     "do / do not contain that commit (leave them out otherwise).",
     tools::Branch},
    // 2025.7.1 only; runs before any repository is opened (tools::Init).
    {"git_init", "Create a repository",
     "Create an empty git repository at repo_path (its directories are made as needed; an existing repository "
     "is reinitialised).",
     nullptr},
};

const Spec& SpecOf(const std::string& name) {
  for (const Spec& spec : kTools)
    if (name == spec.name) return spec;
  return kTools[0];  // unreachable: ToolNames lists names of kTools only
}

}  // namespace

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options) {
  std::vector<mcp::Tool> tools;
  const std::string& variant = options.variant;
  for (const std::string& name : ToolNames(variant)) {
    const Spec& spec = SpecOf(name);
    mcp::Tool t;
    t.name = spec.name;
    t.description = spec.description;
    t.input_schema = VariantInputSchema(variant, spec.name);
    // The releases on MCP SDK 1.1.0 list neither titles nor annotations.
    if (HasAnnotations(variant)) {
      t.title = spec.title;
      t.annotations = Annotations(spec.name);
    }
    Body body = spec.body;
    t.handler = [options, body](const Json& args, const mcp::ToolContext& ctx) {
      try {
        const std::string repo_path = args.at("repo_path").get<std::string>();
        auto cancelled = [&ctx] { return ctx.cancelled(); };
        if (!body) return mcp::ToolResult::Text(tools::Init(options, repo_path, cancelled));
        // call_tool: the repository is opened (and confined) before any tool runs.
        Repository repo(options, repo_path, cancelled);
        return mcp::ToolResult::Text(body(repo, args));
      } catch (const ToolFailure& failure) {
        return mcp::ToolResult::Error(failure.message);
      }
    };
    tools.push_back(std::move(t));
  }
  // upstream: Server("mcp-git"); the Python SDK reports its own version
  // (mcp 1.28.1 in upstream's uv.lock) as the server version.
  auto server = std::make_shared<mcp::ServerDefinition>(mcp::ServerInfo{"mcp-git", ServerVersion(variant), "", ""},
                                                       std::move(tools));
  // The Python SDK's low-level Server advertises what has handlers, with
  // an empty experimental object first and listChanged spelled out.
  server->SetCapabilities(Json{{"experimental", Json::object()}, {"tools", Json{{"listChanged", false}}}});
  return server;
}

}  // namespace sbx::servers::git
