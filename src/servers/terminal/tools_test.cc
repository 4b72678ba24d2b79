// The server as a client sees it: initialize and tools/list against the
// upstream capture, the descriptions generated from the policy, the
// settings parser, and the results of running commands (execution errors,
// exit statuses, output decoding) as cli-mcp-server 0.2.5 gives them
// (CommandExecutor.execute and handle_call_tool in server.py, CPython 3.13).
#include <fstream>

#include "servers/terminal/runner.h"
#include "servers/terminal/test_support.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::terminal::testing {
namespace {

class ToolsTest : public TerminalTest {};

TEST_F(ToolsTest, InitializeAndToolsListMatchReference) {
  EXPECT_EQ(init_reply_["result"]["serverInfo"].dump(), R"({"name":"cli-mcp-server","version":"0.2.1"})");
  Json tools = ListTools();
  auto ref = test_support::ReadJsonFile(TERMINAL_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found: " << TERMINAL_REFERENCE_JSON;
  // Key order too; upstream sends no title.
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      tools, (*ref)["tools"],
      {.exact = {"inputSchema"}, .absent = {"outputSchema", "annotations", "title"}, .described = false}));
}

// handle_list_tools builds run_command's description from the policy
// (directory, commands, flags, operator status); ours says the same in its
// own words, lists sorted.
TEST_F(ToolsTest, DescriptionsFollowThePolicy) {
  auto description = [&](std::size_t i) {
    Json list = *session_->Handle(Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}).reply;
    return list["result"]["tools"][i]["description"].get<std::string>();
  };
  EXPECT_EQ(description(0), X("Runs one command line with {R} as its working directory and returns its output and "
                              "exit status.\n\nCommands accepted: cat, ls, pwd\nFlags accepted: --help, -a, -l\n"
                              "Arguments that name paths must stay inside {R}.\n\nShell operators (&&, ||, |, >, >>, "
                              "<, <<, ;): refused in this deployment (setting allow_shell_operators)."));
  Options o = AllCommands();
  o.allow_shell_operators = true;
  Configure(o);
  EXPECT_EQ(description(0), X("Runs one command line with {R} as its working directory and returns its output and "
                              "exit status.\n\nCommands accepted: any\nFlags accepted: any\n"
                              "Arguments that name paths must stay inside {R}.\n\nShell operators (&&, ||, |, >, >>, "
                              "<, <<, ;): accepted; a line that uses them runs under /bin/sh."));
  EXPECT_FALSE(description(1).empty());
}

