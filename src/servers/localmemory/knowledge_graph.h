// The knowledge graph and the nine operations on it, with upstream's exact
// semantics (server-memory 2026.8.31, KnowledgeGraphManager), including its
// quirks, which callers may rely on:
// - create_entities / create_relations skip items that already exist in the
//   graph, but not repeats inside one call (both are added);
// - add_observations fails as a whole on the first unknown entity (nothing
//   is applied), and adds a string repeated inside one call as often as it
//   is repeated; with several entities of the same name only the first is
//   touched;
// - search_nodes / open_nodes return every relation with at least one end
//   among the entities found.
// Pure functions on values; no I/O, no locking.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"

namespace sbx::servers::localmemory {

struct Entity {
  std::string name;
  std::string entity_type;
  std::vector<std::string> observations;
};

struct Relation {
  std::string from;
  std::string to;
  std::string relation_type;
};

struct KnowledgeGraph {
  std::vector<Entity> entities;
  std::vector<Relation> relations;
};

struct ObservationAddition {
  std::string entity_name;
  std::vector<std::string> contents;
};
struct AddedObservations {
  std::string entity_name;
  std::vector<std::string> added;
};

struct ObservationDeletion {
  std::string entity_name;
  std::vector<std::string> observations;
};

// Each returns what upstream's method of the same name returns.
std::vector<Entity> CreateEntities(KnowledgeGraph& graph, const std::vector<Entity>& entities);
std::vector<Relation> CreateRelations(KnowledgeGraph& graph,
                                      const std::vector<Relation>& relations);
// On an unknown entity: kNotFound "Entity with name <name> not found", and
// `graph` is left as it was.
Result<std::vector<AddedObservations>> AddObservations(
    KnowledgeGraph& graph, const std::vector<ObservationAddition>& additions);
void DeleteEntities(KnowledgeGraph& graph, const std::vector<std::string>& names);
void DeleteObservations(KnowledgeGraph& graph, const std::vector<ObservationDeletion>& deletions);
void DeleteRelations(KnowledgeGraph& graph, const std::vector<Relation>& relations);
// Case-insensitive (JavaScript toLowerCase, i.e. Unicode full case mapping
// in the root locale) substring match on name, entity type and observations.
KnowledgeGraph SearchNodes(const KnowledgeGraph& graph, const std::string& query);
KnowledgeGraph OpenNodes(const KnowledgeGraph& graph, const std::vector<std::string>& names);

// The JSON objects upstream returns, keys in its order.
Json ToJson(const Entity& entity);
Json ToJson(const Relation& relation);
Json ToJson(const KnowledgeGraph& graph);  // {entities, relations}
Json ToJson(const AddedObservations& added);
template <class T>
Json ToJsonArray(const std::vector<T>& items) {
  Json out = Json::array();
  for (const auto& item : items) out.push_back(ToJson(item));
  return out;
}

}  // namespace sbx::servers::localmemory
