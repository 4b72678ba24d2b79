// Many sessions mutating at once: every update must survive (upstream
// interleaves its load/save pairs and can lose some; this server serialises
// them), the file must stay well-formed, and readers must never see a
// partial file.
#include <atomic>
#include <thread>

#include "servers/localmemory/graph_file.h"
#include "servers/localmemory/test_support.h"

namespace sbx::servers::localmemory::testing {
namespace {

class ConcurrencyTest : public MemoryTest {};

TEST_F(ConcurrencyTest, ParallelMutationsLoseNoUpdate) {
  constexpr int kThreads = 8, kPerThread = 20;
  Ok("create_entities", R"({"entities":[{"name":"shared","entityType":"hub","observations":[]}]})");
  std::atomic<int> failures{0}, bad_reads{0};
  std::atomic<bool> writers_done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto session = NewSession();
      for (int i = 0; i < kPerThread; ++i) {
        const std::string name = "e" + std::to_string(t) + "_" + std::to_string(i);
        Json r = CallOn(
            *session, 1000 + i, "create_entities",
            Json{{"entities",
                  {Json{{"name", name}, {"entityType", "t"}, {"observations", Json::array()}}}}});
        if (r.value("isError", false) || r["structuredContent"]["entities"].size() != 1) ++failures;
        r = CallOn(*session, 2000 + i, "add_observations",
                   Json{{"observations", {Json{{"entityName", "shared"}, {"contents", {name}}}}}});
        if (r.value("isError", false)) ++failures;
        r = CallOn(*session, 3000 + i, "create_relations",
                   Json{{"relations",
                         {Json{{"from", name}, {"to", "shared"}, {"relationType", "links"}}}}});
        if (r.value("isError", false)) ++failures;
      }
    });
  }
  // A reader running alongside: every read sees a whole, parseable graph.
  std::thread reader([&] {
    auto session = NewSession();
    for (int i = 0; !writers_done.load(); ++i) {
      Json r = CallOn(*session, 5000 + i, "read_graph", Json::object());
      if (r.value("isError", false)) ++bad_reads;
    }
  });
  for (auto& t : threads) t.join();
  writers_done = true;
  reader.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(bad_reads.load(), 0);

  auto graph = ParseGraphFile(ReadMemory(), "m");
  ASSERT_TRUE(graph.ok()) << graph.error().message;
  EXPECT_EQ(graph->entities.size(), 1u + kThreads * kPerThread);
  EXPECT_EQ(graph->relations.size(), static_cast<std::size_t>(kThreads * kPerThread));
  EXPECT_EQ(graph->entities[0].name, "shared");
  EXPECT_EQ(graph->entities[0].observations.size(),
            static_cast<std::size_t>(kThreads * kPerThread));
  EXPECT_EQ(Names(root_), std::vector<std::string>{"memory.jsonl"});
}

}  // namespace
}  // namespace sbx::servers::localmemory::testing
