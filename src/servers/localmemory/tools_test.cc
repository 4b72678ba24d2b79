// Every tool through a real MCP session, with the exact results upstream
// (server-memory 2026.8.31, captured over stdio on Node 22) gives for the
// same calls, the file each leaves behind, and the corrupt-file behaviour.
#include <fcntl.h>
#include <sys/stat.h>

#include <fstream>

#include "servers/localmemory/test_support.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::localmemory::testing {
namespace {

class ToolsTest : public MemoryTest {};

TEST_F(ToolsTest, InitializeAndToolsListMatchReference) {
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["name"], "memory-server");
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["version"], "0.6.3");
  Json tools = ListTools();
  auto ref = test_support::ReadJsonFile(LOCALMEMORY_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found: " << LOCALMEMORY_REFERENCE_JSON;
  // Exact JSON, key order included.
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      tools, (*ref)["tools"], {.exact = {"inputSchema", "outputSchema", "annotations"}, .titled = true}));
}

// One session's worth of calls; each expected text is upstream's.
TEST_F(ToolsTest, EveryToolGivesUpstreamsResults) {
  Json r = CallText("create_entities", R"({"entities":[
      {"observations":["likes tea"],"entityType":"person","name":"Alice","extra":1},
      {"name":"Bob","entityType":"person","observations":[]}]})");
  // Keys in schema order whatever the caller's order; unknown keys dropped.
  EXPECT_EQ(
      r.dump(),
      R"({"content":[{"type":"text","text":"[\n  {\n    \"name\": \"Alice\",\n    \"entityType\": \"person\",\n    \"observations\": [\n      \"likes tea\"\n    ]\n  },\n  {\n    \"name\": \"Bob\",\n    \"entityType\": \"person\",\n    \"observations\": []\n  }\n]"}],)"
      R"("structuredContent":{"entities":[{"name":"Alice","entityType":"person","observations":["likes tea"]},{"name":"Bob","entityType":"person","observations":[]}]}})");
  EXPECT_EQ(
      Ok("create_entities", R"({"entities":[{"name":"Alice","entityType":"cat","observations":[]},
      {"name":"Carol","entityType":"robot","observations":["Beeps"]}]})"),
      "[\n  {\n    \"name\": \"Carol\",\n    \"entityType\": \"robot\",\n    \"observations\": [\n "
      "     \"Beeps\"\n    ]\n  }\n]");
  r = CallText("create_relations",
               R"({"relations":[{"from":"Alice","to":"Bob","relationType":"knows"},
      {"from":"Bob","to":"Carol","relationType":"builds"},{"from":"Alice","to":"Bob","relationType":"knows"}]})");
  EXPECT_EQ(r["content"][0]["text"],
            "[\n  {\n    \"from\": \"Alice\",\n    \"to\": \"Bob\",\n    \"relationType\": "
            "\"knows\"\n  },\n  {\n    "
            "\"from\": \"Bob\",\n    \"to\": \"Carol\",\n    \"relationType\": \"builds\"\n  },\n  "
            "{\n    \"from\": "
            "\"Alice\",\n    \"to\": \"Bob\",\n    \"relationType\": \"knows\"\n  }\n]");
  EXPECT_EQ(
      r["structuredContent"].dump(),
      R"({"relations":[{"from":"Alice","to":"Bob","relationType":"knows"},{"from":"Bob","to":"Carol","relationType":"builds"},{"from":"Alice","to":"Bob","relationType":"knows"}]})");
  EXPECT_EQ(
      Call("create_relations",
           Json::parse(R"({"relations":[{"from":"Alice","to":"Bob","relationType":"knows"}]})"))
          .dump(),
      R"({"content":[{"type":"text","text":"[]"}],"structuredContent":{"relations":[]}})");
  r = CallText("add_observations",
               R"({"observations":[{"entityName":"Bob","contents":["plays chess","plays chess"]},
      {"entityName":"Alice","contents":["likes tea","reads"]}]})");
  EXPECT_EQ(
      r.dump(),
      R"({"content":[{"type":"text","text":"[\n  {\n    \"entityName\": \"Bob\",\n    \"addedObservations\": [\n      \"plays chess\",\n      \"plays chess\"\n    ]\n  },\n  {\n    \"entityName\": \"Alice\",\n    \"addedObservations\": [\n      \"reads\"\n    ]\n  }\n]"}],)"
      R"("structuredContent":{"results":[{"entityName":"Bob","addedObservations":["plays chess","plays chess"]},{"entityName":"Alice","addedObservations":["reads"]}]}})");

  const std::string before_error = ReadMemory();
  EXPECT_EQ(
      Call("add_observations",
           Json::parse(R"({"observations":[{"entityName":"Carol","contents":["new"]},
      {"entityName":"Nobody","contents":["x"]}]})"))
          .dump(),
      R"({"content":[{"type":"text","text":"Entity with name Nobody not found"}],"isError":true})");
  EXPECT_EQ(ReadMemory(), before_error);  // nothing applied, not even Carol's

  EXPECT_EQ(Ok("search_nodes", R"({"query":"TEA"})"),
            "{\n  \"entities\": [\n    {\n      \"name\": \"Alice\",\n      \"entityType\": "
            "\"person\",\n      "
            "\"observations\": [\n        \"likes tea\",\n        \"reads\"\n      ]\n    }\n  "
            "],\n  \"relations\": "
            "[\n    {\n      \"from\": \"Alice\",\n      \"to\": \"Bob\",\n      \"relationType\": "
            "\"knows\"\n    },\n"
            "    {\n      \"from\": \"Alice\",\n      \"to\": \"Bob\",\n      \"relationType\": "
            "\"knows\"\n    }\n  ]\n}");
  r = CallText("open_nodes", R"({"names":["Bob","Nobody"]})");
  EXPECT_EQ(r["content"][0]["text"],
            "{\n  \"entities\": [\n    {\n      \"name\": \"Bob\",\n      \"entityType\": "
            "\"person\",\n      "
            "\"observations\": [\n        \"plays chess\",\n        \"plays chess\"\n      ]\n    "
            "}\n  ],\n  "
            "\"relations\": [\n    {\n      \"from\": \"Alice\",\n      \"to\": \"Bob\",\n      "
            "\"relationType\": "
            "\"knows\"\n    },\n    {\n      \"from\": \"Bob\",\n      \"to\": \"Carol\",\n      "
            "\"relationType\": "
            "\"builds\"\n    },\n    {\n      \"from\": \"Alice\",\n      \"to\": \"Bob\",\n      "
            "\"relationType\": "
            "\"knows\"\n    }\n  ]\n}");
  EXPECT_EQ(
      r["structuredContent"].dump(),
      R"({"entities":[{"name":"Bob","entityType":"person","observations":["plays chess","plays chess"]}],)"
      R"("relations":[{"from":"Alice","to":"Bob","relationType":"knows"},{"from":"Bob","to":"Carol","relationType":"builds"},{"from":"Alice","to":"Bob","relationType":"knows"}]})");

  EXPECT_EQ(
      Call("delete_observations",
           Json::parse(R"({"deletions":[{"entityName":"Bob","observations":["plays chess"]},
      {"entityName":"Nobody","observations":["x"]}]})"))
          .dump(),
      R"({"content":[{"type":"text","text":"Observations deleted successfully"}],)"
      R"("structuredContent":{"success":true,"message":"Observations deleted successfully"}})");
  EXPECT_EQ(
      Call("delete_relations",
           Json::parse(R"({"relations":[{"from":"Bob","to":"Carol","relationType":"builds"}]})"))
          .dump(),
      R"({"content":[{"type":"text","text":"Relations deleted successfully"}],)"
      R"("structuredContent":{"success":true,"message":"Relations deleted successfully"}})");
  EXPECT_EQ(Call("delete_entities", Json::parse(R"({"entityNames":["Alice","Nobody"]})")).dump(),
            R"({"content":[{"type":"text","text":"Entities deleted successfully"}],)"
            R"("structuredContent":{"success":true,"message":"Entities deleted successfully"}})");
  r = Call("read_graph");
  EXPECT_EQ(
      r.dump(),
      R"({"content":[{"type":"text","text":"{\n  \"entities\": [\n    {\n      \"name\": \"Bob\",\n      \"entityType\": \"person\",\n      \"observations\": []\n    },\n    {\n      \"name\": \"Carol\",\n      \"entityType\": \"robot\",\n      \"observations\": [\n        \"Beeps\"\n      ]\n    }\n  ],\n  \"relations\": []\n}"}],)"
      R"("structuredContent":{"entities":[{"name":"Bob","entityType":"person","observations":[]},{"name":"Carol","entityType":"robot","observations":["Beeps"]}],"relations":[]}})");
  EXPECT_EQ(ReadMemory(),
            "{\"type\":\"entity\",\"name\":\"Bob\",\"entityType\":\"person\",\"observations\":[]}\n"
            "{\"type\":\"entity\",\"name\":\"Carol\",\"entityType\":\"robot\",\"observations\":["
            "\"Beeps\"]}");
  EXPECT_EQ(Names(root_), std::vector<std::string>{"memory.jsonl"});  // no temp files left
}

