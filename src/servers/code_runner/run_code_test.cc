// run-code end to end in-process: each interpreter the host has, upstream's
// exact texts for success, stderr, failure, missing interpreters, empty
// code and bad arguments; the bounds upstream lacks (timeout, cancel).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "servers/code_runner/languages.h"
#include "servers/code_runner/run_code.h"
#include "servers/code_runner/test_support.h"

namespace sbx::servers::code_runner::testing {
namespace {

using namespace std::chrono_literals;

TEST_F(CodeRunnerTest, ToolListEqualsTheReference) {
  EXPECT_EQ(init_reply_["result"]["serverInfo"].dump(), R"({"name":"Code Runner","version":"0.1.0"})");
  Json list = *session_->Handle(Json{{"jsonrpc", "2.0"}, {"id", 9}, {"method", "tools/list"}}).reply;
  std::ifstream f(CODE_RUNNER_REFERENCE_JSON);
  if (!f) GTEST_SKIP() << "reference not found: " << CODE_RUNNER_REFERENCE_JSON;
  Json ref = Json::parse(f);
  const Json& tools = list["result"]["tools"];
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0]["name"], ref["tools"][0]["name"]);
  EXPECT_EQ(tools[0]["inputSchema"].dump(), ref["tools"][0]["inputSchema"].dump());  // key order included
  EXPECT_FALSE(tools[0].contains("outputSchema"));
  EXPECT_FALSE(tools[0].contains("annotations"));
  EXPECT_FALSE(tools[0]["description"].get<std::string>().empty());
  EXPECT_EQ(ref["server_info"]["name"], "Code Runner");
  EXPECT_EQ(ref["server_info"]["version"], "0.1.0");
}

TEST_F(CodeRunnerTest, Python) {
  EXPECT_EQ(Dump("python", "print('hi')"), Result("hi\n"));
  EXPECT_EQ(Dump("python", "import sys; sys.stderr.write('e\\n'); print('o')"), Result("Stderr: e\n", true));
  EXPECT_EQ(Dump("python", "raise SystemExit(3)"),
            Result("Error: Command failed: " + Python() + " \"<TMP>/tmp.python\"\n", true));
  EXPECT_EQ(Dump("python", "1/0"), Result("Error: Command failed: " + Python() +
                                              " \"<TMP>/tmp.python\"\nTraceback (most recent call last):\n"
                                              "  File \"<TMP>/tmp.python\", line 1, in <module>\n    1/0\n"
                                              "    ~^~\nZeroDivisionError: division by zero\n",
                                          true));
  // -u: stdout is unbuffered, so it is complete even when the run dies.
  EXPECT_EQ(Dump("python", "import os, sys; print('a'); os.write(1, b'b\\n'); print('c', file=sys.stdout)"),
            Result("a\nb\nc\n"));
  // stdin is empty (upstream's is a pipe nobody writes or closes: input() hangs there).
  EXPECT_EQ(Dump("python", "input()"), Result("Error: Command failed: " + Python() +
                                                   " \"<TMP>/tmp.python\"\nTraceback (most recent call last):\n"
                                                   "  File \"<TMP>/tmp.python\", line 1, in <module>\n"
                                                   "    input()\nEOFError: EOF when reading a line\n",
                                               true));
}

TEST_F(CodeRunnerTest, JavaScriptRunsInTheWorkingDirectoryFromItsOwnFile) {
  EXPECT_EQ(Dump("javascript", "console.log(__filename, process.cwd())"),
            Result("<TMP>/tmp.js " + options_.working_directory + "\n"));
  EXPECT_EQ(Dump("javascript", "console.error('warn'); console.log('out')"), Result("Stderr: warn\n", true));
  EXPECT_EQ(Dump("javascript", "process.exitCode = 2"),
            Result("Error: Command failed: node \"<TMP>/tmp.js\"\n", true));
}

