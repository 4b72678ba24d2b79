// The 9 tools: schemas from tool_schemas.cc, our own titles and
// descriptions, handlers that load the graph from the memory file, apply
// upstream's operation and (for mutations) write the file back, all under
// one mutex so concurrent mutations never lose each other's updates.
//
// Failures are returned as error results rather than thrown: an entity
// name may hold a NUL byte, which an exception's what() would cut off.
#include <memory>
#include <mutex>

#include "core/json_text.h"

#include "servers/localmemory/graph_file.h"
#include "servers/localmemory/knowledge_graph.h"
#include "servers/localmemory/localmemory.h"
#include "servers/localmemory/memory_file.h"
#include "servers/localmemory/tool_schemas.h"
#include "servers/localmemory/variants.h"

namespace sbx::servers::localmemory {
namespace {

using mcp::Tool;
using mcp::ToolContext;

constexpr const char* kGraphUri = "memory://knowledge-graph";
using mcp::ToolResult;

// What every call of one server shares.
struct Store {
  explicit Store(const Options& o) : file(o.workspace, o.memory_file, o.max_file_bytes) {}
  MemoryFile file;
  std::mutex mutation;  // held from load to save of every mutating call

  // The last file content parsed, and its graph. The file is still read on
  // every call (another server may have changed it); only an identical
  // content skips the parse, so no timestamp can make it stale.
  std::mutex parsed_mu;
  std::string parsed_bytes;
  std::shared_ptr<const KnowledgeGraph> parsed;