TEST_F(ToolsTest, ReadsOnAMissingFileSeeAnEmptyGraphAndCreateNothing) {
  EXPECT_EQ(Ok("read_graph"), "{\n  \"entities\": [],\n  \"relations\": []\n}");
  EXPECT_EQ(Ok("search_nodes", R"({"query":""})"),
            "{\n  \"entities\": [],\n  \"relations\": []\n}");
  EXPECT_EQ(Ok("open_nodes", R"({"names":["x"]})"),
            "{\n  \"entities\": [],\n  \"relations\": []\n}");
  EXPECT_FALSE(Exists(MemoryPath()));
  // Every mutation rewrites the file, even one that changes nothing.
  EXPECT_EQ(Ok("delete_entities", R"({"entityNames":["x"]})"), "Entities deleted successfully");
  EXPECT_TRUE(Exists(MemoryPath()));
  EXPECT_EQ(ReadMemory(), "");
}

TEST_F(ToolsTest, TheDefaultPathIsCreatedInsideTheWorkspace) {
  options_ = Options{};
  options_.workspace = root_;
  Restart();
  EXPECT_EQ(
      Ok("create_entities", R"({"entities":[{"name":"n","entityType":"t","observations":[]}]})"),
      "[\n  {\n    \"name\": \"n\",\n    \"entityType\": \"t\",\n    \"observations\": []\n  }\n]");
  EXPECT_EQ(ReadAbs(root_ + "/repos/memory_mcp_server/memories-for-mcp.json"),
            R"({"type":"entity","name":"n","entityType":"t","observations":[]})");
}