TEST_F(ToolsTest, OptionsFromSettings) {
  auto o = OptionsFromSettings(Json::object());
  ASSERT_TRUE(o);
  EXPECT_EQ(o->allowed_dir, "/data");
  EXPECT_EQ(o->allowed_commands, (std::set<std::string>{"ls", "cat", "pwd"}));
  EXPECT_EQ(o->allowed_flags, (std::set<std::string>{"-l", "-a", "--help"}));
  EXPECT_FALSE(o->allow_all_commands || o->allow_all_flags || o->allow_shell_operators);
  EXPECT_EQ(o->max_command_length, 1024);
  EXPECT_EQ(o->command_timeout, 30);

  o = OptionsFromSettings(Json::parse(R"({"allowed_dir":"/data/work","allowed_commands":"ALL","allowed_flags":
      "-x, -y,,-x","max_command_length":0,"command_timeout":86400,"allow_shell_operators":true})"));
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->allowed_dir, "/data/work");
  EXPECT_TRUE(o->allow_all_commands);
  EXPECT_TRUE(o->allowed_commands.empty());
  EXPECT_EQ(o->allowed_flags, (std::set<std::string>{"-x", " -y", ""}));  // split(",") as written
  EXPECT_EQ(o->max_command_length, 0);
  EXPECT_EQ(o->command_timeout, 86400);
  EXPECT_TRUE(o->allow_shell_operators);

  auto error = [](const char* json) {
    auto r = OptionsFromSettings(Json::parse(json));
    EXPECT_FALSE(r) << json;
    return r ? std::string() : r.error().message;
  };
  EXPECT_EQ(error(R"({"allowed_dirs":"/data"})"),
            "terminal: unknown setting 'allowed_dirs' (known: allowed_dir, allowed_commands, allowed_flags, "
            "max_command_length, command_timeout, allow_shell_operators)");
  for (const char* dir : {R"("data")", R"("/data/")", R"("/data/../etc")", R"("/data//x")", R"("/./data")", "1"})
    EXPECT_EQ(error((std::string(R"({"allowed_dir":)") + dir + "}").c_str()),
              "terminal: allowed_dir must be an absolute path without '.', '..', '//' or a trailing '/'");
  EXPECT_EQ(error(R"({"allowed_commands":["ls"]})"),
            "terminal: allowed_commands must be a string: \"all\" or a comma-separated list, as upstream's "
            "environment variable");
  EXPECT_EQ(error(R"({"max_command_length":-1})"),
            "terminal: max_command_length must be an integer from 0 to 1048576, not -1");
  EXPECT_EQ(error(R"({"command_timeout":0})"), "terminal: command_timeout must be an integer from 1 to 86400, not 0");
  EXPECT_EQ(error(R"({"command_timeout":1.5})"), "terminal: command_timeout must be an integer from 1 to 86400");
  EXPECT_EQ(error(R"({"command_timeout":18446744073709551615})"),
            "terminal: command_timeout must be an integer from 1 to 86400, not 18446744073709551615");
  EXPECT_EQ(error(R"({"allow_shell_operators":"true"})"), "terminal: allow_shell_operators must be true or false");
  EXPECT_EQ(error("[]"), "terminal: settings must be a JSON object");
}

// execute(): subprocess.run's failures become "Error: Command execution
// failed: <str(exception)>"; the executable search is Python's.
TEST_F(ToolsTest, ExecutionErrors) {
  Configure(AllCommands());
  EXPECT_EQ(Run("nosuchcmd"), Fail("Error: Command execution failed: [Errno 2] No such file or directory: 'nosuchcmd'"));
  EXPECT_EQ(Run("./noexec.sh"), Fail("Error: Command execution failed: [Errno 13] Permission denied: './noexec.sh'"));
  EXPECT_EQ(Run("./missing.sh"),
            Fail("Error: Command execution failed: [Errno 2] No such file or directory: './missing.sh'"));
  EXPECT_EQ(Run("sub"), Fail("Error: Command execution failed: [Errno 2] No such file or directory: 'sub'"));
  EXPECT_EQ(Run("./sub"), Fail("Error: Command execution failed: [Errno 13] Permission denied: './sub'"));
  EXPECT_EQ(Run("''"), Fail("Error: Command execution failed: [Errno 13] Permission denied: ''"));
  EXPECT_EQ(Run("../outside"), Fail("Error: Command execution failed: [Errno 13] Permission denied: '../outside'"));
  EXPECT_EQ(Run("it\\'s"), Fail("Error: Command execution failed: [Errno 2] No such file or directory: \"it's\""));
  EXPECT_EQ(Run(std::string("echo a\0b", 8)), Fail("Error: Command execution failed: embedded null byte"));
  EXPECT_EQ(Run("./run.sh"), Ok("script\n", "", 0));
  EXPECT_EQ(Run("/bin/echo ok"), Ok("ok\n", "", 0));
  // The working directory is gone: Python's chdir error names it.
  ASSERT_EQ(::rename(root_.c_str(), (root_ + "_moved").c_str()), 0);
  EXPECT_EQ(Run("true"), Fail("Error: Command execution failed: [Errno 2] No such file or directory: '{R}'"));
  ASSERT_EQ(::rename((root_ + "_moved").c_str(), root_.c_str()), 0);
}

// Exit statuses (negative for a signal, as Popen.returncode), stdin at end
// of file, text-mode output: strict UTF-8, universal newlines.
TEST_F(ToolsTest, StatusesAndOutputText) {
  Configure(AllCommands());
  EXPECT_EQ(Run("true"), Ok("", "", 0));
  EXPECT_EQ(Run("sh -c 'exit 3'"), Ok("", "", 3));
  EXPECT_EQ(Run("sh -c 'kill -9 $$'"), Ok("", "", -9));
  EXPECT_EQ(Run("sh -c 'echo out; echo err 1>&2'"), Violation("Shell operator '>' is not supported. Set "
                                                              "ALLOW_SHELL_OPERATORS=true to enable."));
  EXPECT_EQ(Run("cat"), Ok("", "", 0));  // stdin is empty
  EXPECT_EQ(Run("printf 'a\\r\\nb\\rc'"), Ok("a\nb\nc", "", 0));
  EXPECT_EQ(Run("printf 'caf\\303\\251'"), Ok("caf\xc3\xa9", "", 0));
  EXPECT_EQ(Run("printf '\\377'"),
            Fail("Error: Command execution failed: 'utf-8' codec can't decode byte 0xff in position 0: invalid start "
                 "byte"));
  EXPECT_EQ(Run("sh -c 'echo $0' ./x"), Ok("{R}/x\n", "", 0));  // checked arguments arrive as real paths
  EXPECT_EQ(Run("echo $HOME"), Ok("$HOME\n", "", 0));
}

TEST_F(ToolsTest, StderrBlocksAndTheirOrder) {
  Options o = AllCommands();
  o.allow_shell_operators = true;
  Configure(o);
  EXPECT_EQ(Run("echo out; echo err >&2; exit 4"), Ok("out\n", "err\n", 4));
  EXPECT_EQ(Run("echo err >&2"), Ok("", "err\n", 0));
  EXPECT_EQ(Run("printf 'x\\r' >&2"), Ok("", "x\n", 0));
  EXPECT_EQ(Run("printf ok; printf '\\376' >&2"),
            Fail("Error: Command execution failed: 'utf-8' codec can't decode byte 0xfe in position 0: invalid start "
                 "byte"));
}

// Arguments the core checks against the schema before the handler runs
// (upstream's SDK checks with jsonschema and words it differently).
TEST_F(ToolsTest, MissingOrWrongArguments) {
  Json r = Call("run_command", Json::object());
  EXPECT_TRUE(r.value("isError", false));
  r = Call("run_command", {{"command", 5}});
  EXPECT_TRUE(r.value("isError", false));
  // The handler's own guard, for a caller that skips validation.
  mcp::ToolContext context;
  auto result = server_->Find("run_command")->handler(Json::object(), context);
  EXPECT_EQ(result.ToJson().dump(), R"({"content":[{"type":"text","text":"No command provided","error":true}]})");
  EXPECT_EQ(Call("show_security_rules", {{"ignored", 1}})["content"][0]["text"].get<std::string>().substr(0, 23),
            "Security Configuration:");
}

TEST_F(ToolsTest, OutputBeyondTheBoundIsCutAtACharacter) {
  Options o = AllCommands();
  o.allow_shell_operators = true;
  Configure(o);
  // "x" and then two-byte characters past the bound: the cut falls inside one.
  Json r = Call("run_command", {{"command", "printf x; yes \xc3\xa9 | tr -d '\\n' | head -c 8388608"}});
  ASSERT_EQ(r["content"].size(), 2u) << r.dump().substr(0, 300);
  const std::string& out = r["content"][0]["text"].get_ref<const std::string&>();
  EXPECT_EQ(out.size(), kMaxOutputBytes - 1);
  EXPECT_EQ(out.substr(0, 3), "x\xc3\xa9");
  EXPECT_EQ(out.substr(out.size() - 2), "\xc3\xa9");
  EXPECT_EQ(r["content"][1]["text"], "\nCommand completed with return code: 0");
}

}  // namespace
}  // namespace sbx::servers::terminal::testing