TEST_F(CodeRunnerTest, ShellScriptIsBash) {
  EXPECT_EQ(Dump("shellscript", "echo \"$BASH_VERSION\" | cut -c1-2; echo \"$0\"; pwd"),
            Result(std::string(Installed("bash") ? "5." : "") + "\n<TMP>/tmp.shellscript\n" +
                   options_.working_directory + "\n"));
  EXPECT_EQ(Dump("shellscript", "echo x >&2; exit 0"), Result("Stderr: x\n", true));
  // The shell that ran bash reports the signal, as under upstream.
  EXPECT_EQ(Dump("shellscript", "kill -9 $$"),
            Result("Error: Command failed: bash \"<TMP>/tmp.shellscript\"\nKilled\n", true));
  // Files the code leaves beside its own are removed with the call's directory (TearDown).
  EXPECT_EQ(Dump("shellscript", "touch \"$(dirname \"$0\")/left\"; mkdir \"$(dirname \"$0\")/d\"; echo ok"),
            Result("ok\n"));
}

TEST_F(CodeRunnerTest, Perl) {
  EXPECT_EQ(Dump("perl", "use strict; my @a = (1, 2); print \"x\\n\", scalar(@a)"), Result("x\n2"));
  EXPECT_EQ(Dump("perl", "die \"boom\\n\""), Result("Error: Command failed: perl \"<TMP>/tmp.perl\"\nboom\n", true));
  EXPECT_EQ(Dump("perl", "warn \"careful\\n\"; print 1"), Result("Stderr: careful\n", true));
}

// Every language whose interpreter this host lacks answers as upstream's
// exec does: /bin/sh reports the program missing, exit 127.
TEST_F(CodeRunnerTest, MissingInterpretersAnswerLikeUpstream) {
  int missing = 0;
  for (const auto& language : Languages()) {
    std::string command = CommandFor(options_, language, process::DefaultEnvironment()[0].substr(5));
    if (Installed(ProgramOf(command))) continue;
    ++missing;
    std::string file = "<TMP>/tmp." + std::string(language.extension);
    EXPECT_EQ(Dump(std::string(language.id), "x"),
              Result("Error: Command failed: " + command + " \"" + file + "\"\n/bin/sh: 1: " + ProgramOf(command) +
                         ": not found\n",
                     true))
        << language.id;
  }
  EXPECT_GT(missing, 0);
  if (!Installed("php")) {
    EXPECT_EQ(Dump("php", "<?php echo 1;"),
              Result("Error: Command failed: php \"<TMP>/tmp.php\"\n/bin/sh: 1: php: not found\n", true));
  }
}

TEST_F(CodeRunnerTest, CodeRequiredAndArgumentsChecked) {
  EXPECT_EQ(Dump("python", ""), Result("Code is required.", true));
  std::string ids;
  for (const auto& language : Languages()) ids += std::string(ids.empty() ? "" : "|") + "\"" + std::string(language.id) + "\"";
  EXPECT_EQ(Dump("cobol", "x"), Result("MCP error -32602: Input validation error: Invalid arguments for tool run-code: "
                                       "Invalid option: expected one of " + ids + " at languageId",
                                       true));
  EXPECT_EQ(Call({{"code", 5}, {"languageId", "python"}}).dump(),
            Result("MCP error -32602: Input validation error: Invalid arguments for tool run-code: Invalid input: "
                   "expected string, received number at code",
                   true));
  EXPECT_EQ(Call({{"languageId", "python"}}).dump(),
            Result("MCP error -32602: Input validation error: Invalid arguments for tool run-code: Invalid input: "
                   "expected string, received undefined at code",
                   true));
}

TEST_F(CodeRunnerTest, OutputIsDecodedAsNodeDecodesUtf8) {
  EXPECT_EQ(Dump("shellscript", "printf '\\xff\\xfeok \\xc3\\xa9'"), Result("\xEF\xBF\xBD\xEF\xBF\xBDok \xC3\xA9"));
  EXPECT_EQ(Dump("shellscript", "printf ''"), Result(""));
}