TEST_F(ToolsTest, AnExistingFileIsRewrittenInUpstreamsLayout) {
  WriteMemory(
      "\r\n{\"observations\":[\"o\"],\"name\":\"a\",\"type\":\"entity\",\"entityType\":\"T\"}\r\n\n"
      "{\"type\":\"relation\",\"relationType\":\"r\",\"from\":\"a\",\"to\":\"a\"}\n"
      "{\"type\":\"entity\",\"name\":\"b\",\"entityType\":\"T\",\"observations\":[]}\n");
  EXPECT_EQ(
      Ok("open_nodes", R"({"names":["b"]})"),
      "{\n  \"entities\": [\n    {\n      \"name\": \"b\",\n      \"entityType\": \"T\",\n      "
      "\"observations\": []\n    }\n  ],\n  \"relations\": []\n}");
  EXPECT_EQ(Ok("delete_relations", R"({"relations":[]})"), "Relations deleted successfully");
  EXPECT_EQ(ReadMemory(),
            "{\"type\":\"entity\",\"name\":\"a\",\"entityType\":\"T\",\"observations\":[\"o\"]}\n"
            "{\"type\":\"entity\",\"name\":\"b\",\"entityType\":\"T\",\"observations\":[]}\n"
            "{\"type\":\"relation\",\"from\":\"a\",\"to\":\"a\",\"relationType\":\"r\"}");
}

