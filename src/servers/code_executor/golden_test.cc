// Golden cases: each encodes what upstream (bazinga012/mcp_code_executor
// src/index.ts at be72889, identical in geobio's fork at a584f76) answers,
// measured by running its build/index.js (SDK 0.6.0, Node 22, Linux) with
// the same calls; the function each case follows is named beside it. Only
// the random 8-hex file-name suffix and the temporary paths differ.
#include "servers/code_executor/test_support.h"

namespace sbx::servers::code_executor::testing {
namespace {

class GoldenTest : public CodeExecutorTest {
 protected:
  // Upstream's shell command for a venv environment (getPlatformSpecificCommand).
  std::string Venv(const std::string& file) const {
    return "source " + venv_ + "/bin/activate && python3 -u \"" + file + "\"";
  }
};

// CallToolRequest "execute_code" + executeCode: file written as
// code_<hex>.py, run, {status, output, file_path} then generated_filename.
TEST_F(GoldenTest, ExecuteCodeSuccess) {
  Json r = Call("execute_code", {{"code", "print(1)"}});
  std::string text = r["content"][0]["text"];
  std::string hex = Suffix(Json::parse(text)["generated_filename"], "code");
  std::string path = store_ + "/code_" + hex + ".py";
  EXPECT_EQ(r.dump(),
            Json({{"content",
                   {{{"type", "text"},
                     {"text", R"({"status":"success","output":"1\n","file_path":")" + path +
                                  R"(","generated_filename":"code_)" + hex + R"(.py"})"},
                     {"isError", false}}}}})
                .dump());
  EXPECT_EQ(ReadAbs(path), "print(1)");
}

// "execute_code": filename "my.py" → my_<hex>.py (one trailing .py dropped).
TEST_F(GoldenTest, ExecuteCodeWithFilename) {
  Json body = Body("execute_code", {{"code", "print(1)"}, {"filename", "my.py"}}, false);
  std::string hex = Suffix(body["generated_filename"], "my");
  EXPECT_EQ(body["file_path"], store_ + "/my_" + hex + ".py");
  body = Body("execute_code", {{"code", "print(2)"}, {"filename", "a.py.py"}}, false);
  Suffix(body["generated_filename"], "a\\.py");
  body = Body("execute_code", {{"code", "print(3)"}, {"filename", ""}},
              false);  // empty: the default name
  Suffix(body["generated_filename"], "code");
}

// executeCode: a non-zero exit rejects exec → error "Command failed: <cmd>\n<stderr>".
TEST_F(GoldenTest, ExecuteCodeException) {
  Json body = Body("execute_code", {{"code", "1/0"}}, true);
  std::string path = body["file_path"];
  EXPECT_EQ(body.dump(),
            Json({{"status", "error"},
                  {"error", "Command failed: " + Venv(path) +
                                "\nTraceback (most recent call last):\n  File \"" + path +
                                "\", line 1, in <module>\n    1/0\n    ~^~\n"
                                "ZeroDivisionError: division by zero\n"},
                  {"file_path", path},
                  {"generated_filename", body["generated_filename"]}})
                .dump());
}

// executeCode: exit 0 with stderr → status "error", output = stderr, isError true.
TEST_F(GoldenTest, ExecuteCodeStderrMakesAnError) {
  Json body =
      Body("execute_code", {{"code", "import sys; sys.stderr.write('warn\\n'); print(2)"}}, true);
  EXPECT_EQ(body["status"], "error");
  EXPECT_EQ(body["output"], "warn\n");
  EXPECT_EQ(body.dump().find("\"error\":"), std::string::npos);
}

// executeCode: exit 3, nothing on stderr → "Command failed: <cmd>\n".
TEST_F(GoldenTest, ExecuteCodeExitStatusWithoutStderr) {
  Json body = Body("execute_code", {{"code", "import sys; sys.exit(3)"}}, true);
  EXPECT_EQ(body["error"], "Command failed: " + Venv(body["file_path"]) + "\n");
}

