// The graph operations and the file format, with the exact values upstream
// (server-memory 2026.8.31 on Node 22) produces for the same inputs.
#include <gtest/gtest.h>

#include "js_text/string.h"
#include "servers/localmemory/graph_file.h"
#include "servers/localmemory/knowledge_graph.h"

namespace sbx::servers::localmemory {
namespace {

KnowledgeGraph Sample() {
  KnowledgeGraph g;
  g.entities = {
      {"Alice", "person", {"likes tea"}}, {"Bob", "person", {}}, {"Carol", "robot", {"Beeps"}}};
  g.relations = {{"Alice", "Bob", "knows"}, {"Bob", "Carol", "builds"}, {"Dan", "Eve", "met"}};
  return g;
}

std::string Dump(const KnowledgeGraph& g) { return ToJson(g).dump(); }

TEST(Graph, CreateEntitiesSkipsNamesAlreadyInTheGraphButNotRepeatsInTheBatch) {
  KnowledgeGraph g = Sample();
  auto added = CreateEntities(g, {{"Alice", "cat", {}}, {"Zed", "x", {"a"}}, {"Zed", "y", {}}});
  EXPECT_EQ(
      ToJsonArray(added).dump(),
      R"([{"name":"Zed","entityType":"x","observations":["a"]},{"name":"Zed","entityType":"y","observations":[]}])");
  ASSERT_EQ(g.entities.size(), 5u);
  EXPECT_EQ(g.entities[0].entity_type, "person");
}

TEST(Graph, CreateRelationsSkipsExactDuplicatesOfTheGraphOnly) {
  KnowledgeGraph g = Sample();
  auto added = CreateRelations(g, {{"Alice", "Bob", "knows"},
                                   {"Alice", "Bob", "likes"},
                                   {"Alice", "Bob", "likes"},
                                   {"Ghost", "Nobody", "haunts"}});
  EXPECT_EQ(
      ToJsonArray(added).dump(),
      R"([{"from":"Alice","to":"Bob","relationType":"likes"},{"from":"Alice","to":"Bob","relationType":"likes"},)"
      R"({"from":"Ghost","to":"Nobody","relationType":"haunts"}])");
  EXPECT_EQ(g.relations.size(), 6u);
}

TEST(Graph, AddObservationsAddsRepeatsInOneCallAndSkipsKnownOnes) {
  KnowledgeGraph g = Sample();
  auto r = AddObservations(g, {{"Bob", {"plays chess", "plays chess"}},
                               {"Alice", {"likes tea", "reads"}},
                               {"Bob", {"plays chess", "runs"}}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToJsonArray(*r).dump(),
            R"([{"entityName":"Bob","addedObservations":["plays chess","plays chess"]},)"
            R"({"entityName":"Alice","addedObservations":["reads"]},)"
            R"({"entityName":"Bob","addedObservations":["runs"]}])");
  EXPECT_EQ(
      ToJson(g.entities[1]).dump(),
      R"({"name":"Bob","entityType":"person","observations":["plays chess","plays chess","runs"]})");
}

TEST(Graph, AddObservationsToAMissingEntityChangesNothing) {
  KnowledgeGraph g = Sample();
  const std::string before = Dump(g);
  auto r = AddObservations(g, {{"Carol", {"new"}}, {"Nobody", {"x"}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Entity with name Nobody not found");
  EXPECT_EQ(Dump(g), before);
}

TEST(Graph, AddObservationsTouchesTheFirstOfTwoEntitiesWithTheSameName) {
  KnowledgeGraph g;
  g.entities = {{"a", "T", {}}, {"a", "U", {}}};
  ASSERT_TRUE(AddObservations(g, {{"a", {"x"}}}).ok());
  EXPECT_EQ(Dump(g), R"({"entities":[{"name":"a","entityType":"T","observations":["x"]},)"
                     R"({"name":"a","entityType":"U","observations":[]}],"relations":[]})");
}

TEST(Graph, DeleteEntitiesDropsTheirRelations) {
  KnowledgeGraph g = Sample();
  DeleteEntities(g, {"Bob", "Nobody"});
  EXPECT_EQ(Dump(g),
            R"({"entities":[{"name":"Alice","entityType":"person","observations":["likes tea"]},)"
            R"({"name":"Carol","entityType":"robot","observations":["Beeps"]}],)"
            R"("relations":[{"from":"Dan","to":"Eve","relationType":"met"}]})");
}

TEST(Graph, DeleteObservationsAndRelationsIgnoreWhatIsNotThere) {
  KnowledgeGraph g = Sample();
  g.entities[0].observations = {"x", "likes tea", "x"};
  DeleteObservations(g, {{"Alice", {"x", "absent"}}, {"Nobody", {"likes tea"}}});
  EXPECT_EQ(ToJson(g.entities[0]).dump(),
            R"({"name":"Alice","entityType":"person","observations":["likes tea"]})");
  DeleteRelations(g, {{"Bob", "Carol", "builds"}, {"Bob", "Carol", "other"}});
  EXPECT_EQ(
      ToJsonArray(g.relations).dump(),
      R"([{"from":"Alice","to":"Bob","relationType":"knows"},{"from":"Dan","to":"Eve","relationType":"met"}])");
}

TEST(Graph, SearchNodesMatchesCaseInsensitivelyWithRelationsTouchingEitherEnd) {
  KnowledgeGraph g = Sample();
  EXPECT_EQ(Dump(SearchNodes(g, "TEA")),
            R"({"entities":[{"name":"Alice","entityType":"person","observations":["likes tea"]}],)"
            R"("relations":[{"from":"Alice","to":"Bob","relationType":"knows"}]})");
  EXPECT_EQ(Dump(SearchNodes(g, "ROBOT")),
            R"({"entities":[{"name":"Carol","entityType":"robot","observations":["Beeps"]}],)"
            R"("relations":[{"from":"Bob","to":"Carol","relationType":"builds"}]})");
  EXPECT_EQ(SearchNodes(g, "").entities.size(), 3u);   // "" is in every string
  EXPECT_EQ(SearchNodes(g, "").relations.size(), 2u);  // Dan/Eve are no entities
  EXPECT_EQ(Dump(SearchNodes(g, "zzz")), R"({"entities":[],"relations":[]})");
}

TEST(Graph, OpenNodesReturnsRequestedEntitiesAndTheirRelations) {
  KnowledgeGraph g = Sample();
  EXPECT_EQ(Dump(OpenNodes(g, {"Bob", "Nobody"})),
            R"({"entities":[{"name":"Bob","entityType":"person","observations":[]}],)"
            R"("relations":[{"from":"Alice","to":"Bob","relationType":"knows"},)"
            R"({"from":"Bob","to":"Carol","relationType":"builds"}]})");
  EXPECT_EQ(Dump(OpenNodes(g, {})), R"({"entities":[],"relations":[]})");
}

TEST(Graph, LowerCaseIsJavaScripts) {
  // Values printed by Node 22's String.prototype.toLowerCase.
  EXPECT_EQ(js::ToLowerCase("ABC xyz 09"), "abc xyz 09");
  EXPECT_EQ(js::ToLowerCase("\xC4\xB0stanbul"), "i\xCC\x87stanbul");  // İ -> i + combining dot
  EXPECT_EQ(js::ToLowerCase("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3 \xCE\xA3\xCE\x91\xCE\xA3"),
            "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82 \xCF\x83\xCE\xB1\xCF\x82");  // final sigma
  EXPECT_EQ(js::ToLowerCase("\xCE\xA3"), "\xCF\x83");
  EXPECT_EQ(js::ToLowerCase("\xE1\xBA\x9E"), "\xC3\x9F");  // ẞ -> ß
  EXPECT_EQ(js::ToLowerCase("\xC7\x85"), "\xC7\x86");      // ǅ -> ǆ
  KnowledgeGraph g;
  g.entities = {{"\xC4\xB0zmir", "city", {}}};
  EXPECT_EQ(SearchNodes(g, "\xC4\xB0Z").entities.size(), 1u);
  EXPECT_EQ(SearchNodes(g, "iz").entities.size(), 0u);  // "i̇zmir" holds no "iz"
}

// ------------------------------------------------------------------ file format

TEST(GraphFile, SerializesLikeUpstream) {
  KnowledgeGraph g = Sample();
  g.entities[1].observations = {"quote \" backslash \\ nl \n tab \t ctl \x01 del \x7f",
                                "\xE2\x80\xA8 \xF0\x9F\x98\x80"};
  EXPECT_EQ(
      SerializeGraph(g),
      "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"likes "
      "tea\"]}\n"
      "{\"type\":\"entity\",\"name\":\"Bob\",\"entityType\":\"person\",\"observations\":"
      "[\"quote \\\" backslash \\\\ nl \\n tab \\t ctl \\u0001 del \x7f\",\"\xE2\x80\xA8 "
      "\xF0\x9F\x98\x80\"]}\n"
      "{\"type\":\"entity\",\"name\":\"Carol\",\"entityType\":\"robot\",\"observations\":["
      "\"Beeps\"]}\n"
      "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Bob\",\"relationType\":\"knows\"}\n"
      "{\"type\":\"relation\",\"from\":\"Bob\",\"to\":\"Carol\",\"relationType\":\"builds\"}\n"
      "{\"type\":\"relation\",\"from\":\"Dan\",\"to\":\"Eve\",\"relationType\":\"met\"}");
  EXPECT_EQ(SerializeGraph(KnowledgeGraph{}), "");
  auto back = ParseGraphFile(SerializeGraph(g), "/m");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(Dump(*back), Dump(g));
}

TEST(GraphFile, ReadsAnyKeyOrderBlankLinesCrlfAndRelationsBeforeEntities) {
  auto g = ParseGraphFile(
      "\n  \t\r\n{\"to\":\"b\",\"relationType\":\"r\",\"type\":\"relation\",\"from\":\"a\"}\r\n"
      "\xC2\xA0\xE2\x80\xA8\n"  // NBSP and LINE SEPARATOR: blank to String#trim
      "{\"observations\":[],\"entityType\":\"T\",\"name\":\"a\",\"type\":\"entity\"}\n\n",
      "/m");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(Dump(*g), R"({"entities":[{"name":"a","entityType":"T","observations":[]}],)"
                      R"("relations":[{"from":"a","to":"b","relationType":"r"}]})");
  // Written back in upstream's order and layout.
  EXPECT_EQ(SerializeGraph(*g),
            "{\"type\":\"entity\",\"name\":\"a\",\"entityType\":\"T\",\"observations\":[]}\n"
            "{\"type\":\"relation\",\"from\":\"a\",\"to\":\"b\",\"relationType\":\"r\"}");
  EXPECT_TRUE(ParseGraphFile("", "/m").ok());
  EXPECT_TRUE(ParseGraphFile("\n\n", "/m").ok());
}

TEST(GraphFile, DuplicateKeysKeepTheLastValueAsJsonParseDoes) {
  auto g = ParseGraphFile(
      R"({"type":"entity","name":"a","name":"b","entityType":"T","observations":[]})", "/m");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->entities[0].name, "b");
}

std::string Problem(std::string_view data) {
  auto g = ParseGraphFile(data, "/data/mem.json");
  EXPECT_FALSE(g.ok()) << data;
  return g.ok() ? "" : g.error().message;
}

TEST(GraphFile, CorruptLinesAreReportedWithFileAndLine) {
  const std::string ok = R"({"type":"entity","name":"a","entityType":"T","observations":[]})";
  const std::string tail =
      ". Nothing was read or changed; repair or remove that line (the file is JSON Lines: one "
      "{\"type\":\"entity\",…} or {\"type\":\"relation\",…} object per line).";
  auto at = [&](int line, const std::string& what) {
    return "The memory file /data/mem.json is corrupt: line " + std::to_string(line) + ": " + what +
           tail;
  };
  EXPECT_EQ(Problem(ok + "\n\n{\"type\":\"entity\",\"name\":"),
            at(3, "not valid JSON (syntax error at byte 25 of the line)"));
  EXPECT_EQ(Problem(ok + " x"), at(1, "not valid JSON (syntax error at byte 65 of the line)"));
  // JSON.parse refuses a byte order mark (nlohmann would skip it).
  EXPECT_EQ(Problem("\xEF\xBB\xBF" + ok),
            at(1, "not valid JSON (it starts with a byte order mark)"));
  // A number out of double's range is refused, not thrown (fuzz/localmemory_graph found it).
  EXPECT_EQ(Problem(ok + "\n2E404"), at(2, "not valid JSON (a number is out of range)"));
  EXPECT_EQ(Problem(R"({"type":"entity","name":"a","entityType":"T","observations":[],"n":-1e999})"),
            at(1, "not valid JSON (a number is out of range)"));
  EXPECT_EQ(Problem("[1]"), at(1, "expected a JSON object, found an array"));
  EXPECT_EQ(Problem("null"), at(1, "expected a JSON object, found null"));
  EXPECT_EQ(Problem("\"entity\""), at(1, "expected a JSON object, found a string"));
  EXPECT_EQ(Problem(R"({"name":"a"})"), at(1, R"(no "type" (expected "entity" or "relation"))"));
  EXPECT_EQ(Problem(R"({"type":"node"})"),
            at(1, R"("type" is "node", expected "entity" or "relation")"));
  EXPECT_EQ(Problem(R"({"type":1})"), at(1, R"("type" is 1, expected "entity" or "relation")"));
  EXPECT_EQ(Problem(R"({"type":"entity","entityType":"T","observations":[]})"),
            at(1, R"(entity has no "name")"));
  EXPECT_EQ(Problem(R"({"type":"entity","name":5,"entityType":"T","observations":[]})"),
            at(1, R"(entity's "name" is a number, expected a string)"));
  EXPECT_EQ(Problem(R"({"type":"entity","name":"a","entityType":null,"observations":[]})"),
            at(1, R"(entity's "entityType" is null, expected a string)"));
  EXPECT_EQ(Problem(R"({"type":"entity","name":"a","entityType":"T"})"),
            at(1, R"(entity has no "observations")"));
  EXPECT_EQ(Problem(R"({"type":"entity","name":"a","entityType":"T","observations":"x"})"),
            at(1, R"(entity's "observations" is a string, expected an array of strings)"));
  EXPECT_EQ(Problem(R"({"type":"entity","name":"a","entityType":"T","observations":["x",{}]})"),
            at(1, R"(entity's observations[1] is an object, expected a string)"));
  EXPECT_EQ(
      Problem(R"({"type":"entity","name":"a","entityType":"T","observations":[],"createdAt":1})"),
      at(1,
         "entity has an unexpected key \"createdAt\" (only type, name, entityType, observations "
         "are kept, "
         "so rewriting the file would lose it)"));
  EXPECT_EQ(Problem(R"({"type":"relation","from":"a","relationType":"r"})"),
            at(1, R"(relation has no "to")"));
  EXPECT_EQ(Problem(R"({"type":"relation","from":"a","to":true,"relationType":"r"})"),
            at(1, R"(relation's "to" is a boolean, expected a string)"));
  EXPECT_EQ(
      Problem(ok +
              "\n{\"type\":\"entity\",\"name\":\"\xFF\",\"entityType\":\"T\",\"observations\":[]}"),
      at(2, "not valid UTF-8"));
  for (const char* bad :
       {"\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80", "\xF8\x88\x80\x80\x80"})
    EXPECT_EQ(Problem(std::string("{\"type\":\"entity\",\"name\":\"") + bad + "\"}"),
              at(1, "not valid UTF-8"))
        << bad;
  // A lone surrogate escape: JSON.parse takes it, nlohmann (and so this
  // server) does not; reported rather than mangled.
  EXPECT_EQ(Problem(R"({"type":"entity","name":"\ud800","entityType":"T","observations":[]})"),
            at(1, "not valid JSON (syntax error at byte 32 of the line)"));
}

}  // namespace
}  // namespace sbx::servers::localmemory
