// The server as a whole: its tools/list against the upstream capture, the
// settings parser, and the behaviour this server adds (time limit,
// cancellation, environment creation, pip bounds).
#include <dirent.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "servers/code_executor/command.h"
#include "servers/code_executor/test_support.h"
#include "servers/process/process.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::code_executor::testing {
namespace {

using ToolsTest = CodeExecutorTest;

TEST_F(ToolsTest, ToolListEqualsTheUpstreamCapture) {
  Json tools = ListTools(1);
  auto ref = test_support::ReadJsonFile(CE_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found: " << CE_REFERENCE_JSON;
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(tools, (*ref)["tools"],
                                                         {.exact = {"inputSchema"}, .absent = {"outputSchema"}}));
  EXPECT_EQ(init_reply_["result"]["serverInfo"].dump(),
            R"({"name":"code-executor","version":"0.3.0"})");
  EXPECT_EQ((*ref)["server_info"]["name"], "code-executor");
  EXPECT_EQ((*ref)["server_info"]["version"], "0.3.0");
}

TEST_F(ToolsTest, MakeServerTouchesNothing) {
  options_.storage_dir = ws_ + "/a/b/c";
  options_.environment.uv_venv_path = ws_ + "/a/b/c/.venv";
  Start();
  EXPECT_FALSE(Exists(ws_ + "/a"));
  EXPECT_EQ(Text("get_environment_config"),
            R"({"status":"success","config":{"type":"venv-uv","uv_venv_path":")" + ws_ +
                R"(/a/b/c/.venv"}})");
  EXPECT_FALSE(Exists(ws_ + "/a"));  // only tools that write or run create it
  Body("execute_code", {{"code", "print(1)"}}, false);
  EXPECT_TRUE(Exists(ws_ + "/a/b/c/.venv/bin/activate"));
}

