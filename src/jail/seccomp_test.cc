// The seccomp filter: every refused call is tried in a jailed child and in an
// unjailed baseline child (an EPERM the kernel gives anyway cannot pass for
// the filter's); calls tools need keep working.
#include "jail/security_test_util.h"

namespace sbx::jail {
namespace {

using namespace testing;  // NOLINT: the child-running helpers

// ---- probes: one attempt each, returning <0 with errno on failure ----

long Fd(long fd) {
  if (fd >= 0) ::close(static_cast<int>(fd));
  return fd < 0 ? -1 : 0;
}

// fork-like clone: the new process leaves at once; the caller reaps it.
long Reap(long pid) {
  if (pid == 0) ::_exit(0);
  if (pid > 0) ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
  return pid < 0 ? -1 : 0;
}

template <unsigned long kFlags>
long CloneWith() {
  return Reap(::syscall(SYS_clone, kFlags | SIGCHLD, 0, 0, 0, 0));
}

struct CloneArgs {  // struct clone_args, version 0
  uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

template <uint64_t kFlags>
long Clone3With() {
  CloneArgs args{};
  args.flags = kFlags;
  args.exit_signal = SIGCHLD;
  return Reap(::syscall(SYS_clone3, &args, sizeof args));
}

// A process to aim ptrace and process_vm_* at. Not the test's parent: an
// unfiltered baseline attach would leave it stopped.
volatile int g_secret = 42;
long AtVictim(long (*attempt)(pid_t)) {
  pid_t victim = ::fork();
  if (victim == 0) {
    ::pause();
    ::_exit(0);
  }
  long rc = attempt(victim);
  int err = errno;
  ::kill(victim, SIGKILL);
  ::waitpid(victim, nullptr, 0);
  errno = err;
  return rc;
}

long VmRead(pid_t victim) {
  int value = 0;
  iovec local{&value, sizeof value};
  iovec remote{const_cast<int*>(&g_secret), sizeof value};
  return ::syscall(SYS_process_vm_readv, victim, &local, 1, &remote, 1, 0);
}

long VmWrite(pid_t victim) {
  int value = 7;
  iovec local{&value, sizeof value};
  iovec remote{const_cast<int*>(&g_secret), sizeof value};
  return ::syscall(SYS_process_vm_writev, victim, &local, 1, &remote, 1, 0);
}

// Back into the test process's mount namespace, out of the isolated one.
long Setns() {
  std::string ns = "/proc/" + std::to_string(::getppid()) + "/ns/mnt";
  int fd = ::open(ns.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long rc = ::syscall(SYS_setns, fd, CLONE_NEWNS);
  int err = errno;
  ::close(fd);
  errno = err;
  return rc;
}

long BpfMap() {
  bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.map_type = BPF_MAP_TYPE_ARRAY;
  attr.key_size = 4;
  attr.value_size = 4;
  attr.max_entries = 1;
  return Fd(::syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr));
}

long PerfEvent() {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.disabled = 1;
  return Fd(::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
}

// "Shocker": open the root directory of the file system by inode number.
long OpenByHandle() {
  alignas(file_handle) unsigned char buf[sizeof(file_handle) + 8] = {};
  auto* handle = reinterpret_cast<file_handle*>(buf);
  handle->handle_bytes = 8;
  handle->handle_type = 1;  // FILEID_INO32_GEN
  uint32_t ino_gen[2] = {2, 0};
  std::memcpy(buf + sizeof(file_handle), ino_gen, sizeof ino_gen);
  int mount_fd = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  long rc = ::syscall(SYS_open_by_handle_at, mount_fd, handle, O_RDONLY);
  int err = errno;
  ::close(mount_fd);
  errno = err;
  return Fd(rc);
}

long NameToHandle() {
  alignas(file_handle) unsigned char buf[sizeof(file_handle) + MAX_HANDLE_SZ] = {};
  auto* handle = reinterpret_cast<file_handle*>(buf);
  handle->handle_bytes = MAX_HANDLE_SZ;
  int mount_id = 0;
  return ::syscall(SYS_name_to_handle_at, AT_FDCWD, "/", handle, &mount_id, 0);
}

long IoUring() {
  io_uring_params params{};
  return Fd(::syscall(SYS_io_uring_setup, 1, &params));
}

long PidfdGetfd() {
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, ::getpid(), 0));
  if (pidfd < 0) return -1;
  long rc = Fd(::syscall(SYS_pidfd_getfd, pidfd, 0, 0));
  int err = errno;
  ::close(pidfd);
  errno = err;
  return rc;
}

long BadTimeval() {
  timeval tv{0, -1};  // invalid, so an unfiltered baseline leaves the clock alone
  return ::syscall(SYS_settimeofday, &tv, nullptr);
}

long BadTimespec() {
  timespec ts{0, -1};
  return ::syscall(SYS_clock_settime, CLOCK_REALTIME, &ts);
}

long ReadTimex(bool clock) {
  timex tx{};
  return clock ? ::syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx) : ::syscall(SYS_adjtimex, &tx);
}

#if defined(__x86_64__)
// getpid through the i386 entry point.
long Int80Getpid() {
  long rc;
  asm volatile("int $0x80" : "=a"(rc) : "a"(20L) : "memory", "r8", "r9", "r10", "r11");
  if (rc == ::getpid()) return 0;
  errno = rc < 0 ? static_cast<int>(-rc) : EPROTO;
  return -1;
}
#endif

// ---- probes that must keep working ----

long ForkAndWait(const std::function<void()>& in_child, int want_exit) {
  pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    in_child();
    ::_exit(want_exit);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == want_exit) return 0;
  errno = ECHILD;
  return -1;
}

