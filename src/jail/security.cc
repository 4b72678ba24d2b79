#include "jail/security.h"

#include <linux/capability.h>
#include <linux/securebits.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

namespace sbx::jail {
namespace {

Error Errno(const std::string& what, int err = errno) {
  return MakeError(ErrorCode::kInternal, what + ": " + std::strerror(err));
}

// ---- resource limits ----

std::string RlimitName(int resource) {
  static constexpr std::pair<int, const char*> kNames[] = {
      {RLIMIT_CORE, "RLIMIT_CORE"},   {RLIMIT_NOFILE, "RLIMIT_NOFILE"},
      {RLIMIT_STACK, "RLIMIT_STACK"}, {RLIMIT_FSIZE, "RLIMIT_FSIZE"},
      {RLIMIT_NPROC, "RLIMIT_NPROC"}, {RLIMIT_AS, "RLIMIT_AS"},
      {RLIMIT_CPU, "RLIMIT_CPU"},     {RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK"},
  };
  for (const auto& [r, name] : kNames) {
    if (r == resource) return name;
  }
  return "resource " + std::to_string(resource);
}

// ---- capabilities ----

// The classic securebits (0..7) are ours to set; later kernels define more
// (exec restrictions) which we leave as the caller set them.
constexpr int kClassicSecurebits = 0xff;
constexpr int kSecurebits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                            SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                            SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;

// The kernel's last capability may be newer than our headers' CAP_LAST_CAP.
// Without /proc (not every jail mounts it) the bounding set tells us: it
// answers EINVAL past the last capability.
int LastCap() {
  if (FILE* f = std::fopen("/proc/sys/kernel/cap_last_cap", "re")) {
    int last = -1;
    bool ok = std::fscanf(f, "%d", &last) == 1 && last >= 0 && last < 64;
    std::fclose(f);
    if (ok) return last;
  }
  int cap = 0;
  while (cap < 64 && ::prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0) ++cap;
  return cap - 1;
}

// Checks through the kernel, not /proc/self/status: inside a jail /proc may
// be missing, or be a directory the jailed code planted earlier.
Status VerifyNoCapabilities(int last_cap) {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return Errno("capget");
  for (const auto& d : data) {
    if (d.effective || d.permitted || d.inheritable)
      return MakeError(ErrorCode::kInternal, "capabilities remain after capset");
  }
  for (int cap = 0; cap <= last_cap; ++cap) {
    if (::prctl(PR_CAPBSET_READ, cap, 0, 0, 0) > 0)
      return MakeError(ErrorCode::kInternal,
                       "capability " + std::to_string(cap) + " remains in the bounding set");
    if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0) > 0)
      return MakeError(ErrorCode::kInternal,
                       "capability " + std::to_string(cap) + " remains in the ambient set");
  }
  int bits = ::prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
  if (bits < 0 || (bits & kClassicSecurebits) != kSecurebits)
    return MakeError(ErrorCode::kInternal, "securebits did not stick");
  return Ok();
}

// ---- seccomp ----

// Refused with EPERM wherever the native architecture has them.
// clang-format off
constexpr const char* kRefusedCalls[] = {
    // mounts and the root
    "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount", "fspick",
    "move_mount", "open_tree", "mount_setattr",
    // namespaces; clone's namespace flags are handled separately
    "unshare", "setns",
    // other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    // the kernel and the machine
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "create_module", "bpf", "perf_event_open", "reboot", "swapon", "swapoff", "iopl", "ioperm",
    "acct", "quotactl", "quotactl_fd", "syslog", "lookup_dcookie", "nfsservctl", "vhangup",
    "uselib", "fanotify_init", "setdomainname", "sethostname",
    // keyrings are not namespaced
    "keyctl", "add_key", "request_key",
    // neither is the real-time clock
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "stime",
    // file handles reach files outside the jail's mount tree
    "open_by_handle_at", "name_to_handle_at",
    // much kernel attack surface for no tool's benefit
    "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
};
// clang-format on

// CLONE_NEWTIME is absent on purpose: for clone() that bit (0x80) lies in
// CSIGNAL and is read as part of the exit signal; time namespaces are only
// reachable through clone3 (ENOSYS here) and unshare (refused).
constexpr uint64_t kNamespaceFlags[] = {CLONE_NEWNS,  CLONE_NEWUTS, CLONE_NEWIPC,   CLONE_NEWUSER,
                                        CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP};

#if defined(__s390__) || defined(__s390x__)
constexpr unsigned kCloneFlagsArg = 1;  // s390 passes the stack first
#else
constexpr unsigned kCloneFlagsArg = 0;
#endif

struct SeccompRelease {
  void operator()(void* ctx) const { seccomp_release(ctx); }
};
using SeccompCtx = std::unique_ptr<void, SeccompRelease>;

// libseccomp returns negative errno values.
Status Check(int rc, const std::string& what) {
  if (rc < 0) return Errno(what, -rc);
  return Ok();
}

Status AddRules(void* ctx) {
  for (const char* name : kRefusedCalls) {
    int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, name);
    if (nr < 0) continue;  // not a call on this architecture (e.g. stime on x86_64)
    if (auto s = Check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0), name); !s) return s;
  }
  // glibc tries clone3 first and falls back to clone on ENOSYS; clone3 passes
  // its flags in memory, which a filter cannot read, so it must go.
  if (auto s = Check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0), "clone3");
      !s)
    return s;
  for (uint64_t flag : kNamespaceFlags) {
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_CMP(kCloneFlagsArg, SCMP_CMP_MASKED_EQ, flag, flag));
    if (auto s = Check(rc, "clone"); !s) return s;
  }
  // personality(0) (PER_LINUX) and the query personality(0xffffffff) stay;
  // every other persona (READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE, PER_LINUX32...)
  // is refused. A rule may compare an argument only once, so "neither all
  // zeros nor all ones" becomes "some bit is set whose cyclic neighbour is
  // clear", one rule per bit. The kernel reads the argument as 32 bits.
  for (unsigned bit = 0; bit < 32; ++bit) {
    uint32_t set = 1u << bit, clear = 1u << ((bit + 1) % 32);
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1,
                              SCMP_A0_32(SCMP_CMP_MASKED_EQ, set | clear, set));
    if (auto s = Check(rc, "personality"); !s) return s;
  }
  return Ok();
}

}  // namespace