  void Remember(std::string bytes, std::shared_ptr<const KnowledgeGraph> graph) {
    std::lock_guard lock(parsed_mu);
    parsed_bytes = std::move(bytes);
    parsed = std::move(graph);
  }
};

// ---------------------------------------------------------------- arguments
// The core has validated the arguments against the input schema; keys the
// schema does not name are ignored, as zod strips them upstream.

const Json& Field(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string StringField(const Json& object, const char* key) {
  const Json& v = Field(object, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::vector<std::string> Strings(const Json& array) {
  std::vector<std::string> out;
  if (!array.is_array()) return out;
  for (const auto& v : array)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

template <class T, class Fn>
std::vector<T> Items(const Json& args, const char* key, Fn convert) {
  std::vector<T> out;
  const Json& array = Field(args, key);
  if (array.is_array())
    for (const auto& item : array) out.push_back(convert(item));
  return out;
}

Entity EntityArg(const Json& j) {
  return {StringField(j, "name"), StringField(j, "entityType"), Strings(Field(j, "observations"))};
}
Relation RelationArg(const Json& j) {
  return {StringField(j, "from"), StringField(j, "to"), StringField(j, "relationType")};
}
ObservationAddition AdditionArg(const Json& j) {
  return {StringField(j, "entityName"), Strings(Field(j, "contents"))};
}
ObservationDeletion DeletionArg(const Json& j) {
  return {StringField(j, "entityName"), Strings(Field(j, "observations"))};
}

// ---------------------------------------------------------------- results

std::string Indented(const Json& value) {
  std::string text;
  AppendJsonIndented(text, value, 2);
  return text;
}

// Upstream: text JSON.stringify(value, null, 2), structuredContent {key: value}.
ToolResult JsonResult(Json value, const char* key) {
  ToolResult r = ToolResult::Text(Indented(value));
  r.structured = Json{{key, std::move(value)}};
  return r;
}

ToolResult GraphResult(const KnowledgeGraph& graph) {
  Json value = ToJson(graph);
  ToolResult r = ToolResult::Text(Indented(value));
  r.structured = std::move(value);
  return r;
}

ToolResult DoneResult(const char* message) {
  ToolResult r = ToolResult::Text(message);
  r.structured = Json{{"success", true}, {"message", message}};
  return r;
}

// ---------------------------------------------------------------- file

Result<std::shared_ptr<const KnowledgeGraph>> Load(Store& store) {
  auto bytes = store.file.Read();
  if (!bytes) return bytes.error();
  if (!*bytes) return std::make_shared<const KnowledgeGraph>();
  {
    std::lock_guard lock(store.parsed_mu);
    if (store.parsed && store.parsed_bytes == **bytes) return store.parsed;
  }
  auto graph = ParseGraphFile(**bytes, store.file.shown_path());
  if (!graph) return graph.error();
  auto parsed = std::make_shared<const KnowledgeGraph>(*std::move(graph));
  store.Remember(std::move(**bytes), parsed);
  return parsed;
}

// Load, change, save under the mutation lock. `change` returns the result
// to send, or an error that leaves the file as it was.
template <class Change>
ToolResult Mutate(Store& store, Change change) {
  std::lock_guard lock(store.mutation);
  auto loaded = Load(store);
  if (!loaded) return ToolResult::Error(loaded.error().message);
  auto graph = std::make_shared<KnowledgeGraph>(**loaded);
  Result<ToolResult> result = change(*graph);
  if (!result) return ToolResult::Error(result.error().message);
  // Upstream rewrites the file after every mutation, changed or not.
  std::string bytes = SerializeGraph(*graph);
  if (auto saved = store.file.Write(bytes); !saved)
    return ToolResult::Error(saved.error().message);
  store.Remember(std::move(bytes), std::move(graph));
  return *std::move(result);
}

template <class Query>
ToolResult Inspect(Store& store, Query query) {
  auto graph = Load(store);
  if (!graph) return ToolResult::Error(graph.error().message);
  return GraphResult(query(**graph));
}

// ---------------------------------------------------------------- tools

using Handler = std::function<ToolResult(Store&, const Json&)>;

Tool MakeTool(const std::shared_ptr<Store>& store, const char* name, const char* title,
              const char* description, Handler handler) {
  const Json& schemas = ToolSchemas().at(name);
  Tool tool;
  tool.name = name;
  tool.title = title;
  tool.description = description;
  tool.input_schema = schemas.at("inputSchema");
  tool.output_schema = schemas.at("outputSchema");
  tool.annotations = schemas.at("annotations");
  // As upstream: every change that went through tells the subscribers of the
  // graph resource (a failed change, which wrote nothing, does not).
  const bool changes_graph = !tool.annotations.value("readOnlyHint", false);
  tool.handler = [store, handler = std::move(handler), changes_graph](const Json& args, const ToolContext& context) {
    ToolResult result = handler(*store, args);
    if (changes_graph && !result.is_error) context.ResourceChanged(kGraphUri);
    return result;
  };
  return tool;
}

std::vector<Tool> Tools(const std::shared_ptr<Store>& s) {
  std::vector<Tool> tools;
  tools.push_back(MakeTool(s, "create_entities", "Create entities",
                           "Add entities (each a name, an entity type and a list of observations) "
                           "to the knowledge graph. An entity "
                           "whose name is already in the graph is left out; the result lists the "
                           "entities actually added.",
                           [](Store& st, const Json& a) {
                             auto input = Items<Entity>(a, "entities", EntityArg);
                             return Mutate(st, [&](KnowledgeGraph& g) -> Result<ToolResult> {
                               return JsonResult(ToJsonArray(CreateEntities(g, input)), "entities");
                             });
                           }));
  tools.push_back(MakeTool(s, "create_relations", "Create relations",
                           "Add directed relations (from, to, relationType) between entities of "
                           "the knowledge graph; phrase the "
                           "relation type in the active voice (\"works_at\"). A relation already "
                           "present is left out; the result "
                           "lists the relations actually added.",
                           [](Store& st, const Json& a) {
                             auto input = Items<Relation>(a, "relations", RelationArg);
                             return Mutate(st, [&](KnowledgeGraph& g) -> Result<ToolResult> {
                               return JsonResult(ToJsonArray(CreateRelations(g, input)),
                                                 "relations");
                             });
                           }));
  tools.push_back(
      MakeTool(s, "add_observations", "Add observations",
               "Append observations (strings) to entities that already exist. Observations an "
               "entity already has are "
               "skipped. Fails without changing anything if any named entity does not exist.",
               [](Store& st, const Json& a) {
                 auto input = Items<ObservationAddition>(a, "observations", AdditionArg);
                 return Mutate(st, [&](KnowledgeGraph& g) -> Result<ToolResult> {
                   auto added = AddObservations(g, input);
                   if (!added) return added.error();
                   return JsonResult(ToJsonArray(*added), "results");
                 });
               }));
  tools.push_back(MakeTool(s, "delete_entities", "Delete entities",
                           "Remove entities by name, together with every relation that starts or "
                           "ends at one of them. Unknown names "
                           "are ignored.",
                           [](Store& st, const Json& a) {
                             auto names = Strings(Field(a, "entityNames"));
                             return Mutate(st, [&](KnowledgeGraph& g) -> Result<ToolResult> {
                               DeleteEntities(g, names);
                               return DoneResult("Entities deleted successfully");
                             });
                           }));
  tools.push_back(MakeTool(s, "delete_observations", "Delete observations",
                           "Remove the given observation strings from the named entities. Unknown "
                           "entities and observations are "
                           "ignored.",
                           [](Store& st, const Json& a) {
                             auto input = Items<ObservationDeletion>(a, "deletions", DeletionArg);
                             return Mutate(st, [&](KnowledgeGraph& g) -> Result<ToolResult> {
                               DeleteObservations(g, input);
                               return DoneResult("Observations deleted successfully");
                             });
                           }));
  tools.push_back(MakeTool(s, "delete_relations", "Delete relations",
                           "Remove relations matching from, to and relationType exactly. Relations "
                           "not in the graph are ignored.",
                           [](Store& st, const Json& a) {
                             auto input = Items<Relation>(a, "relations", RelationArg);
                             return Mutate(st, [&](KnowledgeGraph& g) -> Result<ToolResult> {
                               DeleteRelations(g, input);
                               return DoneResult("Relations deleted successfully");
                             });
                           }));
  tools.push_back(MakeTool(s, "read_graph", "Read the whole graph",
                           "Return every entity and relation in the knowledge graph.",
                           [](Store& st, const Json&) {
                             return Inspect(st, [](const KnowledgeGraph& g) { return g; });
                           }));
  tools.push_back(
      MakeTool(s, "search_nodes", "Search entities",
               "Find the entities whose name, entity type or any observation contains the query "
               "(case-insensitive), "
               "with every relation that starts or ends at one of them.",
               [](Store& st, const Json& a) {
                 std::string query = StringField(a, "query");
                 return Inspect(st, [&](const KnowledgeGraph& g) { return SearchNodes(g, query); });
               }));
  tools.push_back(MakeTool(s, "open_nodes", "Open entities by name",
                           "Return the entities with exactly the given names, with every relation "
                           "that starts or ends at one of "
                           "them. Unknown names are ignored.",
                           [](Store& st, const Json& a) {
                             auto names = Strings(Field(a, "names"));
                             return Inspect(
                                 st, [&](const KnowledgeGraph& g) { return OpenNodes(g, names); });
                           }));
  return tools;
}

}  // namespace

// Upstream's one resource: the whole graph as JSON.stringify(graph, null, 2),
// read from the file at each read like read_graph. Subscriptions are taken
// (and advertised) as upstream takes them.
mcp::ResourceOptions GraphResource(const std::shared_ptr<Store>& store) {
  static constexpr const char* kUri = kGraphUri;
  mcp::Resource graph;
  graph.uri = kUri;
  graph.name = "knowledge-graph";
  graph.title = "Knowledge Graph";
  graph.description = "Every entity and relation of the knowledge graph, as one JSON document.";
  graph.mime_type = "application/json";
  graph.read = [store] {
    auto loaded = Load(*store);
    if (!loaded) throw mcp::ProtocolError(loaded.error().message);
    return Json::array({Json{{"uri", kUri}, {"mimeType", "application/json"}, {"text", Indented(ToJson(**loaded))}}});
  };
  mcp::ResourceOptions options;
  options.resources.push_back(std::move(graph));
  options.subscribe = true;
  options.list_changed = true;
  return options;
}

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options) {
  auto store = std::make_shared<Store>(options);
  auto tools = Tools(store);
  PresentVariant(options.variant, tools);
  auto server = std::make_shared<mcp::ServerDefinition>(mcp::ServerInfo{"memory-server", "0.6.3", "", ""},
                                                        std::move(tools));
  // The graph resource came after 2025.8.4, whose low-level Server declared
  // bare {tools: {}}.
  if (options.variant.empty()) server->SetResources(GraphResource(store));
  ConfigureVariant(options.variant, *server);
  return server;
}

}  // namespace sbx::servers::localmemory
