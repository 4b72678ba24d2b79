// The run-code tool: upstream's schema (shared/reference/tools/code-runner.json,
// key for key), our own description, and the handler.
#include <string>

#include "servers/code_runner/code_runner.h"
#include "servers/code_runner/languages.h"
#include "servers/code_runner/run_code.h"

namespace sbx::servers::code_runner {
namespace {

// What zod-to-json-schema writes for upstream's {code: string, languageId: enum}.
Json InputSchema() {
  Json ids = Json::array();
  for (const auto& language : Languages()) ids.push_back(language.id);
  return Json{{"type", "object"},
              {"properties",
               {{"code", {{"type", "string"}}}, {"languageId", {{"type", "string"}, {"enum", std::move(ids)}}}}},
              {"required", {"code", "languageId"}},
              {"additionalProperties", false},
              {"$schema", "http://json-schema.org/draft-07/schema#"}};
}

std::string Duration(std::chrono::milliseconds ms) {
  if (ms.count() % 1000 == 0) return std::to_string(ms.count() / 1000) + " s";
  return std::to_string(ms.count()) + " ms";
}

std::string Description(const Options& options) {
  return "Run a code snippet and return what it printed. The snippet is saved to a file and run with the "
         "language's interpreter (python, javascript with node, shellscript with bash, perl, …) in " +
         options.working_directory + ". A clean run returns its standard output; output on standard error or a "
         "non-zero exit makes the result an error that carries the standard error. Runs longer than " +
         Duration(options.timeout) + " are stopped.";
}

}  // namespace

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options) {
  mcp::Tool tool;
  tool.name = "run-code";
  tool.description = Description(options);
  tool.input_schema = InputSchema();
  tool.handler = [options](const Json& arguments, const mcp::ToolContext& context) {
    // The core has checked the types and the enum against the schema.
    const std::string& code = arguments.at("code").get_ref<const std::string&>();
    const std::string& id = arguments.at("languageId").get_ref<const std::string&>();
    if (code.empty()) throw mcp::ToolError("Code is required.");  // upstream checks this first
    const Language* language = FindLanguage(id);
    if (language == nullptr) throw mcp::ToolError("Language '" + id + "' is not supported.");
    return RunCode(options, *language, code, context);
  };
  std::vector<mcp::Tool> tools;
  tools.push_back(std::move(tool));
  return std::make_shared<const mcp::ServerDefinition>(mcp::ServerInfo{"Code Runner", "0.1.0", "", ""},
                                                       std::move(tools));
}

}  // namespace sbx::servers::code_runner