// CallToolRequest handlers: `if (!args?.code) throw new Error("Code is
// required")` (and the like) → the SDK's JSON-RPC error -32603.
TEST_F(GoldenTest, EmptyRequiredArgumentsAreJsonRpcErrors) {
  auto error = [&](const std::string& tool, Json args) {
    return Reply(tool, std::move(args))["error"].dump();
  };
  EXPECT_EQ(error("execute_code", {{"code", ""}}),
            R"({"code":-32603,"message":"Code is required"})");
  EXPECT_EQ(error("initialize_code_file", {{"content", ""}}),
            R"({"code":-32603,"message":"Content is required"})");
  EXPECT_EQ(error("append_to_code_file", {{"file_path", ""}, {"content", "y"}}),
            R"({"code":-32603,"message":"File path is required"})");
  EXPECT_EQ(error("append_to_code_file", {{"file_path", "x"}, {"content", ""}}),
            R"({"code":-32603,"message":"Content is required"})");
  EXPECT_EQ(error("read_code_file", {{"file_path", ""}}),
            R"({"code":-32603,"message":"File path is required"})");
  EXPECT_EQ(error("execute_code_file", {{"file_path", ""}}),
            R"({"code":-32603,"message":"File path is required"})");
}

// initializeCodeFile: success body; a missing sub-directory → writeFile's
// ENOENT, body without file_path.
TEST_F(GoldenTest, InitializeCodeFile) {
  Json body = Body("initialize_code_file", {{"content", "x=1\n"}, {"filename", "a.py"}}, false);
  std::string hex = Suffix(body["filename"], "a");
  EXPECT_EQ(body.dump(), Json({{"status", "success"},
                               {"message", "File initialized successfully"},
                               {"file_path", store_ + "/a_" + hex + ".py"},
                               {"filename", "a_" + hex + ".py"}})
                             .dump());
  EXPECT_EQ(ReadAbs(store_ + "/a_" + hex + ".py"), "x=1\n");
  body = Body("initialize_code_file", {{"content", "x"}, {"filename", "sub/b"}}, true);
  ASSERT_EQ(body.size(), 2u);
  std::string error = body["error"];
  std::string prefix = "ENOENT: no such file or directory, open '" + store_ + "/sub/b_";
  EXPECT_EQ(error.substr(0, prefix.size()), prefix);
  EXPECT_EQ(body["status"], "error");
}

// appendToCodeFile / readCodeFile / executeCodeFromFile: access() first →
// ENOENT "access"; a directory: appendFile's EISDIR open, readFile's EISDIR
// read, python3's own complaint.
TEST_F(GoldenTest, FileToolsOnMissingFilesAndDirectories) {
  MakeStore();
  std::string missing = ws_ + "/nope.py";
  std::string enoent = "ENOENT: no such file or directory, access '" + missing + "'";
  for (const char* tool : {"append_to_code_file", "read_code_file", "execute_code_file"}) {
    Json args{{"file_path", missing}, {"content", "y"}};
    EXPECT_EQ(Text(tool, args),
              Json({{"status", "error"}, {"error", enoent}, {"file_path", missing}}).dump())
        << tool;
  }
  EXPECT_EQ(Body("append_to_code_file", {{"file_path", store_}, {"content", "y"}}, true)["error"],
            "EISDIR: illegal operation on a directory, open '" + store_ + "'");
  EXPECT_EQ(Body("read_code_file", {{"file_path", store_}}, true)["error"],
            "EISDIR: illegal operation on a directory, read");
  Json body = Body("execute_code_file", {{"file_path", store_}}, true);
  EXPECT_EQ(body["error"], "Command failed: " + Venv(store_) + "\n" + venv_ +
                               "/bin/python3: can't find '__main__' "
                               "module in '" +
                               store_ + "'\n");
}