TEST_F(ToolsTest, ACorruptFileFailsEveryToolAndStaysByteForByte) {
  const std::string corrupt =
      "{\"type\":\"entity\",\"name\":\"a\",\"entityType\":\"T\",\"observations\":[]}\n"
      "{\"type\":\"entity\",\"name\":\"b\",\"entityType\":\"T\",\"observations\":[]\n"  // missing
                                                                                        // '}'
      "{\"type\":\"relation\",\"from\":\"a\",\"to\":\"b\",\"relationType\":\"r\"}";
  WriteMemory(corrupt);
  const std::string message =
      "The memory file " + MemoryPath() +
      " is corrupt: line 2: not valid JSON (syntax error at byte 63 of the line). Nothing was read "
      "or changed; "
      "repair or remove that line (the file is JSON Lines: one {\"type\":\"entity\",…} or "
      "{\"type\":\"relation\",…} object per line).";
  const std::pair<const char*, const char*> calls[] = {
      {"create_entities", R"({"entities":[{"name":"c","entityType":"T","observations":[]}]})"},
      {"create_relations", R"({"relations":[{"from":"a","to":"c","relationType":"r"}]})"},
      {"add_observations", R"({"observations":[{"entityName":"a","contents":["x"]}]})"},
      {"delete_entities", R"({"entityNames":["a"]})"},
      {"delete_observations", R"({"deletions":[{"entityName":"a","observations":["x"]}]})"},
      {"delete_relations", R"({"relations":[{"from":"a","to":"b","relationType":"r"}]})"},
      {"read_graph", "{}"},
      {"search_nodes", R"({"query":"a"})"},
      {"open_nodes", R"({"names":["a"]})"},
  };
  for (const auto& [tool, args] : calls) {
    const Json want{{"content", {{{"type", "text"}, {"text", message}}}}, {"isError", true}};
    EXPECT_EQ(CallText(tool, args).dump(), want.dump()) << tool;
    EXPECT_EQ(ReadMemory(), corrupt) << tool;
  }
  EXPECT_EQ(Names(root_), std::vector<std::string>{"memory.jsonl"});

  // A well-formed line of the wrong shape is just as fatal.
  const std::string foreign =
      "{\"type\":\"entity\",\"name\":\"a\",\"entityType\":\"T\",\"observations\":[],\"ts\":1}";
  WriteMemory(foreign);
  EXPECT_EQ(Err("create_entities", R"({"entities":[]})"),
            "The memory file " + MemoryPath() +
                " is corrupt: line 1: entity has an unexpected key \"ts\" (only type, name, "
                "entityType, observations "
                "are kept, so rewriting the file would lose it). Nothing was read or changed; "
                "repair or remove that "
                "line (the file is JSON Lines: one {\"type\":\"entity\",…} or "
                "{\"type\":\"relation\",…} object per "
                "line).");
  EXPECT_EQ(ReadMemory(), foreign);
}

TEST_F(ToolsTest, AMutationThatWouldExceedTheBoundChangesNothing) {
  options_.max_file_bytes = 100;
  Restart();
  EXPECT_EQ(
      Ok("create_entities", R"({"entities":[{"name":"a","entityType":"T","observations":[]}]})")
          .empty(),
      false);
  const std::string before = ReadMemory();
  EXPECT_EQ(
      Err("add_observations",
          R"({"observations":[{"entityName":"a","contents":["0123456789012345678901234567890123456789"]}]})"),
      "The memory file " + MemoryPath() +
          " would grow to 105 bytes, more than the 100 bytes this server allows; nothing was "
          "changed.");
  EXPECT_EQ(ReadMemory(), before);
}

// The worst case for the response size: a file of empty observations, each
// 3 bytes in the file and 12 in the pretty text (then escaped again). The
// reply must stay under 8 bytes per byte of file, so that a file at the
// default bound (8 MiB, localmemory.h) fits one agent frame (64 MiB,
// agent/protocol.h). Measured on 512 KiB to keep the test quick.
TEST_F(ToolsTest, RepliesStayUnderEightBytesPerByteOfFile) {
  static_assert(kMaxMaxFileBytes * 8 <= (64u << 20));
  const std::string head = R"({"type":"entity","name":"e","entityType":"t","observations":[)";
  std::string file = head;
  while (file.size() + 6 < (512u << 10)) file += file.size() == head.size() ? "\"\"" : ",\"\"";
  file += "]}";
  WriteMemory(file);
  Json req = {{"jsonrpc", "2.0"},
              {"id", 1},
              {"method", "tools/call"},
              {"params", {{"name", "read_graph"}, {"arguments", Json::object()}}}};
  auto outcome = session_->Handle(req);
  ASSERT_TRUE(outcome.call);
  const std::string reply = outcome.call->Run([](Json) {}).dump();
  EXPECT_EQ(reply.find("isError"), std::string::npos);
  EXPECT_LT(reply.size(), file.size() * 8) << reply.size() << " bytes for " << file.size();
  EXPECT_GT(reply.size(), file.size() * 5);  // the case is as bad as intended
}

