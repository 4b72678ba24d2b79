// What an MCP server offers besides tools: resources (read, listed, and
// subscribed to where its upstream allows) and prompts. A server that has
// none of them advertises none (initialize's capabilities say only what the
// server answers), and their methods answer "Method not found" there, as the
// upstream SDKs do.
//
// Readers and prompt builders run on a worker thread of the host, like tool
// handlers; they report failures by throwing ProtocolError (the upstreams
// answer a failed resources/read or prompts/get with a JSON-RPC error, not a
// result).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"

namespace sbx::mcp {

struct Resource {
  std::string uri;
  std::string name;
  std::string title;        // optional
  std::string description;  // optional
  std::string mime_type;    // optional
  // The resources/read "contents" array for this resource.
  std::function<Json()> read;

  Json Describe() const;  // the resources/list entry
};

struct ResourceOptions {
  std::vector<Resource> resources;
  bool subscribe = false;     // resources/subscribe and unsubscribe are answered
  bool list_changed = false;  // advertised as the upstream does
};

struct PromptArgument {
  std::string name;
  std::string description;
  std::optional<bool> required;  // absent: not sent
};

struct Prompt {
  std::string name;
  std::string title;  // optional
  std::string description;
  std::vector<PromptArgument> arguments;

  Json Describe() const;  // the prompts/list entry
};

struct PromptOptions {
  std::vector<Prompt> prompts;
  // The prompts/get result for `name` (any name: the upstream's handler
  // decides what an unknown one gets) and `arguments` (an object of strings,
  // or null when the client sent none).
  std::function<Json(const std::string& name, const Json& arguments)> get;
};

}  // namespace sbx::mcp
