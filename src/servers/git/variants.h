// The older releases and the fork of mcp-server-git that benchmarks pin
// (shared/reference/tools/variants/git@<variant>.json), as differences from
// today's upstream: which tools are listed and how (schemas, annotations,
// server version), and the few places where a tool body behaves otherwise
// (Behaviour, read by the bodies through Options::variant).
//
//   ""          today's upstream (2026.7.10)
//   "2025.1.14" 11 tools: no context_lines, no git_branch, plain headers
//   "2025.7.1"  13 tools: + git_init, git_log without timestamps
//   "klavis"    Klavis-AI/klavis mcp_servers/local/git, a copy of 2025.11.25:
//               today's 12 tools without annotations, older checks
//
// Thread-safety: immutable tables.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::servers::git {

// How git_add stages paths other than ["."].
enum class AddMode {
  kChecked,       // today: paths checked inside the work tree, `git add -- …`
  kIndexAdd,      // repo.index.add(files) for every list, ["."] included
  kDotThenIndex,  // ["."] → `git add .`, anything else repo.index.add(files)
};

struct Behaviour {
  // git_diff* pass --unified=<context_lines> (1ac3c1da, 2025.4.8).
  bool context_lines = true;
  // git_log / git_show print hexsha, author and message with repr(), and
  // git_show its date too (c53b5303 / 0ffd7013, 2025.5.12).
  bool repr_headers = true;
  // git_log reads start_timestamp / end_timestamp (09adff0b, 2025.8.25).
  bool timestamps = true;
  // git_diff / git_checkout first check their argument with rev_parse and
  // put no path after it (merge 9e5d5b8e, 2025.12.17).
  bool checked_refs = true;
  // git_show, git_create_branch, git_log and git_branch refuse values
  // starting with '-' (ae40ec23, 2026.3.15).
  bool late_dash_guards = true;
  AddMode add = AddMode::kChecked;
};

// The behaviour of `variant` ("" = today). The name was checked by the
// registry; an unknown one is today's.
const Behaviour& BehaviourOf(const std::string& variant);

// The tool names `variant` lists, in upstream's order.
std::vector<std::string> ToolNames(const std::string& variant);

// The input schema of `tool` as `variant` lists it (pydantic's output for
// that release's model, key order included).
Json VariantInputSchema(const std::string& variant, const std::string& tool);

// Whether `variant` lists annotations and titles (MCP SDK 1.1.0 had neither).
bool HasAnnotations(const std::string& variant);

// The server version in the initialize reply: the MCP SDK's own version.
std::string ServerVersion(const std::string& variant);

}  // namespace sbx::servers::git
