// The process tools: golden texts of upstream 0.2.7 (tools/improved-process-
// tools.ts over terminal-manager.ts; the cases that 0.2.9 changed, an ended
// process's output, are only here), session bounds, kill_process and
// list_processes, and the runaway check: whatever start_process started
// dies with the server.
#include <signal.h>
#include <unistd.h>

#include <regex>
#include <thread>

#include "servers/desktop_commander/test_support.h"

namespace sbx::servers::desktop_commander::testing {
namespace {

using std::chrono::milliseconds;

class ProcessTest : public DcTest {
 protected:
  // The PID a start_process answer names.
  static long Pid(const std::string& text) {
    std::smatch m;
    std::regex re("^Process started with PID (\\d+) \\(shell: ");
    return std::regex_search(text, m, re) ? std::stol(m[1]) : -1;
  }
  static std::string Escaped(const std::string& literal) {
    return std::regex_replace(literal, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
  }
  static bool Alive(long pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0; }
  std::string Started(long pid, const std::string& rest, const std::string& shell = "/bin/sh") {
    return "Process started with PID " + std::to_string(pid) + " (shell: " + shell + ")\nInitial output:\n" + rest;
  }
};

TEST_F(ProcessTest, StartsAndReportsLikeUpstream) {
  std::string text = Ok("start_process", {{"command", "echo hello; sleep 0.3"}, {"timeout_ms", 3000}});
  EXPECT_EQ(text, Started(Pid(text), "hello\n"));
  text = Ok("start_process", {{"command", "echo err 1>&2; sleep 0.3"}, {"timeout_ms", 3000}});
  EXPECT_EQ(text, Started(Pid(text), "err\n"));
  text = Ok("start_process", {{"command", "printf 'done\\n'; exit 3"}, {"timeout_ms", 3000}, {"shell", "/bin/bash"}});
  EXPECT_EQ(text, Started(Pid(text), "done\n", "/bin/bash"));
  text = Ok("start_process", {{"command", "echo 'Traceback (most recent call last):'; sleep 0.2"}, {"timeout_ms", 3000}});
  long pid = Pid(text);
  EXPECT_EQ(text, Started(pid, "Traceback (most recent call last):\n\n\u2705 Process " + std::to_string(pid) +
                                   " has finished execution"));
  text = Ok("start_process", {{"command", "printf '$ '; sleep 3"}, {"timeout_ms", 3000}});
  pid = Pid(text);
  EXPECT_EQ(text, Started(pid, "$ \n\U0001F504 Process " + std::to_string(pid) + " is waiting for input (detected: \"$\")"));
  Ok("force_terminate", {{"pid", pid}});
  EXPECT_EQ(Err("start_process", {{"command", "echo hi"}, {"timeout_ms", 1000}, {"shell", "/nonexistent/sh"}}),
            "Error: Failed to get process ID. The command could not be executed.");
}

TEST_F(ProcessTest, BlockedSessionsReadAndTerminate) {
  std::string text = Ok("start_process", {{"command", "sleep 5"}, {"timeout_ms", 300}});
  long pid = Pid(text);
  EXPECT_EQ(text, Started(pid, "\n\u23F3 Process is running. Use read_process_output to get more output."));
  EXPECT_EQ(Ok("list_sessions"), "PID: " + std::to_string(pid) + ", Blocked: true, Runtime: 0s");
  EXPECT_EQ(Ok("read_process_output", {{"pid", pid}, {"timeout_ms", 300}}),
            "No new output available\n\u23F1\uFE0F Timeout reached - process may still be running");
  EXPECT_EQ(Ok("force_terminate", {{"pid", pid}}), "Successfully initiated termination of session " + std::to_string(pid));
  // The interrupt reaches the shell only, which waits for its command (as
  // upstream's does); the kill a second later ends the whole group.
  EXPECT_TRUE(std::regex_match(Ok("list_sessions"), std::regex("PID: " + std::to_string(pid) + ", Blocked: true, Runtime: [01]s")));
  std::this_thread::sleep_for(milliseconds(1500));
  EXPECT_EQ(Ok("list_sessions"), "No active sessions");
  EXPECT_EQ(Ok("force_terminate", {{"pid", 99999999}}), "No active session found for PID 99999999");
  EXPECT_EQ(Err("interact_with_process", {{"pid", 1.5}, {"input", "x"}}),
            "Error: Failed to send input to process 1.5. The process may have exited or doesn't accept input.");
}

TEST_F(ProcessTest, LateOutputAndInputWithoutAPrompt) {
  long pid = Pid(Ok("start_process", {{"command", "sleep 0.6; echo later; sleep 5"}, {"timeout_ms", 200}}));
  EXPECT_EQ(Ok("read_process_output", {{"pid", pid}, {"timeout_ms", 2000}}),
            "later\n\n\u23F1\uFE0F Timeout reached - process may still be running");
  Ok("force_terminate", {{"pid", pid}});
  pid = Pid(Ok("start_process", {{"command", "cat"}, {"timeout_ms", 300}}));
  // cat echoes the line, which upstream strips as the input's echo.
  EXPECT_EQ(Ok("interact_with_process", {{"pid", pid}, {"input", "echoed back"}, {"timeout_ms", 600}}),
            "\u2705 Input executed in process " + std::to_string(pid) +
                ".\n\U0001F4ED (No output produced)\n\n\n\u23F1\uFE0F Response may be incomplete (timeout reached)");
  EXPECT_EQ(Ok("interact_with_process", {{"pid", pid}, {"input", "no wait\n"}, {"wait_for_prompt", false}}),
            "\u2705 Input sent to process " + std::to_string(pid) + ". Use read_process_output to get the response.");
  std::this_thread::sleep_for(milliseconds(300));  // cat has echoed it by now: read at once
  EXPECT_EQ(Ok("read_process_output", {{"pid", pid}, {"timeout_ms", 1000}}), "no wait\n");
  Ok("force_terminate", {{"pid", pid}});
}

TEST_F(ProcessTest, ReplSessionsAndTheirEnd) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  std::string text = Ok("start_process", {{"command", "/usr/bin/python3 -i -q"}, {"timeout_ms", 5000}});
  long pid = Pid(text);
  const std::string p = std::to_string(pid);
  const std::string waiting = "\U0001F504 Process " + p + " is waiting for input (detected: \">>>\")";
  EXPECT_EQ(text, Started(pid, ">>> \n" + waiting));
  EXPECT_EQ(Ok("interact_with_process", {{"pid", pid}, {"input", "1+1"}}),
            "\u2705 Input executed in process " + p + ":\n\n\U0001F4E4 Output:\n2\n\n\n" + waiting);
  EXPECT_EQ(Ok("interact_with_process", {{"pid", pid}, {"input", "undefined_name"}}),
            "\u2705 Input executed in process " + p +
                ":\n\n\U0001F4E4 Output:\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in "
                "<module>\nNameError: name 'undefined_name' is not defined\n\n\n" + waiting);
  // 0.2.7: once the process has ended, the polls meet its completion
  // report (terminal-manager.ts getNewOutput), output and all; upstream
  // then reads the prompt on its last line as a prompt.
  text = Ok("interact_with_process", {{"pid", pid}, {"input", "exit()"}});
  std::regex ended("\u2705 Input executed in process " + p +
                   ":\n\n\U0001F4E4 Output:\nProcess completed with exit code 0\nRuntime: [0-9.]+s\nFinal output:\n"
                   "2\nTraceback \\(most recent call last\\):\n(.|\n)*\n\n\n" + Escaped(waiting));
  EXPECT_TRUE(std::regex_match(text, ended)) << text;
  // 0.2.7 answers an ended session as an unknown one (0.2.9 shows its output).
  EXPECT_EQ(Err("read_process_output", {{"pid", pid}}), "No active session found for PID " + p);
  EXPECT_EQ(Err("interact_with_process", {{"pid", pid}, {"input", "1"}}),
            "Error: Failed to send input to process " + p + ". The process may have exited or doesn't accept input.");
}

TEST_F(ProcessTest, AProcessEndingDuringAReadRepeatsItsReport) {
  // 0.2.7 (improved-process-tools.ts readProcessOutput over terminal-
  // manager.ts getNewOutput): once the process has ended, every 200 ms poll
  // gets its completion report again (its output and its unread output,
  // both) and appends it, until the timeout.
  long pid = Pid(Ok("start_process", {{"command", "sleep 0.45; echo bye"}, {"timeout_ms", 100}}));
  std::string text = Ok("read_process_output", {{"pid", pid}, {"timeout_ms", 900}});
  std::regex repeated("(Process completed with exit code 0\nRuntime: [0-9.]+s\nFinal output:\nbye\nbye\n){2,4}\n" +
                      std::string("\u23F1\uFE0F") + " Timeout reached - process may still be running");
  EXPECT_TRUE(std::regex_match(text, repeated)) << text;
}

TEST_F(ProcessTest, KillProcessAndListProcesses) {
  long pid = Pid(Ok("start_process", {{"command", "exec sleep 30"}, {"timeout_ms", 200}}));
  ASSERT_TRUE(Alive(pid));
  EXPECT_EQ(Ok("kill_process", {{"pid", pid}}), "Successfully terminated process " + std::to_string(pid));
  for (int i = 0; i < 100 && Ok("list_sessions") != "No active sessions"; ++i) std::this_thread::sleep_for(milliseconds(20));
  EXPECT_EQ(Ok("list_sessions"), "No active sessions");
  EXPECT_EQ(Err("kill_process", {{"pid", 99999999}}), "Error: Failed to kill process: kill ESRCH");
  EXPECT_EQ(Err("kill_process", {{"pid", 1.5}}),
            "Error: Failed to kill process: The \"pid\" argument must be of type number. Received type number (1.5)");
  // Never the server itself, its threads, its group or everything.
  for (long p : {0L, -1L, static_cast<long>(::getpid())})
    EXPECT_EQ(Err("kill_process", {{"pid", p}}), "Error: Failed to kill process: kill EPERM") << p;
  std::string list = Ok("list_processes");
  std::regex line("PID: \\d+, Command: \\S+, CPU: [0-9.]+, Memory: [0-9.]+");
  std::size_t lines = 0;
  for (std::size_t i = 0, j; i <= list.size(); i = j + 1) {
    j = list.find('\n', i);
    if (j == std::string::npos) j = list.size();
    EXPECT_TRUE(std::regex_match(list.substr(i, j - i), line)) << list.substr(i, j - i);
    ++lines;
  }
  EXPECT_GT(lines, 1u);
  EXPECT_NE(list.find("PID: " + std::to_string(::getpid()) + ", "), std::string::npos);
}

TEST_F(ProcessTest, RunawayProcessesDieWithTheServer) {
  long loop = Pid(Ok("start_process", {{"command", "while true; do :; done"}, {"timeout_ms", 200}}));
  long bg = Pid(Ok("start_process", {{"command", "sleep 1000 & sleep 1000"}, {"timeout_ms", 200}}));
  // A background job of a shell that has already ended lives on (as
  // upstream's does) until the server ends.
  std::string left = Ok("start_process", {{"command", "sleep 1000 & echo $!"}, {"timeout_ms", 2000}});
  long orphan = std::stol(left.substr(left.find("Initial output:\n") + 16));
  ASSERT_TRUE(Alive(loop));
  ASSERT_TRUE(Alive(bg));
  ASSERT_TRUE(Alive(orphan));
  Restart();  // the old definition, its session table and its processes are gone
  EXPECT_FALSE(Alive(loop));
  EXPECT_FALSE(Alive(bg));
  for (int i = 0; i < 100 && Alive(orphan); ++i) std::this_thread::sleep_for(milliseconds(20));
  EXPECT_FALSE(Alive(orphan));
  EXPECT_EQ(Ok("list_sessions"), "No active sessions");
}

class BoundedProcessTest : public ProcessTest {
 protected:
  Options MakeOptions() override {
    Options o = DcTest::MakeOptions();
    o.max_sessions = 2;
    o.max_session_output = 1024;
    return o;
  }
};

TEST_F(BoundedProcessTest, SessionsAndOutputAreBounded) {
  long a = Pid(Ok("start_process", {{"command", "sleep 5"}, {"timeout_ms", 100}}));
  long b = Pid(Ok("start_process", {{"command", "sleep 5"}, {"timeout_ms", 100}}));
  EXPECT_EQ(Err("start_process", {{"command", "sleep 5"}, {"timeout_ms", 100}}),
            "Error: too many running processes (this server's limit is 2); end one with force_terminate first");
  Ok("kill_process", {{"pid", a}});
  Ok("kill_process", {{"pid", b}});
  for (int i = 0; i < 100 && Ok("list_sessions") != "No active sessions"; ++i) std::this_thread::sleep_for(milliseconds(20));
  std::string text = Ok("start_process", {{"command", "head -c 5000 /dev/zero | tr '\\0' a; sleep 0.5"}, {"timeout_ms", 3000}});
  EXPECT_EQ(text, Started(Pid(text), std::string(1024, 'a')));
}

}  // namespace
}  // namespace sbx::servers::desktop_commander::testing