TEST_F(ToolsTest, DefaultsAndSettings) {
  auto o = OptionsFromSettings(Json::object());
  ASSERT_TRUE(o);
  EXPECT_EQ(o->workspace, "/data");
  EXPECT_EQ(o->storage_dir, "/data/repos/mcp_code_executor_workspace");
  EXPECT_EQ(o->environment.ToJson().dump(),
            R"({"type":"venv-uv","uv_venv_path":"/data/repos/mcp_code_executor_workspace/.venv"})");
  EXPECT_EQ(o->timeout, std::chrono::milliseconds(55'000));
  EXPECT_EQ(o->max_output_bytes, 1u << 20);

  o = OptionsFromSettings(
      Json{{"storage_dir", "/data/code/"}, {"timeout_seconds", 2.5}, {"pip_retries", 0}});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->storage_dir, "/data/code");
  EXPECT_EQ(o->environment.ToJson().dump(),
            R"({"type":"venv-uv","uv_venv_path":"/data/code/.venv"})");
  EXPECT_EQ(o->timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(o->pip_retries, 0);
  o = OptionsFromSettings(
      Json{{"env_type", "venv"}, {"venv_path", "/data/v"}, {"create_missing_venv", false}});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->environment.ToJson().dump(), R"({"type":"venv","venv_path":"/data/v"})");
  EXPECT_FALSE(o->create_missing_venv);

  auto error = [](const Json& s) {
    auto r = OptionsFromSettings(s);
    return r ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(error(Json{{"storage", "/data"}}), "code-executor: unknown setting \"storage\"");
  EXPECT_EQ(error(Json{{"storage_dir", "/tmp/x"}}),
            "code-executor: \"storage_dir\" must be inside the workspace /data: /tmp/x");
  EXPECT_EQ(error(Json{{"storage_dir", "/data/../etc"}}),
            "code-executor: \"storage_dir\" must be inside the workspace /data: /etc");
  EXPECT_EQ(error(Json{{"storage_dir", "rel"}}),
            "code-executor: \"storage_dir\" must be an absolute path");
  EXPECT_EQ(error(Json{{"env_type", "system"}}),
            "code-executor: \"env_type\" must be \"conda\", \"venv\" or \"venv-uv\"");
  EXPECT_EQ(error(Json{{"env_type", "conda"}}),
            "code-executor: Missing required setting: conda_name (required for conda environment)");
  EXPECT_EQ(error(Json{{"env_type", "venv"}}),
            "code-executor: Missing required setting: venv_path (required for virtualenv)");
  EXPECT_EQ(error(Json{{"env_type", "venv-uv"}}),
            "code-executor: Missing required setting: uv_venv_path (required for uv virtualenv)");
  EXPECT_EQ(error(Json{{"timeout_seconds", 0}}),
            "code-executor: \"timeout_seconds\" must be a number from 0.1 to 86400");
  EXPECT_EQ(error(Json{{"max_output_bytes", 10}}),
            "code-executor: \"max_output_bytes\" must be an integer from 1024 to 268435456");
  EXPECT_EQ(error(Json{{"create_missing_venv", "yes"}}),
            "code-executor: \"create_missing_venv\" must be true or false");
  EXPECT_EQ(error(Json{{"python", "python3"}}),
            "code-executor: \"python\" must be an absolute path");
  EXPECT_EQ(error(Json{{"conda_name", ""}}),
            "code-executor: \"conda_name\" must be a non-empty string");
  EXPECT_EQ(error(Json::array()), "code-executor: settings must be a JSON object");
}

TEST_F(ToolsTest, TheTimeLimitKillsARunAndSaysSo) {
  options_.timeout = std::chrono::milliseconds(1500);
  Start();
  auto start = std::chrono::steady_clock::now();
  Json body = Body("execute_code",
                   {{"code",
                     "import sys, time\nprint('partial', flush=True)\nsys.stderr.write('err\\n')\n"
                     "sys.stderr.flush()\ntime.sleep(30)"}},
                   true);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  std::string path = body["file_path"];
  EXPECT_EQ(body["error"], "Command failed: source " + venv_ + "/bin/activate && python3 -u \"" +
                               path + "\"\nerr\nKilled after the time limit of 1.5 seconds.\n");
}

TEST_F(ToolsTest, CancellationStopsARun) {
  Json req = {
      {"jsonrpc", "2.0"},
      {"id", 77},
      {"method", "tools/call"},
      {"params",
       {{"name", "execute_code"}, {"arguments", {{"code", "import time; time.sleep(30)"}}}}}};
  auto outcome = session_->Handle(req);
  ASSERT_TRUE(outcome.call);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    session_->Handle(Json{{"jsonrpc", "2.0"},
                          {"method", "notifications/cancelled"},
                          {"params", {{"requestId", 77}}}});
  });
  auto start = std::chrono::steady_clock::now();
  Json reply = outcome.call->Run([](Json) {});
  canceller.join();
  EXPECT_TRUE(reply.is_null());  // a cancelled request gets no answer
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(ToolsTest, ConcurrentRunsShareOneCreatedEnvironment) {
  std::vector<std::thread> threads;
  std::vector<std::string> outputs(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      Json req = {{"jsonrpc", "2.0"},
                  {"id", 100 + i},
                  {"method", "tools/call"},
                  {"params",
                   {{"name", "execute_code"},
                    {"arguments",
                     {{"code", "import sys; print(sys.prefix == sys.base_prefix, " +
                                   std::to_string(i) + ")"}}}}}};
      auto outcome = session_->Handle(req);
      Json reply = outcome.call->Run([](Json) {});
      outputs[i] = Json::parse(reply["result"]["content"][0]["text"].get<std::string>())["output"];
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(outputs[i], "False " + std::to_string(i) + "\n");  // inside the venv
  EXPECT_EQ(ReadAbs(venv_ + "/pyvenv.cfg").find("include-system-site-packages = true") !=
                std::string::npos,
            true);
}

// Only an absent or empty directory becomes a venv: one that holds
// something else is left alone (and fails as upstream's would).
TEST_F(ToolsTest, EnvironmentsAreCreatedOnlyWhereNothingIs) {
  MakeStore();
  ASSERT_TRUE(fs::MakeDirs(ws_ + "/project", 0755).ok());
  WriteAbs(ws_ + "/project/main.py", "print('mine')\n");
  ASSERT_TRUE(fs::MakeDirs(ws_ + "/empty", 0755).ok());
  options_.environment = EnvironmentConfig{"venv", std::nullopt, ws_ + "/project", std::nullopt};
  Start();
  Json body = Body("execute_code", {{"code", "print(1)"}}, true);
  EXPECT_EQ(body["error"],
            "Command failed: source " + ws_ + "/project/bin/activate && python3 -u \"" +
                body["file_path"].get<std::string>() + "\"\n/bin/bash: line 1: " + ws_ +
                "/project/bin/activate: No such file or directory\n");
  EXPECT_EQ(fs::ListDir(ws_ + "/project"), std::vector<std::string>{"main.py"});
  EXPECT_EQ(
      Text("configure_environment", {{"type", "venv"}, {"venv_path", "../empty"}}),
      R"({"status":"success","message":"Environment configuration updated","previous":{"type":"venv",)"
      R"("venv_path":")" +
          ws_ + R"(/project"},"current":{"type":"venv","venv_path":"../empty"}})");
  body = Body("execute_code", {{"code", "import sys; print(sys.prefix)"}}, false);
  EXPECT_EQ(body["output"], ws_ + "/empty\n");
}

