// sandbox-agent: pid 1 of one sandbox's jail. sandboxd starts it in fresh
// namespaces (jail/spawn.h); it finishes building its jail around itself,
// then serves sandboxd over the socket it was handed.
#include <cstdio>
#include <cstring>

#include "agent/agent_loop.h"
#include "jail/enter.h"

int main(int argc, char** argv) {
  if (argc != 2 || std::strcmp(argv[1], "--jail") != 0) {
    std::fprintf(stderr, "sandbox-agent is started by sandboxd (usage: sandbox-agent --jail)\n");
    return 64;
  }
  auto spec = sbx::jail::ReadSpec();
  if (!spec) {
    sbx::jail::ReportFailure(spec.error().message);
    return 1;
  }
  if (auto s = sbx::jail::EnterJail(*spec); !s) {
    sbx::jail::ReportFailure(s.error().message);
    return 1;
  }
  return sbx::agent::RunAgent(sbx::jail::kListenFd);
}