TEST_F(CodeRunnerTest, OutputBeyondMaxBufferKillsTheRun) {
  options_.max_output_bytes = 1000;
  Start();
  EXPECT_EQ(Dump("shellscript", "head -c 1000 /dev/zero | tr '\\0' a"), Result(std::string(1000, 'a')));
  EXPECT_EQ(Dump("shellscript", "head -c 1001 /dev/zero | tr '\\0' a"),
            Result("Error: stdout maxBuffer length exceeded", true));
  EXPECT_EQ(Dump("shellscript", "head -c 1001 /dev/zero >&2"), Result("Error: stderr maxBuffer length exceeded", true));
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Dump("python", "while True: print('spam')"), Result("Error: stdout maxBuffer length exceeded", true));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);  // killed at the bound, not at the timeout
}

TEST_F(CodeRunnerTest, TimeoutKillsTheRunAndItsChildren) {
  options_.timeout = 700ms;
  Start();
  std::string marker = base_ + "/bg-alive";
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Dump("shellscript", "(sleep 2; touch " + marker + ") & echo err >&2; sleep 30"),
            Result("Error: Command timed out after 700 ms: bash \"<TMP>/tmp.shellscript\"\nerr\n", true));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  std::this_thread::sleep_for(2500ms);
  EXPECT_FALSE(fs::Exists(marker)) << "the background job outlived the timeout";
}

TEST_F(CodeRunnerTest, CancelStopsTheRun) {
  std::atomic<bool> cancel{false};
  mcp::ToolContext context;
  context.cancel_flag = &cancel;
  std::thread t([&] {
    std::this_thread::sleep_for(200ms);
    cancel = true;
  });
  auto start = std::chrono::steady_clock::now();
  auto r = RunCode(options_, *FindLanguage("shellscript"), "sleep 30", context);
  t.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(Normalise(r.content[0]["text"].get<std::string>()),
            "Error: Command cancelled: bash \"<TMP>/tmp.shellscript\"\n");
}

TEST_F(CodeRunnerTest, ConcurrentCallsKeepTheirOwnFiles) {
  std::vector<std::thread> threads;
  std::vector<std::string> got(8);
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      got[i] = RunCode(options_, *FindLanguage("python"), "import time; time.sleep(0.2); print(" + std::to_string(i) + ")",
                       {})
                   .content[0]["text"];
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], std::to_string(i) + "\n");
}

TEST_F(CodeRunnerTest, CommandOverridesAndFallbacks) {
  options_.commands["python"] = "python3 -I -u";
  options_.commands["javascript"] = "sh";
  Start();
  EXPECT_EQ(Dump("python", "import sys; print(sys.flags.isolated)"), Result("1\n"));
  EXPECT_EQ(Dump("javascript", "echo \"$0\""), Result("<TMP>/tmp.js\n"));
  Options plain;
  EXPECT_EQ(CommandFor(plain, *FindLanguage("python"), "/nonexistent"), "python -u");  // neither: upstream's
  EXPECT_EQ(CommandFor(plain, *FindLanguage("python"), "/usr/bin:/bin"),
            process::FindExecutable("python", "/usr/bin:/bin") ? "python -u" : "python3 -u");
  EXPECT_EQ(CommandFor(plain, *FindLanguage("go"), "/usr/bin"), "go run");
}

TEST_F(CodeRunnerTest, FailuresBeforeTheRunInNodeWords) {
  options_.temp_dir = base_ + "/missing";
  Start();
  EXPECT_EQ(Run("python", "print(1)").dump(),
            Result("ENOENT: no such file or directory, mkdtemp '<TMP>'", true));
  options_.temp_dir = base_ + "/tmp";
  options_.working_directory = base_ + "/no-such-dir";
  Start();
  EXPECT_EQ(Dump("python", "print(1)"), Result("Error: spawn /bin/sh ENOENT", true));
}

}  // namespace
}  // namespace sbx::servers::code_runner::testing