long Fork() {
  return ForkAndWait([] {}, 7);
}

long ExecTrue() {
  return ForkAndWait(
      [] {
        ::execl("/bin/true", "true", static_cast<char*>(nullptr));
        ::_exit(127);
      },
      0);
}

long SpawnTrue() {
  pid_t pid;
  char* argv[] = {const_cast<char*>("true"), nullptr};
  if (int rc = ::posix_spawn(&pid, "/bin/true", nullptr, nullptr, argv, environ); rc != 0) {
    errno = rc;
    return -1;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : (errno = ECHILD, -1);
}

long Thread() {
  pthread_t thread;
  auto run = [](void*) -> void* { return reinterpret_cast<void*>(uintptr_t{7}); };
  if (int rc = ::pthread_create(&thread, nullptr, run, nullptr); rc != 0) {
    errno = rc;
    return -1;
  }
  void* result = nullptr;
  ::pthread_join(thread, &result);
  return result == reinterpret_cast<void*>(uintptr_t{7}) ? 0 : (errno = EPROTO, -1);
}

long OpenReadWrite() {
  int fd = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[64];
  ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  if (n <= 0) return -1;
  int p[2];
  if (::pipe(p) != 0) return -1;
  bool ok = ::write(p[1], buf, n) == n && ::read(p[0], buf, sizeof buf) == n;
  ::close(p[0]);
  ::close(p[1]);
  return ok ? 0 : -1;
}

// ---- the probe table ----

struct Probe {
  const char* name;
  long (*attempt)();
  const char* jailed;  // the outcome under the filter
};

std::ostream& operator<<(std::ostream& os, const Probe& p) { return os << p.name; }

const Probe kRefused[] = {
    {"mount_tmpfs", [] { return ::syscall(SYS_mount, "none", "/mnt", "tmpfs", 0, nullptr); },
     "EPERM"},
    {"umount_proc", [] { return ::syscall(SYS_umount2, "/proc", MNT_DETACH); }, "EPERM"},
    {"pivot_root", [] { return ::syscall(SYS_pivot_root, "/tmp", "/tmp"); }, "EPERM"},
    {"chroot", [] { return ::syscall(SYS_chroot, "/"); }, "EPERM"},
    {"fsopen", [] { return Fd(::syscall(SYS_fsopen, "tmpfs", 0)); }, "EPERM"},
    {"open_tree_clone",
     [] { return Fd(::syscall(SYS_open_tree, AT_FDCWD, "/", 1 /* OPEN_TREE_CLONE */)); }, "EPERM"},
    {"mount_setattr", [] { return ::syscall(SYS_mount_setattr, -1, "", 0, nullptr, 0); }, "EPERM"},
    {"unshare_user", [] { return ::syscall(SYS_unshare, CLONE_NEWUSER); }, "EPERM"},
    {"unshare_mount", [] { return ::syscall(SYS_unshare, CLONE_NEWNS); }, "EPERM"},
    {"setns_parent_mount_ns", Setns, "EPERM"},
    {"clone_newns", CloneWith<CLONE_NEWNS>, "EPERM"},
    {"clone_newuts", CloneWith<CLONE_NEWUTS>, "EPERM"},
    {"clone_newipc", CloneWith<CLONE_NEWIPC>, "EPERM"},
    {"clone_newuser", CloneWith<CLONE_NEWUSER>, "EPERM"},
    {"clone_newpid", CloneWith<CLONE_NEWPID>, "EPERM"},
    {"clone_newnet", CloneWith<CLONE_NEWNET>, "EPERM"},
    {"clone_newcgroup", CloneWith<CLONE_NEWCGROUP>, "EPERM"},
    {"clone_newuser_among_other_flags", CloneWith<CLONE_NEWNET | CLONE_NEWUSER | CLONE_FILES>,
     "EPERM"},
    {"clone3_plain", Clone3With<0>, "ENOSYS"},
    {"clone3_newuser", Clone3With<CLONE_NEWUSER>, "ENOSYS"},
    {"ptrace_attach",
     [] { return AtVictim([](pid_t v) { return ::ptrace(PTRACE_ATTACH, v, 0, 0); }); }, "EPERM"},
    {"process_vm_readv", [] { return AtVictim(VmRead); }, "EPERM"},
    {"process_vm_writev", [] { return AtVictim(VmWrite); }, "EPERM"},
    {"kcmp", [] { return ::syscall(SYS_kcmp, ::getpid(), ::getpid(), 0 /* KCMP_FILE */, 0, 0); },
     "EPERM"},
    {"pidfd_getfd", PidfdGetfd, "EPERM"},
    {"init_module", [] { return ::syscall(SYS_init_module, nullptr, 0, ""); }, "EPERM"},
    {"finit_module", [] { return ::syscall(SYS_finit_module, -1, "", 0); }, "EPERM"},
    {"delete_module", [] { return ::syscall(SYS_delete_module, "sbx_no_such_module", O_NONBLOCK); },
     "EPERM"},
    // Flags the kernel rejects, so that a baseline run cannot unload a kexec image.
    {"kexec_load", [] { return ::syscall(SYS_kexec_load, 0, 0, nullptr, 0xdead0000UL); }, "EPERM"},
    {"kexec_file_load", [] { return ::syscall(SYS_kexec_file_load, -1, -1, 0, "", 0xdead0000UL); },
     "EPERM"},
    {"bpf_map_create", BpfMap, "EPERM"},
    {"perf_event_open", PerfEvent, "EPERM"},
    {"keyctl_join_session",
     [] { return ::syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, nullptr); }, "EPERM"},
    {"add_key",
     [] { return ::syscall(SYS_add_key, "user", "sbx-probe", "x", 1, KEY_SPEC_PROCESS_KEYRING); },
     "EPERM"},
    {"request_key",
     [] { return ::syscall(SYS_request_key, "user", "sbx-no-such-key", nullptr, 0); }, "EPERM"},
    {"open_by_handle_at", OpenByHandle, "EPERM"},
    {"name_to_handle_at", NameToHandle, "EPERM"},
    {"userfaultfd", [] { return Fd(::syscall(SYS_userfaultfd, O_CLOEXEC)); }, "EPERM"},
    {"io_uring_setup", IoUring, "EPERM"},
    {"io_uring_enter", [] { return ::syscall(SYS_io_uring_enter, -1, 0, 0, 0, nullptr, 0); },
     "EPERM"},
    {"io_uring_register", [] { return ::syscall(SYS_io_uring_register, -1, 0, nullptr, 0); },
     "EPERM"},
    {"personality_linux32", [] { return ::syscall(SYS_personality, 0x0008UL); }, "EPERM"},
    {"personality_addr_no_randomize", [] { return ::syscall(SYS_personality, 0x0040000UL); },
     "EPERM"},
    {"personality_all_but_one_bit", [] { return ::syscall(SYS_personality, 0xfffffffeUL); },
     "EPERM"},
    // The kernel reads 32 bits: this is PER_LINUX32 in disguise.
    {"personality_linux32_high_bits",
     [] { return ::syscall(SYS_personality, 0xffffffff00000008UL); }, "EPERM"},
    // Bad magic: an unfiltered baseline answers EINVAL instead of rebooting.
    {"reboot", [] { return ::syscall(SYS_reboot, 0, 0, 0, nullptr); }, "EPERM"},
    {"sethostname", [] { return ::syscall(SYS_sethostname, "sbx-probe", 9); }, "EPERM"},
    {"setdomainname", [] { return ::syscall(SYS_setdomainname, "sbx-probe", 9); }, "EPERM"},
    {"swapon", [] { return ::syscall(SYS_swapon, "/nonexistent-sbx", 0); }, "EPERM"},
    {"swapoff", [] { return ::syscall(SYS_swapoff, "/nonexistent-sbx"); }, "EPERM"},
    {"settimeofday", BadTimeval, "EPERM"},
    {"clock_settime", BadTimespec, "EPERM"},
    {"clock_adjtime", [] { return ReadTimex(true); }, "EPERM"},
    {"adjtimex", [] { return ReadTimex(false); }, "EPERM"},
    {"acct", [] { return ::syscall(SYS_acct, "/nonexistent-sbx"); }, "EPERM"},
    {"quotactl", [] { return ::syscall(SYS_quotactl, 0, nullptr, 0, nullptr); }, "EPERM"},
    {"syslog_size", [] { return ::syscall(SYS_syslog, 10 /* SIZE_BUFFER */, nullptr, 0); },
     "EPERM"},
    {"fanotify_init", [] { return Fd(::syscall(SYS_fanotify_init, FAN_CLASS_NOTIF, O_RDONLY)); },
     "EPERM"},
    {"uselib", [] { return ::syscall(SYS_uselib, "/nonexistent-sbx"); }, "EPERM"},
#if defined(__x86_64__)
    {"iopl", [] { return ::syscall(SYS_iopl, 3); }, "EPERM"},
    {"ioperm", [] { return ::syscall(SYS_ioperm, 0x80, 1, 1); }, "EPERM"},
    {"i386_int80_getpid", Int80Getpid, "killed by SIGSYS"},
    {"x32_getpid", [] { return ::syscall(0x40000000L | SYS_getpid); }, "killed by SIGSYS"},
#endif
};

