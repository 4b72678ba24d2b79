// OptionsFromSettings: defaults, every setting, and the exact message for
// each kind of bad value.
#include <gtest/gtest.h>

#include "servers/code_runner/code_runner.h"

namespace sbx::servers::code_runner {
namespace {

std::string ErrorOf(const char* settings) {
  auto r = OptionsFromSettings(Json::parse(settings));
  EXPECT_FALSE(r) << settings;
  if (r) return "";
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  return r.error().message;
}

TEST(CodeRunnerSettings, DefaultsWhenEmpty) {
  auto r = OptionsFromSettings(Json::object());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->working_directory, "/data");
  EXPECT_EQ(r->temp_dir, "/tmp");
  EXPECT_EQ(r->timeout.count(), 60'000);
  EXPECT_EQ(r->max_output_bytes, 1024u * 1024u);
  EXPECT_TRUE(r->commands.empty());
}

TEST(CodeRunnerSettings, EverySetting) {
  auto r = OptionsFromSettings(Json::parse(
      R"({"timeout_ms": 1500, "max_output_bytes": 4096, "temp_dir": "/data/.run",
          "commands": {"python": "python3 -u", "perl6": "raku"}})"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->timeout.count(), 1500);
  EXPECT_EQ(r->max_output_bytes, 4096u);
  EXPECT_EQ(r->temp_dir, "/data/.run");
  EXPECT_EQ(r->working_directory, "/data");  // not a setting: the workspace
  EXPECT_EQ(r->commands.size(), 2u);
  EXPECT_EQ(r->commands.at("python"), "python3 -u");
}

TEST(CodeRunnerSettings, BadValuesNameTheKey) {
  EXPECT_EQ(ErrorOf(R"({"timeout": 5})"),
            "code-runner: unknown setting 'timeout' (known: timeout_ms, max_output_bytes, temp_dir, commands)");
  EXPECT_EQ(ErrorOf(R"({"timeout_ms": 0})"), "code-runner: timeout_ms must be an integer from 1 to 3600000");
  EXPECT_EQ(ErrorOf(R"({"timeout_ms": 1.5})"), "code-runner: timeout_ms must be an integer from 1 to 3600000");
  EXPECT_EQ(ErrorOf(R"({"timeout_ms": "10"})"), "code-runner: timeout_ms must be an integer from 1 to 3600000");
  EXPECT_EQ(ErrorOf(R"({"max_output_bytes": 16777217})"),
            "code-runner: max_output_bytes must be an integer from 1 to 16777216");
  EXPECT_EQ(ErrorOf(R"({"temp_dir": "tmp"})"), "code-runner: temp_dir must be an absolute path (at most 1024 bytes)");
  EXPECT_EQ(ErrorOf(R"({"temp_dir": ""})"), "code-runner: temp_dir must be an absolute path (at most 1024 bytes)");
  EXPECT_EQ(ErrorOf(R"({"temp_dir": "/a\u0000b"})"),
            "code-runner: temp_dir must be an absolute path (at most 1024 bytes)");
  EXPECT_EQ(ErrorOf(R"({"commands": ["python3"]})"), "code-runner: commands must be an object of languageId to command line");
  EXPECT_EQ(ErrorOf(R"({"commands": {"cobol": "cobc"}})"),
            "code-runner: commands: 'cobol' is not one of the tool's languageIds");
  for (const char* bad : {R"({"commands": {"python": ""}})", R"({"commands": {"python": "   "}})",
                          R"({"commands": {"python": "python3\nrm -rf /"}})", R"({"commands": {"python": 3}})"})
    EXPECT_EQ(ErrorOf(bad), "code-runner: commands: 'python' must be a non-empty command line (one line, at most 4096 bytes)");
  EXPECT_EQ(ErrorOf(R"([])"), "code-runner: settings must be a JSON object");
}

}  // namespace
}  // namespace sbx::servers::code_runner
