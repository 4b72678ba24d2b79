// The kernel's choice of process when a sandbox's memory cgroup runs out.
#pragma once

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace sbx {

// Called in a child the sandbox-agent forks, before execve (only
// async-signal-safe calls): raises the child's oom_score_adj so that, when
// the sandbox's memory cgroup is full, the OOM killer takes the sandbox's
// programs (and their descendants, which inherit it) before the agent that
// serves its tools. Without it the choice is by resident size alone, and an
// agent that has built its servers can outweigh a runaway program
// (observed: the agent killed first by a 160 MiB allocation loop). Raising
// the value needs no privilege, but the agent runs non-dumpable (so that
// the sandbox's processes cannot ptrace it or read its memory through
// /proc), which makes its /proc/self files root's: the child turns dumpable
// only for the open of its own file and back at once (the program it is
// about to exec is dumpable anyway). A failure leaves the default.
inline void PreferAsOomVictim() {
  ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  if (fd < 0) return;
  (void)!::write(fd, "500", 3);
  ::close(fd);
}

}  // namespace sbx
