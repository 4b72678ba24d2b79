#include "servers/localmemory/graph_file.h"

#include <initializer_list>
#include <optional>

#include "core/json_text.h"
#include "core/utf8.h"
#include "js_text/string.h"

namespace sbx::servers::localmemory {
namespace {

using js::Trim;

// Whether String#trim() would leave nothing. ASCII first (the common case:
// a line starting with '{'); js::Trim for lines starting with other code points.
bool IsBlank(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t\r\v\f");
  if (i == std::string_view::npos) return true;
  if (static_cast<unsigned char>(line[i]) < 0x80) return false;
  return utf8::IsWellFormed(line) && js::Trim(line).empty();
}

// Why one line cannot be read; the caller adds the file and line number.
struct LineProblem {
  std::string what;
};

const char* KindOf(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

std::string Quoted(const std::string& s) { return Json(s).dump(); }

// The object must hold exactly `keys` ("type" plus the record's fields).
std::optional<LineProblem> CheckKeys(const Json& item, const char* kind,
                                     std::initializer_list<const char*> keys) {
  for (const auto& [key, _] : item.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) {
      std::string list;
      for (const char* k : keys) list += std::string(list.empty() ? "" : ", ") + k;
      return LineProblem{std::string(kind) + " has an unexpected key " + Quoted(key) + " (only " +
                         list + " are kept, so rewriting the file would lose it)"};
    }
  }
  return std::nullopt;
}

std::optional<LineProblem> TakeString(const Json& item, const char* kind, const char* key,
                                      std::string& out) {
  auto it = item.find(key);
  if (it == item.end()) return LineProblem{std::string(kind) + " has no " + Quoted(key)};
  if (!it->is_string())
    return LineProblem{std::string(kind) + "'s " + Quoted(key) + " is " + KindOf(*it) +
                       ", expected a string"};
  out = it->get<std::string>();
  return std::nullopt;
}

std::optional<LineProblem> ReadEntity(const Json& item, KnowledgeGraph& graph) {
  if (auto p = CheckKeys(item, "entity", {"type", "name", "entityType", "observations"})) return p;
  Entity e;
  if (auto p = TakeString(item, "entity", "name", e.name)) return p;
  if (auto p = TakeString(item, "entity", "entityType", e.entity_type)) return p;
  auto obs = item.find("observations");
  if (obs == item.end()) return LineProblem{"entity has no \"observations\""};
  if (!obs->is_array())
    return LineProblem{std::string("entity's \"observations\" is ") + KindOf(*obs) +
                       ", expected an array of strings"};
  for (std::size_t i = 0; i < obs->size(); ++i) {
    const Json& o = (*obs)[i];
    if (!o.is_string())
      return LineProblem{"entity's observations[" + std::to_string(i) + "] is " + KindOf(o) +
                         ", expected a string"};
    e.observations.push_back(o.get<std::string>());
  }
  graph.entities.push_back(std::move(e));
  return std::nullopt;
}

std::optional<LineProblem> ReadRelation(const Json& item, KnowledgeGraph& graph) {
  if (auto p = CheckKeys(item, "relation", {"type", "from", "to", "relationType"})) return p;
  Relation r;
  if (auto p = TakeString(item, "relation", "from", r.from)) return p;
  if (auto p = TakeString(item, "relation", "to", r.to)) return p;
  if (auto p = TakeString(item, "relation", "relationType", r.relation_type)) return p;
  graph.relations.push_back(std::move(r));
  return std::nullopt;
}

std::optional<LineProblem> ReadLine(std::string_view line, KnowledgeGraph& graph) {
  if (!utf8::IsWellFormed(line)) return LineProblem{"not valid UTF-8"};
  if (line.substr(0, 3) == "\xEF\xBB\xBF")
    return LineProblem{"not valid JSON (it starts with a byte order mark)"};
  Json item;
  try {
    item = Json::parse(line);
  } catch (const Json::parse_error& e) {
    return LineProblem{"not valid JSON (syntax error at byte " + std::to_string(e.byte) +
                       " of the line)"};
  } catch (const Json::out_of_range&) {
    // A number beyond double's range (2E404): nlohmann throws where
    // JavaScript would read Infinity; found by fuzz/localmemory_graph.
    return LineProblem{"not valid JSON (a number is out of range)"};
  }
  if (!item.is_object())
    return LineProblem{std::string("expected a JSON object, found ") + KindOf(item)};
  auto type = item.find("type");
  if (type == item.end()) return LineProblem{"no \"type\" (expected \"entity\" or \"relation\")"};
  if (*type == "entity") return ReadEntity(item, graph);
  if (*type == "relation") return ReadRelation(item, graph);
  return LineProblem{"\"type\" is " + type->dump() + ", expected \"entity\" or \"relation\""};
}

}  // namespace

Result<KnowledgeGraph> ParseGraphFile(std::string_view data, const std::string& shown_path) {
  KnowledgeGraph graph;
  std::size_t line_number = 0;
  while (true) {
    ++line_number;
    std::size_t end = data.find('\n');
    std::string_view line = data.substr(0, end);
    if (!IsBlank(line)) {
      if (auto problem = ReadLine(line, graph))
        return MakeError(
            ErrorCode::kInvalidArgument,
            "The memory file " + shown_path + " is corrupt: line " + std::to_string(line_number) +
                ": " + problem->what +
                ". Nothing was read or changed; repair or remove that line (the file is JSON "
                "Lines: one {\"type\":\"entity\",…} or {\"type\":\"relation\",…} object per "
                "line).");
    }
    if (end == std::string_view::npos) break;
    data.remove_prefix(end + 1);
  }
  return graph;
}

std::string SerializeGraph(const KnowledgeGraph& graph) {
  // Written directly rather than through Json objects (this runs on every
  // mutation); AppendJsonString escapes exactly as JSON.stringify (and nlohmann's
  // dump) do, and the keys come in upstream's order.
  std::string out;
  auto start_line = [&out] {
    if (!out.empty()) out += '\n';
  };
  for (const auto& e : graph.entities) {
    start_line();
    out += R"({"type":"entity","name":)";
    AppendJsonString(out, e.name);
    out += R"(,"entityType":)";
    AppendJsonString(out, e.entity_type);
    out += R"(,"observations":[)";
    for (std::size_t i = 0; i < e.observations.size(); ++i) {
      if (i) out += ',';
      AppendJsonString(out, e.observations[i]);
    }
    out += "]}";
  }
  for (const auto& r : graph.relations) {
    start_line();
    out += R"({"type":"relation","from":)";
    AppendJsonString(out, r.from);
    out += R"(,"to":)";
    AppendJsonString(out, r.to);
    out += R"(,"relationType":)";
    AppendJsonString(out, r.relation_type);
    out += '}';
  }
  return out;
}

}  // namespace sbx::servers::localmemory