// pip in the created venv: a requirement already present is satisfied
// without any network (pip names the venv relative to the working
// directory, the storage directory); the no-network sentence follows a failure exactly
// when the sandbox has no route.
TEST_F(ToolsTest, InstallDependenciesWithPip) {
  options_.pip_retries = 0;
  options_.pip_timeout_seconds = 3;
  Start();
  Body("execute_code", {{"code", "print(1)"}}, false);  // creates the venv
  std::string lib;
  for (const auto& name : fs::ListDir(venv_ + "/lib"))
    if (name.rfind("python3", 0) == 0) lib = "/lib/" + name + "/site-packages";
  ASSERT_FALSE(lib.empty());
  std::string site = venv_ + lib;
  ASSERT_TRUE(fs::MakeDirs(site + "/fakepkg_zz-1.0.dist-info", 0755).ok());
  WriteAbs(site + "/fakepkg_zz-1.0.dist-info/METADATA",
           "Metadata-Version: 2.1\nName: fakepkg-zz\nVersion: 1.0\n");
  WriteAbs(site + "/fakepkg_zz-1.0.dist-info/RECORD", "");
  EXPECT_EQ(
      Text("install_dependencies", {{"packages", {"fakepkg-zz"}}}),
      Json({{"status", "success"},
            {"env_type", "venv-uv"},
            {"installed_packages", {"fakepkg-zz"}},
            {"output", "Requirement already satisfied: fakepkg-zz in ./.venv" + lib + " (1.0)\n"}})
          .dump());

  Json body =
      Body("install_dependencies", {{"packages", {"nonexistent-pkg-zz-qq  other-zz"}}}, true);
  std::string error = body["error"];
  std::string prefix = "Command failed: source " + venv_ +
                       "/bin/activate && python3 -m pip install nonexistent-pkg-zz-qq other-zz\n";
  EXPECT_EQ(error.substr(0, prefix.size()), prefix);
  std::string tail = "ERROR: No matching distribution found for nonexistent-pkg-zz-qq\n";
  if (!HasNetworkRoute())
    tail +=
        "No package index is reachable from this sandbox: it has no network access, so only "
        "requirements "
        "that are already installed can be satisfied.\n";
  ASSERT_GE(error.size(), tail.size());
  EXPECT_EQ(error.substr(error.size() - tail.size()), tail);
}

// A package source the sandbox reaches: a wheelhouse named by the
// deployment's pip_find_links (pip_no_index: no index at all). The package
// installs into the venv and the next run imports it; one the wheelhouse
// lacks fails with the reason naming the wheelhouse.
TEST_F(ToolsTest, InstallDependenciesFromTheDeploymentsWheelhouse) {
  std::string house = base_ + "/wheelhouse";  // outside the workspace: read only
  std::string pkg = base_ + "/wheel-src";
  ASSERT_TRUE(fs::MakeDirs(pkg + "/sbx_demo", 0755).ok());
  ASSERT_TRUE(fs::MakeDirs(pkg + "/sbx_demo-1.0.dist-info", 0755).ok());
  ASSERT_TRUE(fs::MakeDirs(house, 0755).ok());
  WriteAbs(pkg + "/sbx_demo/__init__.py", "VALUE = 42\n");
  WriteAbs(pkg + "/sbx_demo-1.0.dist-info/METADATA",
           "Metadata-Version: 2.1\nName: sbx-demo\nVersion: 1.0\n");
  WriteAbs(pkg + "/sbx_demo-1.0.dist-info/WHEEL",
           "Wheel-Version: 1.0\nGenerator: sandboxd-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n");
  WriteAbs(pkg + "/sbx_demo-1.0.dist-info/RECORD", "");
  process::Spec zip;
  zip.argv = {"/usr/bin/python3", "-m", "zipfile", "-c", house + "/sbx_demo-1.0-py3-none-any.whl",
              "sbx_demo", "sbx_demo-1.0.dist-info"};
  zip.cwd = pkg;
  zip.env = process::DefaultEnvironment();
  auto zipped = process::Run(zip, {});
  ASSERT_TRUE(zipped && zipped->exit.code == 0);
  before_ = OutsideSnapshot();

  auto o = OptionsFromSettings(Json{{"pip_find_links", house + "/"}, {"pip_no_index", true}});
  ASSERT_TRUE(o) << o.error().message;
  options_.pip_find_links = o->pip_find_links;
  options_.pip_no_index = o->pip_no_index;
  EXPECT_EQ(*options_.pip_find_links, house);
  Start();
  Json body = Body("install_dependencies", {{"packages", {"sbx-demo==1.0"}}}, false);
  EXPECT_EQ(body.dump(),
            Json({{"status", "success"},
                  {"env_type", "venv-uv"},
                  {"installed_packages", {"sbx-demo==1.0"}},
                  {"output", "Looking in links: " + house + "\nProcessing " + house +
                                 "/sbx_demo-1.0-py3-none-any.whl\nInstalling collected "
                                 "packages: sbx-demo\nSuccessfully installed sbx-demo-1.0\n"}})
                .dump());
  body = Body("execute_code",
              {{"code", "import sbx_demo, sys; print(sbx_demo.VALUE, sbx_demo.__file__.startswith(sys.prefix))"}},
              false);
  EXPECT_EQ(body["output"], "42 True\n");

  body = Body("install_dependencies", {{"packages", {"absent-zz"}}}, true);
  std::string error = body["error"];
  std::string tail = "ERROR: No matching distribution found for absent-zz\n";
  if (!HasNetworkRoute())
    tail += "No package index is reachable from this sandbox: it has no network access, so only "
            "requirements that are already installed or found in " +
            house + " can be satisfied.\n";
  ASSERT_GE(error.size(), tail.size());
  EXPECT_EQ(error.substr(error.size() - tail.size()), tail);
}

