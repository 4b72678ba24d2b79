// The MCP tools/call benchmark of the filesystem server (see README.md): the
// tree it serves, seeding sandboxes with it, and the measured runs
// (mcp_client.h: sessions on the gateway, the epoll load generator).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "http_client.h"
#include "mcp_client.h"
#include "measure.h"

namespace bench {
namespace {

using Json = nlohmann::json;

constexpr const char* kFile4k = "file-4k.txt";
constexpr const char* kDir1000 = "dir-1000";

void WriteNew(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.flush()) throw std::runtime_error("cannot write " + path);
}

// ---------------------------------------------------------------- mcp-tree
// The tree both servers serve: a 4 KiB text file and a directory of 1,000
// entries (900 small files, 100 empty directories).
int McpTreeImpl(const Args& a) {
  std::string dir = a.Str("dir");
  std::filesystem::create_directories(dir + "/" + kDir1000);
  std::string text;
  for (int i = 0; text.size() < 4096; ++i) {
    char line[96];
    std::snprintf(line, sizeof line, "%04d the quick brown fox jumps over the lazy dog, 0123456789 abcdefghij\n", i);
    text += line;
  }
  text.resize(4095);
  text += '\n';
  WriteNew(dir + "/" + kFile4k, text);
  for (int i = 0; i < 1000; ++i) {
    char name[32];
    if (i % 10 == 9) {
      std::snprintf(name, sizeof name, "sub-%04d", i);
      std::filesystem::create_directory(dir + "/" + kDir1000 + "/" + name);
    } else {
      std::snprintf(name, sizeof name, "entry-%04d.txt", i);
      WriteNew(dir + "/" + kDir1000 + "/" + name, std::string("entry ") + std::to_string(i) + "\n");
    }
  }
  std::printf("mcp tree in %s: %s (%zu bytes), %s/ (1000 entries)\n", dir.c_str(), kFile4k, text.size(), kDir1000);
  return 0;
}

// ---------------------------------------------------------------- mcp-seed
// Acquires `--sandboxes` sandboxes with the filesystem server, uploads the
// seed archive to each and initializes it; writes "<id> <mcp_server_url>"
// lines to --urls-out.
int McpSeedImpl(const Args& a) {
  Server s(a.Str("data-dir"));
  std::string seed = ReadFile(a.Str("seed"));
  if (seed.empty()) throw std::runtime_error("empty seed archive " + a.Str("seed"));
  long k = a.Int("sandboxes", 1);
  std::ofstream urls(a.Str("urls-out"));
  Client c(s.addr, s.key);
  for (long i = 0; i < k; ++i) {
    SeededSandbox sb = SeedSandbox(c, {"filesystem"}, seed);
    urls << sb.id << ' ' << sb.urls.at("filesystem") << '\n';
    std::printf("mcp seed %s: acquire %.1f ms, upload-url + PUT %zu bytes %.1f ms, initialize %.1f ms\n", sb.id.c_str(),
                sb.acquire_ms, seed.size(), sb.upload_ms, sb.initialize_ms);
  }
  if (!urls.flush()) throw std::runtime_error("cannot write " + a.Str("urls-out"));
  return 0;
}

// ---------------------------------------------------------------- mcp-load

// What a tools/call reply must hold, checked once per session before the load.
void CheckFirstReply(const Reply& r, const Args& a) {
  if (r.status != 200) throw std::runtime_error("tools/call answered " + std::to_string(r.status) + ": " + r.body);
  Json j = Json::parse(r.body);
  if (!j.contains("result") || j["result"].value("isError", false))
    throw std::runtime_error("tools/call failed: " + r.body.substr(0, 500));
  std::string text = j["result"].at("content").at(0).at("text").get<std::string>();
  std::string file = a.Str("expect-file", "");
  if (!file.empty() && text != ReadFile(file))
    throw std::runtime_error("read_text_file did not return the content of " + file + ": " + text.substr(0, 200));
  long lines = a.Int("expect-lines", 0);
  if (lines > 0) {
    long got = static_cast<long>(std::count(text.begin(), text.end(), '\n')) + (text.empty() ? 0 : 1);
    if (got != lines)
      throw std::runtime_error("expected " + std::to_string(lines) + " lines, got " + std::to_string(got) + ": " +
                               text.substr(0, 200));
  }
}

int McpLoadImpl(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  CallRun run;
  run.label = a.Str("label");
  run.tool = a.Str("tool");
  run.n = a.Int("n", 1);
  run.calls = a.Int("calls", 5000);
  run.warmup_per_conn = a.Int("warmup", 200);
  run.sandboxd_pid = static_cast<pid_t>(a.Int("sandboxd-pid", 0));
  run.cgroup_parent = a.Str("cgroup-parent", "");
  run.key_prefix = "mcp_" + run.label + "_n" + std::to_string(run.n);
  if (run.tool != "healthz") {
    run.arguments = Json::parse(a.Str("args", "{}"));
    std::ifstream in(a.Str("urls"));
    std::string id, url;
    while (in >> id >> url) run.sandboxes.push_back({id, TargetOf(url)});
    if (run.sandboxes.empty()) throw std::runtime_error("no sandbox URLs in " + a.Str("urls"));
    long use = std::min<long>(a.Int("sandboxes", 1), static_cast<long>(run.sandboxes.size()));
    run.sandboxes.resize(static_cast<std::size_t>(std::max(use, 1L)));
    run.check_first = [&](const Reply& r) { CheckFirstReply(r, a); };
  }
  return RunCalls(s, out, run) == 0 ? 0 : 1;
}

}  // namespace

int McpTree(const Args& a) { return McpTreeImpl(a); }
int McpSeed(const Args& a) { return McpSeedImpl(a); }
int McpLoad(const Args& a) { return McpLoadImpl(a); }

}  // namespace bench