// The incremental flow: initialize, append, read, execute.
TEST_F(GoldenTest, BuildAndRunAFileInParts) {
  std::string path = Body("initialize_code_file", {{"content", "a = 2\n"}}, false)["file_path"];
  EXPECT_EQ(Text("append_to_code_file", {{"file_path", path}, {"content", "print(a * 21)\n"}}),
            Json({{"status", "success"},
                  {"message", "Content appended successfully"},
                  {"file_path", path}})
                .dump());
  EXPECT_EQ(
      Text("read_code_file", {{"file_path", path}}),
      Json({{"status", "success"}, {"content", "a = 2\nprint(a * 21)\n"}, {"file_path", path}})
          .dump());
  EXPECT_EQ(Text("execute_code_file", {{"file_path", path}}),
            Json({{"status", "success"}, {"output", "42\n"}, {"file_path", path}}).dump());
}

// checkPackageInstallation: empty list; then per-package details with
// JavaScript's key order after JSON.parse (index-like "123" first).
TEST_F(GoldenTest, CheckInstalledPackages) {
  EXPECT_EQ(Text("check_installed_packages", {{"packages", Json::array()}}),
            R"({"status":"error","error":"No packages specified"})");
  MakeStore();
  WriteAbs(store_ + "/withversion.py", "__version__ = '1.2.3'\n");
  WriteAbs(store_ + "/plainversion.py", "version = 7\n");
  WriteAbs(store_ + "/broken.py", "raise RuntimeError('boom')\n");
  WriteAbs(store_ + "/needs.py", "import nonexistent_dep_zz\n");
  Json body = Body("check_installed_packages",
                   {{"packages",
                     {"withversion", "nonexistent_pkg_zz", "123", "", "a.b.c", "plainversion",
                      "broken", "needs"}}},
                   false);
  EXPECT_EQ(
      body.dump(),
      R"({"status":"success","env_type":"venv-uv","all_installed":false,)"
      R"("not_installed":["123","nonexistent_pkg_zz","","a.b.c","broken","needs"],"package_details":{)"
      R"("123":{"installed":false,"error":"Package not found"},)"
      R"("withversion":{"installed":true,"version":"1.2.3","location":")" +
          store_ +
          R"(/withversion.py"},)"
          R"("nonexistent_pkg_zz":{"installed":false,"error":"Package not found"},)"
          R"("":{"installed":false,"error":"Package not found"},)"
          R"("a.b.c":{"installed":false,"error":"No module named 'a'"},)"
          R"("plainversion":{"installed":true,"version":7,"location":")" +
          store_ +
          R"(/plainversion.py"},)"
          R"("broken":{"installed":false,"error":"Unexpected error: boom"},)"
          R"("needs":{"installed":false,"error":"No module named 'nonexistent_dep_zz'"}}})");
  body = Body("check_installed_packages", {{"packages", {"withversion"}}}, false);
  EXPECT_EQ(body["all_installed"], true);
  EXPECT_EQ(body["not_installed"], Json::array());
}

// checkPackageInstallation: stderr from an import → {status, error: stderr}
// (no env_type).
TEST_F(GoldenTest, CheckInstalledPackagesStderrIsAnError) {
  MakeStore();
  WriteAbs(store_ + "/noisy.py", "import sys\nsys.stderr.write('careful\\n')\n");
  EXPECT_EQ(Text("check_installed_packages", {{"packages", {"noisy"}}}),
            R"({"status":"error","error":"careful\n"})");
}

// installDependencies: empty list → error without env_type.
TEST_F(GoldenTest, InstallNothing) {
  EXPECT_EQ(Text("install_dependencies", {{"packages", Json::array()}}),
            R"({"status":"error","error":"No packages specified"})");
}

