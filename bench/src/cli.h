// What every sandboxd-bench subcommand shares: its arguments and the
// running sandboxd it measures (found through the data directory).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "http_client.h"
#include "measure.h"

namespace bench {

struct Args {
  std::map<std::string, std::string> opts;
  std::vector<std::string> rest;  // after "--"

  std::string Str(const std::string& name, const std::string& def = "\x01") const {
    auto it = opts.find(name);
    if (it != opts.end()) return it->second;
    if (def == "\x01") throw std::runtime_error("missing --" + name);
    return def;
  }
  long Int(const std::string& name, long def = -1) const {
    auto it = opts.find(name);
    if (it != opts.end()) return std::stol(it->second);
    if (def < 0) throw std::runtime_error("missing --" + name);
    return def;
  }
};

inline Args Parse(int argc, char** argv, int first) {
  Args a;
  for (int i = first; i < argc; ++i) {
    std::string s = argv[i];
    if (s == "--") {
      for (++i; i < argc; ++i) a.rest.push_back(argv[i]);
      break;
    }
    if (s.rfind("--", 0) != 0 || i + 1 >= argc) throw std::runtime_error("bad argument " + s);
    a.opts[s.substr(2)] = argv[++i];
  }
  return a;
}

inline std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// A running sandboxd, found through its data directory.
struct Server {
  std::string data_dir, addr, key;
  explicit Server(const std::string& dir)
      : data_dir(dir), addr(Trim(ReadFile(dir + "/listen.addr"))), key(Trim(ReadFile(dir + "/admin.key"))) {
    if (addr.empty() || key.empty()) throw std::runtime_error("no listen.addr/admin.key in " + dir);
  }
  bool Released(const std::string& id) const { return !PathExists(data_dir + "/sandboxes/" + id); }
};

// GET /healthz: the pool's idle and target sizes (main.cc).
struct PoolState {
  long idle = 0, size = 0;
};
PoolState Health(Client& c);
// Polls /healthz until the pool holds `want` idle sandboxes; returns the
// wait in ms (main.cc).
double WaitPool(Client& c, long want, std::chrono::seconds timeout);

// Benchmark 7: a burst of rollouts with default flags (burst.cc).
int Burst(const Args& a);

// The subcommands of memory.cc, mcp.cc, servers_tree.cc, servers.cc,
// first_result.cc and report.cc.
int MemInfo(const Args& a);
int MemorySandboxd(const Args& a);
int MemoryDrain(const Args& a);
int MemoryProcs(const Args& a);
int McpTree(const Args& a);
int McpSeed(const Args& a);
int McpLoad(const Args& a);
int ServersTree(const Args& a);
int ServersSettings(const Args& a);
int ServersRun(const Args& a);
int FirstResult(const Args& a);  // first_result.cc
int Report(const Args& a);

}  // namespace bench
