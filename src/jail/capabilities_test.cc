// Capabilities, no_new_privs, rlimits and the order of the jail steps, each
// checked in a forked child.
#include "jail/security_test_util.h"

namespace sbx::jail {
namespace {

using namespace testing;  // NOLINT: the child-running helpers

// ---- capabilities ----

std::string OwnStatus(const std::string& key) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(key, 0) == 0) return AfterBlanks(line, key.size());
  }
  return "";
}

TEST(DropAllCapabilities, ClearsEverySetAndLocksSecurebits) {
  ASSERT_NE(OwnStatus("CapEff:"), kNoCaps) << "the test needs a privileged process";
  ChildRun run = RunChild([](int out) {
    Require(out, DropAllCapabilities(), "DropAllCapabilities");
    SayStatus(out);
    char bits[16];
    std::snprintf(bits, sizeof bits, "0x%x", ::prctl(PR_GET_SECUREBITS, 0, 0, 0, 0));
    Say(out, "securebits", bits);
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  for (const char* set : kCapSets) EXPECT_EQ(run.Get(set), kNoCaps) << set;
  // NOROOT, NO_SETUID_FIXUP, NO_CAP_AMBIENT_RAISE, all locked; KEEP_CAPS locked off.
  EXPECT_EQ(run.Get("securebits"), "0xef");
}

TEST(DropAllCapabilities, RootCannotChownAnymore) {
  char path[] = "/tmp/security_test_XXXXXX";
  int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  auto chown_in_child = [&](bool drop) {
    return RunChild([&](int out) {
      if (drop) Require(out, DropAllCapabilities(), "DropAllCapabilities");
      Say(out, "uid", std::to_string(::getuid()));
      Say(out, "chown", Outcome(::chown(path, 12345, 12345)));
    });
  };
  ChildRun dropped = chown_in_child(true);
  ChildRun baseline = chown_in_child(false);
  struct stat st {};
  ::stat(path, &st);
  ::unlink(path);
  EXPECT_EQ(dropped.Get("uid"), "0");
  EXPECT_EQ(dropped.Get("chown"), "EPERM");
  EXPECT_EQ(baseline.Get("chown"), "ok");
  EXPECT_EQ(st.st_uid, 12345u);  // the baseline did it, so the refusal above was the jail's
}

TEST(DropAllCapabilities, ExecAsRootRegainsNothing) {
  auto exec_in_child = [](bool drop) {
    return RunChild([drop](int out) {
      if (drop) Require(out, DropAllCapabilities(), "DropAllCapabilities");
      ExecShell(out, "grep -E '^(Cap|Uid)' /proc/self/status");
    });
  };
  ChildRun dropped = exec_in_child(true);
  ASSERT_TRUE(dropped.ExitedZero()) << dropped.How() << " " << dropped.Get("failed");
  EXPECT_EQ(dropped.Get("Uid:").substr(0, 2), "0\t");
  for (const char* set : kCapSets) EXPECT_EQ(dropped.Get(set), kNoCaps) << set;
  ChildRun baseline = exec_in_child(false);
  EXPECT_NE(baseline.Get("CapEff:"), kNoCaps) << "exec as root would have restored capabilities";
}

TEST(DropAllCapabilities, CannotBeUndone) {
  ChildRun run = RunChild([](int out) {
    Require(out, DropAllCapabilities(), "DropAllCapabilities");
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct all[2] = {{~0u, ~0u, ~0u}, {~0u, ~0u, ~0u}};
    Say(out, "capset", Outcome(::syscall(SYS_capset, &header, all)));
    Say(out, "ambient_raise", Outcome(::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, 0, 0, 0)));
    Say(out, "securebits_reset", Outcome(::prctl(PR_SET_SECUREBITS, 0, 0, 0, 0)));
    Say(out, "again", DropAllCapabilities() ? "ok" : "failed");
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_EQ(run.Get("capset"), "EPERM");
  EXPECT_EQ(run.Get("ambient_raise"), "EPERM");
  EXPECT_EQ(run.Get("securebits_reset"), "EPERM");
  EXPECT_EQ(run.Get("again"), "ok");  // a second call is harmless
}

// ---- no_new_privs ----

TEST(SetNoNewPrivs, HoldsAcrossExec) {
  auto exec_in_child = [](bool set) {
    return RunChild([set](int out) {
      if (set) Require(out, SetNoNewPrivs(), "SetNoNewPrivs");
      Say(out, "prctl", std::to_string(::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)));
      ExecShell(out, "grep NoNewPrivs: /proc/self/status");
    });
  };
  ChildRun set = exec_in_child(true);
  ASSERT_TRUE(set.ExitedZero()) << set.How() << " " << set.Get("failed");
  EXPECT_EQ(set.Get("prctl"), "1");
  EXPECT_EQ(set.Get("NoNewPrivs:"), "1");
  EXPECT_EQ(exec_in_child(false).Get("NoNewPrivs:"), "0");
}

// ---- resource limits ----

rlim_t Min(rlim_t a, rlim_t b) {
  return a == RLIM_INFINITY ? b : (b == RLIM_INFINITY ? a : std::min(a, b));
}

void SayLimits(int out) {
  for (auto [name, resource] :
       {std::pair{"core", RLIMIT_CORE}, {"nofile", RLIMIT_NOFILE}, {"stack", RLIMIT_STACK}}) {
    rlimit r{};
    ::getrlimit(resource, &r);
    Say(out, name, std::to_string(r.rlim_cur) + "/" + std::to_string(r.rlim_max));
  }
}

std::string Pair(rlim_t soft, rlim_t hard) {
  return std::to_string(soft) + "/" + std::to_string(hard);
}

TEST(Rlimits, DefaultsAreBoundedAndNeverAboveTheHardLimit) {
  rlimit nofile{}, stack{};
  ::getrlimit(RLIMIT_NOFILE, &nofile);
  ::getrlimit(RLIMIT_STACK, &stack);
  std::map<int, std::string> got;
  for (const auto& l : DefaultRlimits()) got[l.resource] = Pair(l.soft, l.hard);
  EXPECT_EQ(got[RLIMIT_CORE], "0/0");
  rlim_t files = Min(4096, nofile.rlim_max);
  EXPECT_EQ(got[RLIMIT_NOFILE], Pair(files, files));
  EXPECT_EQ(got[RLIMIT_STACK], Pair(Min(8 << 20, stack.rlim_max), stack.rlim_max));
}

TEST(Rlimits, ApplyThenReadBack) {
  std::map<int, std::string> want;
  for (const auto& l : DefaultRlimits()) want[l.resource] = Pair(l.soft, l.hard);
  ChildRun run = RunChild([](int out) {
    Require(out, ApplyRlimits(DefaultRlimits()), "ApplyRlimits");
    SayLimits(out);
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_EQ(run.Get("core"), "0/0");
  EXPECT_EQ(run.Get("nofile"), want[RLIMIT_NOFILE]);
  EXPECT_EQ(run.Get("stack"), want[RLIMIT_STACK]);
}

TEST(Rlimits, DefaultsClampToALowerHardLimit) {
  ChildRun run = RunChild([](int out) {
    rlimit nofile{1000, 1000}, stack{4 << 20, 4 << 20};
    if (::setrlimit(RLIMIT_NOFILE, &nofile) != 0 || ::setrlimit(RLIMIT_STACK, &stack) != 0)
      ::_exit(1);
    Require(out, ApplyRlimits(DefaultRlimits()), "ApplyRlimits");
    SayLimits(out);
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  EXPECT_EQ(run.Get("nofile"), "1000/1000");
  EXPECT_EQ(run.Get("stack"), Pair(4 << 20, 4 << 20));
}

TEST(Rlimits, ApplyNamesTheResourceThatFailed) {
  ChildRun run = RunChild([](int out) {
    Status s = ApplyRlimits({{RLIMIT_CORE, 0, 0}, {RLIMIT_NOFILE, 200, 100}});
    Say(out, "error", s ? "none" : s.error().message);
    Say(out, "invalid_argument",
        s ? "-" : std::to_string(s.error().code == ErrorCode::kInvalidArgument));
    SayLimits(out);
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How();
  EXPECT_NE(run.Get("error").find("RLIMIT_NOFILE"), std::string::npos) << run.Get("error");
  EXPECT_EQ(run.Get("invalid_argument"), "1");
  EXPECT_EQ(run.Get("core"), "0/0");  // the limits before the failing one were applied
}

// ---- all together, in the order the jail runs them ----

TEST(JailSteps, InOrderThenAToolRuns) {
  ChildRun run = RunChild([](int out) {
    Require(out, ApplyRlimits(DefaultRlimits()), "ApplyRlimits");
    Require(out, SetNoNewPrivs(), "SetNoNewPrivs");
    Require(out, DropAllCapabilities(), "DropAllCapabilities");
    Require(out, InstallSeccompFilter(), "InstallSeccompFilter");
    ExecShell(out,
              "grep -E '^(Cap|NoNewPrivs|Seccomp:)' /proc/self/status; echo core $(ulimit -c); "
              "unshare -U true 2>/dev/null; echo unshare $?");
  });
  ASSERT_TRUE(run.ExitedZero()) << run.How() << " " << run.Get("failed");
  for (const char* set : kCapSets) EXPECT_EQ(run.Get(set), kNoCaps) << set;
  EXPECT_EQ(run.Get("NoNewPrivs:"), "1");
  EXPECT_EQ(run.Get("Seccomp:"), "2");
  EXPECT_EQ(run.Get("core"), "0");
  EXPECT_NE(run.Get("unshare"), "0");
}

}  // namespace
}  // namespace sbx::jail