const Probe kAllowed[] = {
    {"getpid", [] { return ::syscall(SYS_getpid); }, "ok"},
    {"open_read_write", OpenReadWrite, "ok"},
    {"fork", Fork, "ok"},
    {"clone_without_namespaces", CloneWith<0>, "ok"},
    {"pthread_create", Thread, "ok"},
    {"execve_true", ExecTrue, "ok"},
    {"posix_spawn_true", SpawnTrue, "ok"},
    {"personality_query", [] { return ::syscall(SYS_personality, 0xffffffffUL); }, "ok"},
    {"personality_linux", [] { return ::syscall(SYS_personality, 0UL); }, "ok"},
};

// A private mount, UTS and IPC namespace, so that an unfiltered baseline
// mount or sethostname stays in the child.
void Isolate(int out) {
  if (::unshare(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC) != 0 ||
      ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    Say(out, "failed", "isolate: " + ErrnoName(errno));
    ::_exit(1);
  }
}

void Jail(int out) {
  Require(out, SetNoNewPrivs(), "SetNoNewPrivs");
  Require(out, InstallSeccompFilter(), "InstallSeccompFilter");
}

std::string RunProbe(const Probe& probe, bool jailed) {
  ChildRun run = RunChild([&](int out) {
    Isolate(out);
    if (jailed) Jail(out);
    errno = 0;
    Say(out, "outcome", Outcome(probe.attempt()));
  });
  if (run.said.count("failed")) return "setup failed: " + run.Get("failed");
  if (!run.ExitedZero()) return run.How();
  return run.Get("outcome");
}

