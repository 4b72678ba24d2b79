#include "servers/process/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include <gtest/gtest.h>

namespace sbx::servers::process {
namespace {

using namespace std::chrono_literals;

Spec Sh(const std::string& script) {
  Spec s;
  s.argv = {"sh", "-c", script};
  s.env = DefaultEnvironment();
  s.cwd = "/";
  return s;
}

TEST(ProcessRun, CollectsBothStreamsAndTheExitCode) {
  auto r = process::Run(Sh("printf out; printf err >&2; exit 3"), {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->out, "out");
  EXPECT_EQ(r->err, "err");
  EXPECT_EQ(r->exit.code, 3);
  EXPECT_EQ(r->exit.signal, 0);
  EXPECT_FALSE(r->timed_out);
}

TEST(ProcessRun, RunsTheGivenExecutableUnderTheGivenName) {
  Spec s = Sh("");
  s.argv = {"shown-name", "-c", "echo $0"};
  s.executable = "/bin/sh";
  auto r = process::Run(s, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->out, "shown-name\n");
  EXPECT_EQ(r->exit.code, 0);
}

// The PDF helper's way in: an executable by descriptor (the jail hides its
// path), and descriptors handed over as 3, 4, … whatever their numbers were;
// nothing else leaks past exec.
TEST(ProcessRun, RunsAnExecutableDescriptorWithInheritedDescriptors) {
  int sh = ::open("/bin/sh", O_PATH | O_CLOEXEC);
  ASSERT_GE(sh, 0);
  int a[2], b[2];
  ASSERT_EQ(::pipe2(a, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(b, O_CLOEXEC), 0);
  ASSERT_EQ(::write(a[1], "first", 5), 5);
  ASSERT_EQ(::write(b[1], "second", 6), 6);
  ::close(a[1]);
  ::close(b[1]);
  int stray = ::open("/dev/null", O_RDONLY);  // not close-on-exec, yet not inherited
  Spec s = Sh("");
  s.argv = {"named", "-c", "echo $0; cat <&3; echo; cat <&4; echo; ls /proc/self/fd | sort -n | tr '\\n' ' '"};
  s.executable = "/nonexistent";  // the descriptor wins
  s.executable_fd = sh;
  s.inherit_fds = {b[0], a[0]};    // swapped on purpose
  auto r = process::Run(s, {});
  ASSERT_TRUE(r) << r.error().message;
  // ls sees 0-2, the two inherited, and its own directory descriptor.
  EXPECT_EQ(r->out, "named\nsecond\nfirst\n0 1 2 3 4 5 ");
  EXPECT_EQ(r->exit.code, 0);
  for (int fd : {sh, a[0], b[0], stray}) ::close(fd);
}

TEST(ProcessRun, MergesStderrWhenAsked) {
  Spec s = Sh("printf a; printf b >&2; printf c");
  s.merge_stderr = true;
  auto r = process::Run(s, {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "abc");
  EXPECT_EQ(r->err, "");
}

TEST(ProcessRun, FeedsInputAndRunsInTheWorkingDirectory) {
  Spec s = Sh("pwd; cat");
  s.cwd = "/tmp";
  RunOptions o;
  o.input = std::string(300000, 'x');  // more than a pipe holds
  auto r = process::Run(s, o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "/tmp\n" + o.input);
}

TEST(ProcessRun, TimeoutKillsTheWholeGroup) {
  RunOptions o;
  o.timeout = 300ms;
  auto r = process::Run(Sh("sleep 30 & echo $! > /tmp/sbx_process_test_bg; sleep 30"), o);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit.signal, SIGKILL);
  FILE* f = std::fopen("/tmp/sbx_process_test_bg", "r");
  ASSERT_NE(f, nullptr);
  int bg = 0;
  ASSERT_EQ(std::fscanf(f, "%d", &bg), 1);
  std::fclose(f);
  std::remove("/tmp/sbx_process_test_bg");
  std::this_thread::sleep_for(50ms);
  std::string state = "gone";
  if (FILE* st = std::fopen(("/proc/" + std::to_string(bg) + "/stat").c_str(), "r")) {
    char buf[256] = {};
    state = std::fgets(buf, sizeof buf, st) ? buf : "?";
    std::fclose(st);
  }
  EXPECT_TRUE(state == "gone" || state.find(") Z ") != std::string::npos) << "background job outlived its command: " << state;
}

TEST(ProcessRun, BackgroundJobDoesNotHoldTheCallOpen) {
  auto start = std::chrono::steady_clock::now();
  auto r = process::Run(Sh("sleep 30 & echo done"), {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "done\n");
  EXPECT_EQ(r->exit.code, 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(ProcessRun, BoundsOutput) {
  RunOptions o;
  o.max_output = 1000;
  auto r = process::Run(Sh("head -c 100000 /dev/zero"), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out.size(), 1000u);
  EXPECT_TRUE(r->truncated);
  EXPECT_EQ(r->exit.code, 0);
}

TEST(ProcessRun, KillsOnOverflowWhenAsked) {
  RunOptions o;
  o.max_output = 1000;
  o.kill_on_overflow = true;
  auto start = std::chrono::steady_clock::now();
  auto r = process::Run(Sh("printf x >&2; while :; do echo yyyyyyyy; done"), o);
  ASSERT_TRUE(r);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);  // not the 30 s timeout
  EXPECT_FALSE(r->timed_out);
  EXPECT_STREQ(r->overflowed, "stdout");
  EXPECT_EQ(r->out.size(), 1000u);
  EXPECT_EQ(r->err, "x");
  EXPECT_EQ(r->exit.signal, SIGKILL);

  // Exactly max_output is not an overflow.
  r = process::Run(Sh("head -c 1000 /dev/zero >&2"), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->overflowed, nullptr);
  EXPECT_FALSE(r->truncated);
  EXPECT_EQ(r->err.size(), 1000u);
  EXPECT_EQ(r->exit.code, 0);
}

TEST(ProcessRun, CancelKills) {
  std::atomic<bool> stop{false};
  RunOptions o;
  o.cancelled = [&] { return stop.load(); };
  std::thread t([&] {
    std::this_thread::sleep_for(100ms);
    stop = true;
  });
  auto r = process::Run(Sh("sleep 30"), o);
  t.join();
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->cancelled);
  EXPECT_EQ(r->exit.signal, SIGKILL);
}

TEST(ProcessSpawn, ReportsMissingCommandsAndBadDirectories) {
  Spec s;
  s.argv = {"sbx-no-such-command"};
  s.env = DefaultEnvironment();
  auto r = Spawn(s);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(r.error().message, "sbx-no-such-command: command not found");

  Spec d = Sh("true");
  d.cwd = "/no/such/dir";
  auto r2 = Spawn(d);
  ASSERT_FALSE(r2);
  EXPECT_EQ(r2.error().message, "sh: No such file or directory");
}

TEST(ProcessSpawn, LongLivedChildWithPipes) {
  Spec s = Sh("while read line; do echo \"got $line\"; done");
  s.pipe_stdin = true;
  auto c = Spawn(s);
  ASSERT_TRUE(c);
  ASSERT_EQ(::write((*c)->stdin_fd(), "a\n", 2), 2);
  char buf[16] = {};
  ASSERT_EQ(::read((*c)->stdout_fd(), buf, sizeof buf), 6);
  EXPECT_STREQ(buf, "got a\n");
  EXPECT_FALSE((*c)->Poll());
  (*c)->CloseStdin();
  auto e = (*c)->WaitFor(5s);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, 0);
}

// The agent reaps with waitpid(-1) on its own thread; our children's
// statuses must still reach their owners, and strangers go to `other`.
TEST(ProcessReap, ReaperHandsStatusesBackToTheirOwners) {
  std::atomic<bool> stop{false};
  std::atomic<int> strangers{0};
  pid_t stranger = ::fork();
  if (stranger == 0) ::_exit(9);
  std::thread reaper([&] {
    while (!stop) {
      ReapExited([&](pid_t pid, int status) {
        if (pid == stranger && WIFEXITED(status) && WEXITSTATUS(status) == 9) ++strangers;
      });
      std::this_thread::sleep_for(1ms);
    }
  });
  for (int i = 0; i < 50; ++i) {
    auto r = process::Run(Sh("exit " + std::to_string(i % 7)), {});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->exit.code, i % 7);
  }
  stop = true;
  reaper.join();
  EXPECT_EQ(strangers.load(), 1);
}

TEST(ProcessEnv, FindsExecutablesOnPath) {
  EXPECT_EQ(FindExecutable("sh", "/nonexistent:/bin"), "/bin/sh");
  EXPECT_EQ(FindExecutable("sh", "/nonexistent"), std::nullopt);
  EXPECT_EQ(FindExecutable("/bin/sh", ""), "/bin/sh");
}

}  // namespace
}  // namespace sbx::servers::process