std::vector<Rlimit> DefaultRlimits() {
  auto clamp = [](int resource, rlim_t want) {
    rlimit cur{};
    if (::getrlimit(resource, &cur) != 0) return want;
    return cur.rlim_max == RLIM_INFINITY || want < cur.rlim_max ? want : cur.rlim_max;
  };
  rlimit stack{RLIM_INFINITY, RLIM_INFINITY};
  ::getrlimit(RLIMIT_STACK, &stack);
  rlim_t nofile = clamp(RLIMIT_NOFILE, 4096);
  return {
      {RLIMIT_CORE, 0, 0},
      {RLIMIT_NOFILE, nofile, nofile},
      {RLIMIT_STACK, clamp(RLIMIT_STACK, rlim_t{8} << 20), stack.rlim_max},
  };
}

Status ApplyRlimits(const std::vector<Rlimit>& limits) {
  for (const auto& l : limits) {
    rlimit r{l.soft, l.hard};
    if (::setrlimit(l.resource, &r) != 0) {
      int err = errno;
      Error e = Errno("setrlimit " + RlimitName(l.resource) + " " + std::to_string(l.soft) + "/" +
                          std::to_string(l.hard),
                      err);
      if (err == EINVAL) e.code = ErrorCode::kInvalidArgument;
      return e;
    }
  }
  return Ok();
}

Status SetNoNewPrivs() {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return Errno("PR_SET_NO_NEW_PRIVS");
  if (::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
    return MakeError(ErrorCode::kInternal, "no_new_privs did not stick");
  return Ok();
}

Status DropAllCapabilities() {
  // Securebits first: setting them needs CAP_SETPCAP, which goes below.
  // Skipped when already in place so that a second call succeeds.
  int bits = ::prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
  if (bits < 0) return Errno("PR_GET_SECUREBITS");
  int want = (bits & ~kClassicSecurebits) | kSecurebits;
  if (bits != want && ::prctl(PR_SET_SECUREBITS, want, 0, 0, 0) != 0)
    return Errno("PR_SET_SECUREBITS (needs CAP_SETPCAP)");

  int last_cap = LastCap();
  for (int cap = 0; cap <= last_cap; ++cap) {
    int held = ::prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
    if (held < 0 && errno == EINVAL) break;  // past the kernel's last capability
    if (held < 0) return Errno("PR_CAPBSET_READ " + std::to_string(cap));
    if (held == 1 && ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
      return Errno("PR_CAPBSET_DROP " + std::to_string(cap));
  }

  // EINVAL: a kernel without ambient capabilities (before 4.3) has none to clear.
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
    return Errno("PR_CAP_AMBIENT_CLEAR_ALL");

  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capset, &header, data) != 0) return Errno("capset");

  return VerifyNoCapabilities(last_cap);
}

Status InstallSeccompFilter() {
  SeccompCtx ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) return MakeError(ErrorCode::kInternal, "seccomp_init failed");
  struct Attr {
    scmp_filter_attr attr;
    uint32_t value;
    const char* why;
  };
  const Attr attrs[] = {
      // Report the kernel's errno from seccomp_load, not a generic ECANCELED.
      {SCMP_FLTATR_API_SYSRAWRC, 1, "SYSRAWRC"},
      // no_new_privs is SetNoNewPrivs' job; the filter must not set it
      // behind the caller's back, hiding a missing step.
      {SCMP_FLTATR_CTL_NNP, 0, "CTL_NNP"},
      // Every thread, not only the caller, gets the filter.
      {SCMP_FLTATR_CTL_TSYNC, 1, "CTL_TSYNC"},
      // The context holds only the native architecture, so i386 (int 0x80)
      // and x32 (the x86_64 numbers with bit 30 set, which libseccomp checks
      // separately) reach this action: the whole process dies of SIGSYS.
      {SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS, "ACT_BADARCH"},
  };
  for (const auto& a : attrs) {
    if (auto s = Check(seccomp_attr_set(ctx.get(), a.attr, a.value),
                       std::string("seccomp_attr_set ") + a.why);
        !s)
      return s;
  }
  if (auto s = AddRules(ctx.get()); !s) return s;
  int rc = seccomp_load(ctx.get());
  if (rc == -EACCES)
    return MakeError(ErrorCode::kInternal,
                     "seccomp_load: no_new_privs is not set and CAP_SYS_ADMIN is not held "
                     "(call SetNoNewPrivs first)");
  if (rc > 0)  // TSYNC names the thread that could not take the filter
    return MakeError(ErrorCode::kInternal,
                     "seccomp_load: thread " + std::to_string(rc) + " has a conflicting filter");
  return Check(rc, "seccomp_load");
}

}  // namespace sbx::jail
