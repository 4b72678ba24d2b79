// Built from the few shapes upstream's zod schemas turn into (draft-07 via
// the TypeScript SDK), so each shape is written once.
#include "servers/localmemory/tool_schemas.h"

#include <initializer_list>
#include <utility>

namespace sbx::servers::localmemory {
namespace {

using Props = std::initializer_list<std::pair<const char*, Json>>;
using Names = std::initializer_list<const char*>;

Json Type(const char* type) { return Json{{"type", type}}; }
Json ArrayOf(Json items) { return Json{{"type", "array"}, {"items", std::move(items)}}; }

// An object schema; `closed` adds additionalProperties:false, which the SDK
// writes for output schemas only.
Json Object(Props properties, Names required, bool closed, bool top_level) {
  Json out = Json::object();
  if (top_level) out["$schema"] = "http://json-schema.org/draft-07/schema#";
  out["type"] = "object";
  Json props = Json::object();
  for (const auto& [name, schema] : properties) props[name] = schema;
  out["properties"] = std::move(props);
  if (required.size() > 0) {
    Json names = Json::array();
    for (const char* r : required) names.push_back(r);
    out["required"] = std::move(names);
  }
  if (closed) out["additionalProperties"] = false;
  return out;
}

Json Input(Props properties, Names required) { return Object(properties, required, false, true); }
Json Output(Props properties, Names required) { return Object(properties, required, true, true); }

Json EntityShape(bool closed) {
  return Object({{"name", Type("string")},
                 {"entityType", Type("string")},
                 {"observations", ArrayOf(Type("string"))}},
                {"name", "entityType", "observations"}, closed, false);
}
Json RelationShape(bool closed) {
  return Object(
      {{"from", Type("string")}, {"to", Type("string")}, {"relationType", Type("string")}},
      {"from", "to", "relationType"}, closed, false);
}

Json Hints(bool read_only, bool destructive, bool idempotent) {
  return Json{{"readOnlyHint", read_only},
              {"destructiveHint", destructive},
              {"idempotentHint", idempotent},
              {"openWorldHint", false}};
}

Json Entry(Json input, Json output, Json annotations) {
  return Json{{"inputSchema", std::move(input)},
              {"outputSchema", std::move(output)},
              {"annotations", std::move(annotations)}};
}

Json Build() {
  const Json adds = Hints(false, false, false);
  const Json deletes = Hints(false, true, true);
  const Json reads = Hints(true, false, true);
  const Json status =
      Output({{"success", Type("boolean")}, {"message", Type("string")}}, {"success", "message"});
  const Json graph = Output(
      {{"entities", ArrayOf(EntityShape(true))}, {"relations", ArrayOf(RelationShape(true))}},
      {"entities", "relations"});
  const Json relations_in = Input({{"relations", ArrayOf(RelationShape(false))}}, {"relations"});
  const Json names_in_observations =
      Object({{"entityName", Type("string")}, {"contents", ArrayOf(Type("string"))}},
             {"entityName", "contents"}, false, false);
  const Json added_out =
      Object({{"entityName", Type("string")}, {"addedObservations", ArrayOf(Type("string"))}},
             {"entityName", "addedObservations"}, true, false);
  const Json deletion =
      Object({{"entityName", Type("string")}, {"observations", ArrayOf(Type("string"))}},
             {"entityName", "observations"}, false, false);

  Json out = Json::object();
  out["create_entities"] =
      Entry(Input({{"entities", ArrayOf(EntityShape(false))}}, {"entities"}),
            Output({{"entities", ArrayOf(EntityShape(true))}}, {"entities"}), adds);
  out["create_relations"] = Entry(
      relations_in, Output({{"relations", ArrayOf(RelationShape(true))}}, {"relations"}), adds);
  out["add_observations"] =
      Entry(Input({{"observations", ArrayOf(names_in_observations)}}, {"observations"}),
            Output({{"results", ArrayOf(added_out)}}, {"results"}), adds);
  out["delete_entities"] =
      Entry(Input({{"entityNames", ArrayOf(Type("string"))}}, {"entityNames"}), status, deletes);
  out["delete_observations"] =
      Entry(Input({{"deletions", ArrayOf(deletion)}}, {"deletions"}), status, deletes);
  out["delete_relations"] = Entry(relations_in, status, deletes);
  out["read_graph"] = Entry(Input({}, {}), graph, reads);
  out["search_nodes"] = Entry(Input({{"query", Type("string")}}, {"query"}), graph, reads);
  out["open_nodes"] = Entry(Input({{"names", ArrayOf(Type("string"))}}, {"names"}), graph, reads);
  return out;
}

}  // namespace

const Json& ToolSchemas() {
  static const Json schemas = Build();
  return schemas;
}

}  // namespace sbx::servers::localmemory
