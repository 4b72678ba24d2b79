#include "servers/localmemory/knowledge_graph.h"

#include <algorithm>
#include <unordered_set>

#include "js_text/string.h"

namespace sbx::servers::localmemory {
namespace {

using NameSet = std::unordered_set<std::string>;

NameSet ToSet(const std::vector<std::string>& names) { return NameSet(names.begin(), names.end()); }

bool SameRelation(const Relation& a, const Relation& b) {
  return a.from == b.from && a.to == b.to && a.relation_type == b.relation_type;
}

bool Contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Every relation touching one of the entities kept, in graph order.
KnowledgeGraph WithTouchingRelations(const KnowledgeGraph& graph, std::vector<Entity> entities) {
  NameSet names;
  for (const auto& e : entities) names.insert(e.name);
  KnowledgeGraph out;
  out.entities = std::move(entities);
  for (const auto& r : graph.relations)
    if (names.count(r.from) || names.count(r.to)) out.relations.push_back(r);
  return out;
}

}  // namespace

std::vector<Entity> CreateEntities(KnowledgeGraph& graph, const std::vector<Entity>& entities) {
  // Only names already in the graph count as duplicates, as upstream
  // filters the whole batch against the graph before adding any of it.
  NameSet existing;
  for (const auto& e : graph.entities) existing.insert(e.name);
  std::vector<Entity> added;
  for (const auto& e : entities)
    if (!existing.count(e.name)) added.push_back(e);
  graph.entities.insert(graph.entities.end(), added.begin(), added.end());
  return added;
}

std::vector<Relation> CreateRelations(KnowledgeGraph& graph,
                                      const std::vector<Relation>& relations) {
  std::vector<Relation> added;
  for (const auto& r : relations) {
    bool exists = std::any_of(graph.relations.begin(), graph.relations.end(),
                              [&](const Relation& old) { return SameRelation(old, r); });
    if (!exists) added.push_back(r);
  }
  graph.relations.insert(graph.relations.end(), added.begin(), added.end());
  return added;
}

Result<std::vector<AddedObservations>> AddObservations(
    KnowledgeGraph& graph, const std::vector<ObservationAddition>& additions) {
  // Work on a copy: upstream throws before saving, so a failure leaves the
  // graph (and the file) untouched even if earlier items were applied.
  KnowledgeGraph draft = graph;
  std::vector<AddedObservations> results;
  for (const auto& a : additions) {
    auto entity = std::find_if(draft.entities.begin(), draft.entities.end(),
                               [&](const Entity& e) { return e.name == a.entity_name; });
    if (entity == draft.entities.end())
      return MakeError(ErrorCode::kNotFound, "Entity with name " + a.entity_name + " not found");
    // Filtered against the observations as they were before this item, so a
    // string repeated within `contents` is added once per repetition.
    std::vector<std::string> fresh;
    for (const auto& c : a.contents)
      if (!Contains(entity->observations, c)) fresh.push_back(c);
    entity->observations.insert(entity->observations.end(), fresh.begin(), fresh.end());
    results.push_back({a.entity_name, std::move(fresh)});
  }
  graph = std::move(draft);
  return results;
}

void DeleteEntities(KnowledgeGraph& graph, const std::vector<std::string>& names) {
  NameSet doomed = ToSet(names);
  std::erase_if(graph.entities, [&](const Entity& e) { return doomed.count(e.name) > 0; });
  std::erase_if(graph.relations, [&](const Relation& r) {
    return doomed.count(r.from) > 0 || doomed.count(r.to) > 0;
  });
}

void DeleteObservations(KnowledgeGraph& graph, const std::vector<ObservationDeletion>& deletions) {
  for (const auto& d : deletions) {
    auto entity = std::find_if(graph.entities.begin(), graph.entities.end(),
                               [&](const Entity& e) { return e.name == d.entity_name; });
    if (entity == graph.entities.end()) continue;  // upstream ignores unknown entities
    NameSet doomed = ToSet(d.observations);
    std::erase_if(entity->observations, [&](const std::string& o) { return doomed.count(o) > 0; });
  }
}

void DeleteRelations(KnowledgeGraph& graph, const std::vector<Relation>& relations) {
  std::erase_if(graph.relations, [&](const Relation& r) {
    return std::any_of(relations.begin(), relations.end(),
                       [&](const Relation& d) { return SameRelation(r, d); });
  });
}

KnowledgeGraph SearchNodes(const KnowledgeGraph& graph, const std::string& query) {
  const std::string needle = js::ToLowerCase(query);
  auto matches = [&](const std::string& s) {
    return js::ToLowerCase(s).find(needle) != std::string::npos;
  };
  std::vector<Entity> found;
  for (const auto& e : graph.entities) {
    if (matches(e.name) || matches(e.entity_type) ||
        std::any_of(e.observations.begin(), e.observations.end(), matches))
      found.push_back(e);
  }
  return WithTouchingRelations(graph, std::move(found));
}

KnowledgeGraph OpenNodes(const KnowledgeGraph& graph, const std::vector<std::string>& names) {
  NameSet wanted = ToSet(names);
  std::vector<Entity> found;
  for (const auto& e : graph.entities)
    if (wanted.count(e.name)) found.push_back(e);
  return WithTouchingRelations(graph, std::move(found));
}

Json ToJson(const Entity& entity) {
  return Json{{"name", entity.name},
              {"entityType", entity.entity_type},
              {"observations", entity.observations}};
}

Json ToJson(const Relation& relation) {
  return Json{
      {"from", relation.from}, {"to", relation.to}, {"relationType", relation.relation_type}};
}

Json ToJson(const KnowledgeGraph& graph) {
  return Json{{"entities", ToJsonArray(graph.entities)},
              {"relations", ToJsonArray(graph.relations)}};
}

Json ToJson(const AddedObservations& added) {
  return Json{{"entityName", added.entity_name}, {"addedObservations", added.added}};
}

}  // namespace sbx::servers::localmemory
