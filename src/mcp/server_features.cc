// resources/* and prompts/* of a Session (server.h), for servers that have
// them. Their upstreams differ in SDK: the one upstream with resources
// (server-memory) is a TypeScript SDK server, the one with prompts (arxiv) a
// Python SDK server, and the invalid-parameter answers below follow each.
#include <algorithm>

#include "mcp/jsonrpc.h"
#include "mcp/server.h"

namespace sbx::mcp {
namespace {

// zod's name for the type of what arrived (JavaScript's view of JSON).
std::string ZodTypeName(const Json* value) {
  if (value == nullptr) return "undefined";
  if (value->is_null()) return "null";
  if (value->is_boolean()) return "boolean";
  if (value->is_number()) return "number";
  if (value->is_array()) return "array";
  if (value->is_object()) return "object";
  return "string";
}

// The TypeScript SDK parses a request's params with zod inside its handler,
// so a bad `uri` comes back as an internal error whose message is zod's issue
// list, indented (JSON.stringify(issues, null, 2)).
std::optional<Json> ZodUriError(const Json& id, const Json& params) {
  auto uri = params.find("uri");
  const Json* value = uri == params.end() ? nullptr : &*uri;
  if (value != nullptr && value->is_string()) return std::nullopt;
  Json issue{{"expected", "string"},
             {"code", "invalid_type"},
             {"path", Json::array({"params", "uri"})},
             {"message", "Invalid input: expected string, received " + ZodTypeName(value)}};
  return ErrorMessage(id, kInternalError, Json::array({issue}).dump(2));
}

}  // namespace

const Resource* ServerDefinition::FindResource(std::string_view uri) const {
  if (!resources_) return nullptr;
  for (const auto& r : resources_->resources)
    if (r.uri == uri) return &r;
  return nullptr;
}

Json ServerDefinition::Capabilities() const {
  if (!capabilities_.is_null()) return capabilities_;
  Json caps{{"tools", Json{{"listChanged", true}}}};
  if (resources_) {
    Json r = Json::object();
    if (resources_->list_changed) r["listChanged"] = true;
    if (resources_->subscribe) r["subscribe"] = true;
    caps["resources"] = std::move(r);
  }
  if (prompts_) caps["prompts"] = Json{{"listChanged", false}};
  return caps;
}

Session::Outcome Session::Deferred(const Json& id, std::function<Json()> work) {
  auto call = std::make_shared<ToolCall>();
  call->session_ = shared_from_this();
  call->id_ = id;
  call->work_ = std::move(work);
  call->cancelled_ = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard lock(mu_);
    in_flight_[id.dump()] = call->cancelled_;
  }
  return {std::nullopt, call};
}

std::optional<Session::Outcome> Session::HandleFeature(const std::string& method, const Json& id,
                                                       const Json& params) {
  const auto& resources = server_->resources();
  if (resources) {
    if (method == "resources/list") {
      Json list = Json::array();
      for (const auto& r : resources->resources) list.push_back(r.Describe());
      return Outcome{ResultMessage(id, Json{{"resources", std::move(list)}}), nullptr};
    }
    if (method == "resources/templates/list")
      return Outcome{ResultMessage(id, Json{{"resourceTemplates", Json::array()}}), nullptr};
    if (method == "resources/read") {
      if (auto bad = ZodUriError(id, params)) return Outcome{std::move(*bad), nullptr};
      const std::string uri = params["uri"].get<std::string>();
      const Resource* resource = server_->FindResource(uri);
      if (resource == nullptr)
        return Outcome{ErrorMessage(id, kInvalidParams, "MCP error -32602: Resource " + uri + " not found"), nullptr};
      return Deferred(id, [resource] { return Json{{"contents", resource->read()}}; });
    }
    if (resources->subscribe && (method == "resources/subscribe" || method == "resources/unsubscribe")) {
      if (auto bad = ZodUriError(id, params)) return Outcome{std::move(*bad), nullptr};
      // Any URI is taken, as upstream takes it (it only ever notifies its own).
      std::lock_guard lock(mu_);
      if (method == "resources/subscribe") subscriptions_.insert(params["uri"].get<std::string>());
      else subscriptions_.erase(params["uri"].get<std::string>());
      return Outcome{ResultMessage(id, Json::object()), nullptr};
    }
  }
  const auto& prompts = server_->prompts();
  if (prompts) {
    if (method == "prompts/list") {
      Json list = Json::array();
      for (const auto& p : prompts->prompts) list.push_back(p.Describe());
      return Outcome{ResultMessage(id, Json{{"prompts", std::move(list)}}), nullptr};
    }
    if (method == "prompts/get") {
      // The Python SDK validates the request model before any handler runs.
      auto name = params.find("name");
      auto args = params.find("arguments");
      bool args_ok = args == params.end() || args->is_null() ||
                     (args->is_object() && std::all_of(args->begin(), args->end(),
                                                       [](const Json& v) { return v.is_string(); }));
      if (name == params.end() || !name->is_string() || !args_ok)
        return Outcome{ErrorMessage(id, kInvalidParams, "Invalid request parameters", ""), nullptr};
      Json arguments = args == params.end() ? Json() : *args;
      return Deferred(id, [get = prompts->get, name = name->get<std::string>(), arguments] {
        return get(name, arguments);
      });
    }
  }
  return std::nullopt;
}

}  // namespace sbx::mcp