// getPlatformSpecificCommand (conda) without conda: bash's own errors, for
// every tool that runs a command.
TEST_F(GoldenTest, CondaWithoutConda) {
  options_.environment = EnvironmentConfig{"conda", "myenv", std::nullopt, std::nullopt};
  Start();
  const std::string bash_errors =
      "\n/bin/bash: line 1: conda: command not found\n"
      "/bin/bash: line 1: /etc/profile.d/conda.sh: No such file or directory\n";
  const std::string activate =
      "source $(conda info --base)/etc/profile.d/conda.sh && conda activate myenv && ";
  Json body = Body("execute_code", {{"code", "print(1)"}}, true);
  EXPECT_EQ(body["error"], "Command failed: " + activate + "python3 -u \"" +
                               body["file_path"].get<std::string>() + "\"" + bash_errors);
  EXPECT_EQ(Text("install_dependencies", {{"packages", {"six", "numpy"}}}),
            Json({{"status", "error"},
                  {"env_type", "conda"},
                  {"error", "Command failed: " + activate + "conda install -y -n myenv six numpy" +
                                bash_errors}})
                .dump());
  body = Body("check_installed_packages", {{"packages", {"json"}}}, true);
  ASSERT_EQ(body["env_type"], "conda");
  std::string error = body["error"];
  std::string prefix =
      "Command failed: " + activate + "python3 -u \"" + store_ + "/check_packages_";
  EXPECT_EQ(error.substr(0, prefix.size()), prefix);
  EXPECT_EQ(error.substr(error.size() - bash_errors.size()), bash_errors);
}

// configure_environment handler + validateEnvironmentConfig, and
// get_environment_config: the sequence measured against upstream.
TEST_F(GoldenTest, ConfigureAndGetEnvironment) {
  options_.environment = EnvironmentConfig{"conda", "myenv", std::nullopt, std::nullopt};
  Start();
  EXPECT_EQ(Text("configure_environment", {{"type", "venv"}}),
            R"({"status":"error","error":"venv_path is required when type is 'venv'"})");
  EXPECT_EQ(
      Text("configure_environment", {{"type", "venv"}, {"venv_path", ""}, {"conda_name", "c"}}),
      R"({"status":"error","error":"venv_path is required when type is 'venv'"})");
  EXPECT_EQ(Text("configure_environment", {{"type", "venv"}, {"venv_path", "rel/venv/"}}),
            R"({"status":"success","message":"Environment configuration updated",)"
            R"("previous":{"type":"conda","conda_name":"myenv"},)"
            R"("current":{"type":"venv","conda_name":"myenv","venv_path":"rel/venv/"}})");
  EXPECT_EQ(
      Text("get_environment_config"),
      R"({"status":"success","config":{"type":"venv","conda_name":"myenv","venv_path":"rel/venv/"}})");
  // A relative venv path is relative to the storage directory (exec's cwd);
  // with creation off, its absence fails in bash's words.
  options_.create_missing_venv = false;
  options_.environment = EnvironmentConfig{"venv", std::nullopt, "rel/venv/", std::nullopt};
  Start();
  Json body = Body("execute_code", {{"code", "print(1)"}}, true);
  EXPECT_EQ(body["error"],
            "Command failed: source rel/venv/bin/activate && python3 -u \"" +
                body["file_path"].get<std::string>() +
                "\"\n/bin/bash: line 1: rel/venv/bin/activate: No such file or directory\n");
}

// Node's exec maxBuffer (1 MiB): the command is killed, the message names the stream.
TEST_F(GoldenTest, OutputOverTheBufferBound) {
  Json body = Body("execute_code", {{"code", "print('x' * 2000000)"}}, true);
  EXPECT_EQ(body["error"], "stdout maxBuffer length exceeded");
  body = Body("execute_code", {{"code", "import sys; sys.stderr.write('e' * 2000000)"}}, true);
  EXPECT_EQ(body["error"], "stderr maxBuffer length exceeded");
}

// exec decodes output as UTF-8 with U+FFFD for each invalid sequence; the
// text keeps control characters as JSON.stringify escapes them.
TEST_F(GoldenTest, OutputDecodingAndEscaping) {
  Json r =
      Call("execute_code", {{"code",
                             "print('\\u00e9\\udcff', end='')\nimport sys; sys.stdout.flush(); "
                             "sys.stdout.buffer.write(b'\\xff\\xfeA\\x00\\x1b')"}});
  std::string text = r["content"][0]["text"];
  EXPECT_NE(text.find(R"("output":"é���A\u0000\u001b")"), std::string::npos) << text;
}

}  // namespace
}  // namespace sbx::servers::code_executor::testing
