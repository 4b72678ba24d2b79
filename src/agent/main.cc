// sandbox-agent: pid 1 of one sandbox's jail. sandboxd starts it in fresh
// namespaces (jail/spawn.h); it finishes building its jail around itself,
// then serves sandboxd over the socket it was handed.
//
// `sandbox-agent --check-server-settings FILE` only checks a deployment's
// server settings, and `sandbox-agent --list-servers` prints the servers this
// build has (sandboxd runs both at startup; the servers live here).
#include <malloc.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "agent/agent_loop.h"
#include "jail/enter.h"
#include "pdf/client.h"
#include "servers/registry.h"

namespace {

int CheckServerSettings(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  auto settings = sbx::Json::parse(text.str(), nullptr, false);
  if (!in || settings.is_discarded()) {
    std::fprintf(stderr, "not a readable JSON file\n");
    return 1;
  }
  if (auto s = sbx::servers::ValidateSettings(settings); !s) {
    std::fprintf(stderr, "%s\n", s.error().message.c_str());
    return 1;
  }
  return 0;
}

int ListServers() {
  for (const auto& name : sbx::servers::Names()) std::printf("%s\n", name.c_str());
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--check-server-settings") == 0) return CheckServerSettings(argv[2]);
  if (argc == 2 && std::strcmp(argv[1], "--list-servers") == 0) return ListServers();
  if (argc != 2 || std::strcmp(argv[1], "--jail") != 0) {
    std::fprintf(stderr, "sandbox-agent is started by sandboxd (usage: sandbox-agent --jail)\n");
    return 64;
  }
  // Keep up to 1 MiB of freed heap per arena instead of glibc's 128 KiB
  // default: a tool call's replies (a listing, a file) are tens of KiB that
  // are freed at the end of each call, and trimming them made the next call
  // fault the same pages back in (a page fault plus a memory-cgroup charge
  // per page). An idle agent's footprint is unchanged: it allocates little.
  ::mallopt(M_TRIM_THRESHOLD, 1 << 20);
  ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
  // The PDF helper lives beside this binary, a path the jail hides: keep an
  // O_PATH, close-on-exec descriptor of it, which only the helper's own
  // children use as their exec target (pdf/client.h).
  sbx::pdf::UseHelperBesideExecutable();
  auto spec = sbx::jail::ReadSpec();
  if (!spec) {
    sbx::jail::ReportFailure(spec.error().message);
    return 1;
  }
  if (auto s = sbx::jail::EnterJail(*spec); !s) {
    sbx::jail::ReportFailure(s.error().message);
    return 1;
  }
  sbx::servers::Configure(spec->server_settings);
  return sbx::agent::RunAgent(sbx::jail::kListenFd);
}