TEST_F(ToolsTest, NamesWithNulAndUnicodeSurviveIntact) {
  Json entity{{"name", std::string("a\0b\xF0\x9F\x98\x80", 7)},
              {"entityType", "t\n"},
              {"observations", {"\x01"}}};
  Json r = Call("create_entities", Json{{"entities", {entity}}});
  EXPECT_EQ(r["structuredContent"]["entities"][0].dump(), entity.dump());
  EXPECT_EQ(
      ReadMemory(),
      std::string("{\"type\":\"entity\",\"name\":\"a\\u0000b\xF0\x9F\x98\x80\",\"entityType\":"
                  "\"t\\n\",\"observations\":[\"\\u0001\"]}"));
  // The error names the entity whole, NUL included (an exception would cut it).
  Json err =
      Call("add_observations",
           Json{{"observations",
                 {Json{{"entityName", std::string("x\0y", 3)}, {"contents", Json::array()}}}}});
  EXPECT_EQ(err["content"][0]["text"], std::string("Entity with name x\0y not found", 30));
}

TEST_F(ToolsTest, InvalidArgumentsGetTheSdksMessages) {
  // Texts as upstream's SDK words them (captured).
  EXPECT_EQ(Err("create_entities", "{}"),
            "MCP error -32602: Input validation error: Invalid arguments for tool create_entities: "
            "Invalid input: "
            "expected array, received undefined at entities");
  EXPECT_EQ(Err("create_entities", R"({"entities":[{"name":"b"}]})"),
            "MCP error -32602: Input validation error: Invalid arguments for tool create_entities: "
            "Invalid input: "
            "expected string, received undefined at entities[0].entityType\nInvalid input: "
            "expected array, received "
            "undefined at entities[0].observations");
  EXPECT_FALSE(Exists(MemoryPath()));
}

}  // namespace
}  // namespace sbx::servers::localmemory::testing

namespace sbx::servers::localmemory::testing {
namespace {

// The parsed graph is reused only for an identical file: a change made
// behind the server's back (same size, same timestamps) is seen at once,
// and so is a file that became corrupt after a clean read.
TEST_F(ToolsTest, AChangedFileIsReadAgainWhateverItsTimestamps) {
  const std::string a = R"({"type":"entity","name":"Ann","entityType":"cat","observations":[]})";
  const std::string b = R"({"type":"entity","name":"Bob","entityType":"dog","observations":[]})";
  WriteMemory(a);
  struct stat before {};
  ASSERT_EQ(::stat(MemoryPath().c_str(), &before), 0);
  EXPECT_NE(Ok("read_graph").find("\"Ann\""), std::string::npos);
  EXPECT_NE(Ok("search_nodes", R"({"query":"cat"})").find("\"Ann\""), std::string::npos);
  WriteMemory(b);
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, MemoryPath().c_str(), times, 0), 0);
  EXPECT_EQ(Ok("read_graph"),
            "{\n  \"entities\": [\n    {\n      \"name\": \"Bob\",\n      \"entityType\": \"dog\",\n"
            "      \"observations\": []\n    }\n  ],\n  \"relations\": []\n}");
  // A mutation starts from the file as it is now, and the next read sees it.
  Ok("add_observations", R"({"observations":[{"entityName":"Bob","contents":["barks"]}]})");
  EXPECT_EQ(ReadMemory(), R"({"type":"entity","name":"Bob","entityType":"dog","observations":["barks"]})");
  EXPECT_NE(Ok("open_nodes", R"({"names":["Bob"]})").find("\"barks\""), std::string::npos);
  WriteMemory(b.substr(0, b.size() - 1) + "x");
  const std::string corrupt =
      "The memory file " + MemoryPath() + " is corrupt: line 1: not valid JSON (syntax error";
  EXPECT_EQ(Err("read_graph").substr(0, corrupt.size()), corrupt);
}

}  // namespace
}  // namespace sbx::servers::localmemory::testing
