// The last steps of entering a jail, run by the jailed process on itself
// after its namespaces and mounts are in place: resource limits, no new
// privileges, no capabilities, and a seccomp filter. Each call affects only
// the calling process (and what it later forks or execs); none can be undone.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <vector>

#include "core/result.h"

namespace sbx::jail {

struct Rlimit {
  int resource = 0;     // RLIMIT_*
  rlim_t soft = 0;
  rlim_t hard = 0;
};

// The defaults for tool processes: no core dumps, at most 4096 open files,
// an 8 MiB stack. Never above the caller's current hard limits (a jail
// without CAP_SYS_RESOURCE could not raise them): each value is clamped, and
// the stack's hard limit is left as it is. Configured limits (file size,
// processes...) are the caller's to append.
std::vector<Rlimit> DefaultRlimits();
// Sets each limit in order; stops at the first that fails and names it
// (kInvalidArgument when soft exceeds hard).
Status ApplyRlimits(const std::vector<Rlimit>& limits);

// prctl(PR_SET_NO_NEW_PRIVS): setuid bits and file capabilities stop working.
Status SetNoNewPrivs();

// Clears the bounding, ambient, inheritable, permitted and effective sets and
// locks the securebits so that exec as uid 0 does not regain capabilities.
// Needs CAP_SETPCAP (for the securebits and the bounding set). The result is
// checked through capget and prctl rather than /proc/self/status, which the
// jail may not have. A second call succeeds and changes nothing.
Status DropAllCapabilities();

// Installs the seccomp filter (libseccomp) refusing with EPERM the calls a
// jailed process must never make: mount and the new mount API, pivot_root,
// chroot, umount, ptrace and process_vm_*, kexec, module loading, bpf,
// perf_event_open, keyctl/add_key/request_key, setns/unshare and namespace
// flags on clone (clone3 answers ENOSYS so libc falls back to clone),
// reboot, swap, clock/time setting, open_by_handle_at, userfaultfd,
// io_uring, iopl/ioperm, acct, quotactl, syslog, personality changes other
// than the default. Every other call is allowed. Foreign architectures (x32,
// i386 via int 0x80) kill the whole process with SIGSYS: the filter holds
// only the native one. Applies to all threads of the caller (TSYNC).
// Needs no_new_privs (or CAP_SYS_ADMIN) and does not set no_new_privs itself:
// that is SetNoNewPrivs' step, and without either the load fails and says so.
Status InstallSeccompFilter();

}  // namespace sbx::jail
