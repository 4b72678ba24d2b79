// The first contact with a fresh sandbox (issue 13, point 5): acquire, MCP
// initialize + notifications/initialized, the first tools/call, each timed,
// sample after sample; every sample starts with the pool full, so each
// acquire is a hand-over of a jail nobody has talked to yet. A second
// tools/call on the same session is "any later call", to compare with.
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "http_client.h"
#include "load.h"
#include "mcp_client.h"
#include "measure.h"

namespace bench {
namespace {

using Json = nlohmann::json;
using namespace std::chrono_literals;

// A call that needs nothing seeded; its whole reply is known.
constexpr const char* kTool = "list_allowed_directories";
constexpr const char* kExpected = "Allowed directories:\n/data";

struct Sample {
  double acquire = 0, initialize = 0, initialized = 0, first = 0, total = 0, later = 0;
};

std::string CallBody(int id) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
              {"params", {{"name", kTool}, {"arguments", Json::object()}}}}
      .dump();
}

void CheckCall(const Reply& r, const char* which) {
  std::string text = ToolResultText(r);
  if (text != kExpected) throw std::runtime_error(std::string(which) + " tools/call answered " + r.body.substr(0, 300));
}

// One sample on kept-alive connections: `api` for the REST calls, `mcp` for
// the gateway. Releases the sandbox (untimed) and returns its id.
Sample One(const Server& s, Client& api, RawConn& mcp, std::string& id) {
  Sample out;
  auto t0 = Clock::now();
  auto r = api.Post("/local-sandbox", R"({"server_names": ["filesystem"]})");
  auto t1 = Clock::now();
  if (r.status != 201) throw std::runtime_error("acquire answered " + std::to_string(r.status) + ": " + r.body);
  Json j = Json::parse(r.body);
  id = j.at("local_sandbox_id").get<std::string>();
  std::string target = TargetOf(j.at("servers").at(0).at("mcp_server_url").get<std::string>());

  Reply init = mcp.RoundTrip(BuildRequest("POST", target, s.addr, McpHeaders(""), InitializeMessage(1).dump()));
  auto t2 = Clock::now();
  std::string session = init.Header("Mcp-Session-Id");
  if (init.status != 200 || session.empty() || init.body.find("\"serverInfo\"") == std::string::npos)
    throw std::runtime_error("initialize answered " + std::to_string(init.status) + ": " + init.body.substr(0, 300));
  Reply note = mcp.RoundTrip(BuildRequest("POST", target, s.addr, McpHeaders(session), InitializedNote().dump()));
  auto t3 = Clock::now();
  if (note.status != 202) throw std::runtime_error("notifications/initialized answered " + std::to_string(note.status));
  Reply first = mcp.RoundTrip(BuildRequest("POST", target, s.addr, McpHeaders(session), CallBody(2)));
  auto t4 = Clock::now();
  CheckCall(first, "the first");
  Reply later = mcp.RoundTrip(BuildRequest("POST", target, s.addr, McpHeaders(session), CallBody(3)));
  auto t5 = Clock::now();
  CheckCall(later, "the second");

  auto d = api.Delete("/local-sandbox/" + id);
  if (d.status != 200) throw std::runtime_error("release answered " + std::to_string(d.status) + ": " + d.body);
  out.acquire = MsSince(t0, t1);
  out.initialize = MsSince(t1, t2);
  out.initialized = MsSince(t2, t3);
  out.first = MsSince(t3, t4);
  out.total = MsSince(t0, t4);
  out.later = MsSince(t4, t5);
  return out;
}

}  // namespace

int FirstResult(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  long n = a.Int("samples", 200), warmup = a.Int("warmup", 5), gap_ms = a.Int("gap-ms", 5);
  std::string samples_out = a.Str("samples-out", "");
  Client api(s.addr, s.key);
  RawConn mcp(s.addr);
  long size = Health(api).size;
  std::vector<double> acquire, initialize, initialized, first, total, later;
  std::string last_id;
  for (long i = 0; i < warmup + n; ++i) {
    // The previous sandbox gone and (with a pool) the pool full again: this
    // sample's acquire is a hand-over, and no refill of ours runs at its start.
    auto tw = Clock::now();
    while (!last_id.empty() && !s.Released(last_id)) {
      if (Clock::now() - tw > 120s) throw std::runtime_error("sandbox " + last_id + " was not released in time");
      std::this_thread::sleep_for(1ms);
    }
    if (size > 0) WaitPool(api, size, 120s);
    std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
    Sample x = One(s, api, mcp, last_id);
    if (i < warmup) continue;
    acquire.push_back(x.acquire);
    initialize.push_back(x.initialize);
    initialized.push_back(x.initialized);
    first.push_back(x.first);
    total.push_back(x.total);
    later.push_back(x.later);
  }
  if (!samples_out.empty()) {
    std::ofstream f(samples_out);
    f << "acquire_ms initialize_ms initialized_ms first_call_ms total_ms later_call_ms\n";
    for (std::size_t i = 0; i < total.size(); ++i)
      f << acquire[i] << ' ' << initialize[i] << ' ' << initialized[i] << ' ' << first[i] << ' ' << total[i] << ' '
        << later[i] << '\n';
  }
  struct Phase {
    const char* key;
    const char* what;
    std::vector<double>* samples;
  };
  const Phase phases[] = {
      {"first_acquire", "POST /local-sandbox -> 201", &acquire},
      {"first_initialize", "initialize -> 200", &initialize},
      {"first_initialized", "notifications/initialized -> 202", &initialized},
      {"first_call", "first tools/call -> result", &first},
      {"first_total", "acquire -> first result (total)", &total},
      {"first_later_call", "second tools/call (a later call)", &later},
  };
  for (const auto& p : phases) {
    auto sum = Summarize(*p.samples);
    std::printf("first pool=%ld  %-34s %s\n", size, p.what, Describe(sum).c_str());
    out.PutSummary(p.key, sum);
  }
  return 0;
}

}  // namespace bench