TEST_F(ToolsTest, PackageSourceSettings) {
  auto o = OptionsFromSettings(Json{{"pip_index_url", "http://10.0.0.5:3141/root/pypi/+simple/"},
                                    {"pip_find_links", "/opt/wheels/../wheels"}});
  ASSERT_TRUE(o);
  EXPECT_EQ(*o->pip_index_url, "http://10.0.0.5:3141/root/pypi/+simple/");
  EXPECT_EQ(*o->pip_find_links, "/opt/wheels");
  EXPECT_FALSE(o->pip_no_index);
  auto refused = [](Json settings) {
    auto r = OptionsFromSettings(settings);
    return r ? std::string("accepted") : r.error().message;
  };
  EXPECT_EQ(refused({{"pip_index_url", "/opt/wheels"}}),
            "code-executor: \"pip_index_url\" must be an http://, https:// or file:/// URL");
  EXPECT_EQ(refused({{"pip_index_url", "ftp://mirror/simple"}}),
            "code-executor: \"pip_index_url\" must be an http://, https:// or file:/// URL");
  EXPECT_EQ(refused({{"pip_index_url", "http://"}}),
            "code-executor: \"pip_index_url\" must be an http://, https:// or file:/// URL");
  EXPECT_EQ(refused({{"pip_find_links", "wheels"}}),
            "code-executor: \"pip_find_links\" must be an http://, https:// or file:/// URL or "
            "an absolute path");
  EXPECT_EQ(refused({{"pip_find_links", "/opt/wheels /etc"}}),
            "code-executor: \"pip_find_links\" must not contain blanks or control characters");
  EXPECT_EQ(refused({{"pip_index_url", "http://m/" + std::string(2048, 'a')}}),
            "code-executor: \"pip_index_url\" is longer than 2048 bytes");
  EXPECT_EQ(refused({{"pip_no_index", true}}),
            "code-executor: \"pip_no_index\" needs \"pip_find_links\": without an index pip "
            "has no source to install from");
  EXPECT_EQ(refused({{"pip_no_index", "yes"}, {"pip_find_links", "/w"}}),
            "code-executor: \"pip_no_index\" must be true or false");
  EXPECT_EQ(refused({{"pip_index_url", 5}}),
            "code-executor: \"pip_index_url\" must be a non-empty string");
}

TEST_F(ToolsTest, PackageListBounds) {
  Json many = Json::array();
  for (int i = 0; i < 501; ++i) many.push_back("p");
  EXPECT_EQ(
      Text("install_dependencies", {{"packages", many}}),
      R"J({"status":"error","env_type":"venv-uv","error":"Too many packages: 501 (at most 500 per call)"})J");
  EXPECT_EQ(
      Text("check_installed_packages", {{"packages", {std::string(1001, 'a')}}}),
      R"J({"status":"error","env_type":"venv-uv","error":"Package argument too long: 1001 bytes (at most 1000)"})J");
  EXPECT_EQ(
      Text("install_dependencies", {{"packages", {std::string("a\0b", 3)}}}),
      R"({"status":"error","env_type":"venv-uv","error":"Package argument contains a NUL byte"})");
}

// Arguments of the wrong type stop at the core's schema check (upstream,
// on SDK 0.6.0, validates nothing and fails later in its own way).
TEST_F(ToolsTest, SchemaValidationComesFirst) {
  Json r = Call("execute_code", {{"code", 5}});
  EXPECT_EQ(r["isError"], true);
  EXPECT_EQ(r["content"][0]["text"].get<std::string>().rfind(
                "MCP error -32602: Input validation error", 0),
            0u);
  r = Call("configure_environment", {{"type", "bogus"}});
  EXPECT_EQ(r["isError"], true);
}

}  // namespace
}  // namespace sbx::servers::code_executor::testing