class SeccompRefuses : public ::testing::TestWithParam<Probe> {};
class SeccompAllows : public ::testing::TestWithParam<Probe> {};

TEST_P(SeccompRefuses, Call) {
  const Probe& probe = GetParam();
  EXPECT_EQ(RunProbe(probe, true), probe.jailed);
  std::string baseline = RunProbe(probe, false);
  RecordProperty("baseline", baseline);
  EXPECT_NE(baseline, probe.jailed) << "unjailed, the kernel gives the same answer: the probe "
                                       "cannot tell the filter from the kernel";
  EXPECT_EQ(baseline.find("setup failed"), std::string::npos) << baseline;
}

TEST_P(SeccompAllows, Call) {
  EXPECT_EQ(RunProbe(GetParam(), true), GetParam().jailed);
  EXPECT_EQ(RunProbe(GetParam(), false), "ok");
}

auto ProbeName = [](const ::testing::TestParamInfo<Probe>& info) {
  return std::string(info.param.name);
};
INSTANTIATE_TEST_SUITE_P(Jail, SeccompRefuses, ::testing::ValuesIn(kRefused), ProbeName);
INSTANTIATE_TEST_SUITE_P(Jail, SeccompAllows, ::testing::ValuesIn(kAllowed), ProbeName);

TEST(SeccompFilter, CoversThreadsStartedBeforeIt) {
  ChildRun run = RunChild([](int out) {
    Isolate(out);
    int go[2];
    if (::pipe(go) != 0) ::_exit(1);
    pthread_t thread;
    auto attempt = [](void* arg) -> void* {
      char c;
      (void)!::read(*static_cast<int*>(arg), &c, 1);
      long rc = ::syscall(SYS_mount, "none", "/mnt", "tmpfs", 0, nullptr);
      return reinterpret_cast<void*>(static_cast<intptr_t>(rc < 0 ? errno : 0));
    };
    ::pthread_create(&thread, nullptr, attempt, &go[0]);
    Jail(out);
    (void)!::write(go[1], "x", 1);
    void* err = nullptr;
    ::pthread_join(thread, &err);
    Say(out, "thread_mount",
        err ? ErrnoName(static_cast<int>(reinterpret_cast<intptr_t>(err))) : "ok");
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_EQ(run.Get("thread_mount"), "EPERM");
}

TEST(SeccompFilter, SurvivesExec) {
  ChildRun run = RunChild([](int out) {
    Jail(out);
    ExecShell(out, "grep Seccomp: /proc/self/status");
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_EQ(run.Get("Seccomp:"), "2");
}

// The per-bit rules must cover every persona but the two allowed ones; a
// gap in the chain of bit pairs would let some single-bit or all-but-one-bit
// value through.
TEST(SeccompFilter, PersonalityOnlyDefaultAndQuery) {
  ChildRun run = RunChild([](int out) {
    Jail(out);
    std::string let_through;
    for (unsigned bit = 0; bit < 32; ++bit) {
      for (uint32_t persona : {1u << bit, ~(1u << bit)}) {
        if (::syscall(SYS_personality, static_cast<unsigned long>(persona)) >= 0 || errno != EPERM)
          let_through += std::to_string(persona) + " ";
      }
    }
    Say(out, "let_through", let_through);
    Say(out, "linux", Outcome(::syscall(SYS_personality, 0UL)));
    Say(out, "query", Outcome(::syscall(SYS_personality, 0xffffffffUL)));
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_EQ(run.Get("let_through"), "");
  EXPECT_EQ(run.Get("linux"), "ok");
  EXPECT_EQ(run.Get("query"), "ok");
}

// The filter does not set no_new_privs itself: held CAP_SYS_ADMIN is enough...
TEST(SeccompFilter, LoadsWithCapSysAdminAndLeavesNoNewPrivsAlone) {
  ChildRun run = RunChild([](int out) {
    Require(out, InstallSeccompFilter(), "InstallSeccompFilter");
    Say(out, "nnp", std::to_string(::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)));
    Say(out, "mount",
        Outcome(::syscall(SYS_mount, "none", "/nonexistent-sbx", "tmpfs", 0, nullptr)));
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_EQ(run.Get("nnp"), "0");
  EXPECT_EQ(run.Get("mount"), "EPERM");
}

// ...and without either, loading fails and says which step is missing.
TEST(SeccompFilter, RefusesToLoadWithoutNoNewPrivsOrCapSysAdmin) {
  ChildRun run = RunChild([](int out) {
    Require(out, DropAllCapabilities(), "DropAllCapabilities");
    Status s = InstallSeccompFilter();
    Say(out, "install", s ? "ok" : s.error().message);
    Say(out, "nnp", std::to_string(::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)));
    SayStatus(out);
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_NE(run.Get("install").find("SetNoNewPrivs"), std::string::npos) << run.Get("install");
  EXPECT_EQ(run.Get("nnp"), "0");
  EXPECT_EQ(run.Get("Seccomp:"), "0");
}

}  // namespace
}  // namespace sbx::jail
