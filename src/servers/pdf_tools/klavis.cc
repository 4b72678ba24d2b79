// The klavis variant's three tools (variants.h), following Klavis'
// server.py: ensure_workspace_path, read_pdf, get_pdf_info, extract_pages
// and call_tool's argument checks.
#include <cerrno>
#include <string>

#include "python_text/json_dumps.h"
#include "python_text/repr.h"
#include "python_text/value.h"
#include "servers/pdf_tools/tools_internal.h"

namespace sbx::servers::pdf_tools {
namespace {

using mcp::Tool;
using mcp::ToolContext;
using mcp::ToolResult;

std::string Dump(const Json& value) {
  py::DumpsOptions options;
  options.indent = 2;
  return py::Dumps(value, options);
}

Json Failure(const std::string& message) { return Json{{"error", message}}; }

// ensure_workspace_path(): (workspace / path).resolve() must stay inside;
// its ValueError text, or "" with `real` set.
std::string EnsureInWorkspace(const State& s, const std::string& path, std::string& real) {
  Resolved r = ResolveInWorkspace(s.options.workspace, path);
  if (!r.invalid.empty()) return r.invalid;
  if (!r.inside) return "Access denied: " + path + " is outside workspace directory";
  real = r.real;
  return "";
}

// reader.metadata as the tools print it: the six keys, "" when missing;
// {} without an information dictionary (or an empty one).
Json Metadata(const Json& md) {
  if (md.empty()) return Json::object();
  auto get = [&](const char* key) { return md.contains(key) ? md[key] : Json(""); };
  return Json{{"title", get("Title")},       {"author", get("Author")},   {"subject", get("Subject")},
              {"creator", get("Creator")},   {"producer", get("Producer")}, {"creation_date", get("CreationDate")}};
}

// Opens `real` for reading; on failure `error` holds the text after the
// tool's prefix (Python's OSError text names the resolved path).
UniqueFd Open(const State& s, const std::string& real, std::string& error) {
  Input in = OpenInput(s.options.workspace, real, s.options.max_file_bytes);
  if (in.error != 0) error = OpenErrorText(s, in.error, real);
  return std::move(in.fd);
}

Json ReadPdf(State& s, const std::string& path, const ToolContext& ctx) {
  std::string real;
  if (auto bad = EnsureInWorkspace(s, path, real); !bad.empty()) return Failure("Unexpected error: " + bad);
  if (!Exists(s.options.workspace, real)) return Failure("File not found: " + path);
  std::string error;
  UniqueFd fd = Open(s, real, error);
  if (!fd.valid()) return Failure("Unexpected error: " + error);
  auto info = CallHelper(s, "info", {}, {fd.get()}, false, ctx);
  if (!info) return Failure("Failed to read PDF: " + info.error().message);
  auto text = CallHelper(s, "text", {"--first", "1", "--last", std::to_string(INT32_MAX)}, {fd.get()}, false, ctx);
  if (!text) return Failure("Failed to read PDF: " + text.error().message);
  Json pages = Json::array();
  const Json& texts = text->fields["pages"];
  for (std::size_t i = 0; i < texts.size(); ++i) pages.push_back(Json{{"page_number", i + 1}, {"text", texts[i]}});
  return Json{{"file_path", path},
              {"num_pages", info->fields["page_count"]},
              {"metadata", Metadata(info->fields["metadata"])},
              {"pages", std::move(pages)}};
}

Json GetInfo(State& s, const std::string& path, const ToolContext& ctx) {
  std::string real;
  if (auto bad = EnsureInWorkspace(s, path, real); !bad.empty()) return Failure("Failed to get PDF info: " + bad);
  if (!Exists(s.options.workspace, real)) return Failure("File not found: " + path);
  std::string error;
  UniqueFd fd = Open(s, real, error);
  if (!fd.valid()) return Failure("Failed to get PDF info: " + error);
  auto info = CallHelper(s, "info", {}, {fd.get()}, false, ctx);
  if (!info) return Failure("Failed to get PDF info: " + info.error().message);
  Json sizes = Json::array();
  const Json& boxes = info->fields["page_sizes"];
  for (std::size_t i = 0; i < boxes.size(); ++i)
    sizes.push_back(Json{{"page", i + 1}, {"width", boxes[i][0].get<double>()}, {"height", boxes[i][1].get<double>()}});
  return Json{{"file_path", path},
              {"num_pages", info->fields["page_count"]},
              {"metadata", Metadata(info->fields["metadata"])},
              {"page_sizes", std::move(sizes)},
              {"is_encrypted", info->fields["encrypted"]}};
}

Json ExtractPages(State& s, const std::string& input, const std::string& output, const Json& pages,
                  const ToolContext& ctx) {
  const std::string prefix = "Failed to extract pages: ";
  std::string real, output_real;
  if (auto bad = EnsureInWorkspace(s, input, real); !bad.empty()) return Failure(prefix + bad);
  if (auto bad = EnsureInWorkspace(s, output, output_real); !bad.empty()) return Failure(prefix + bad);
  if (!Exists(s.options.workspace, real)) return Failure("Input file not found: " + input);
  std::string error;
  UniqueFd fd = Open(s, real, error);
  if (!fd.valid()) return Failure(prefix + error);
  std::string list;
  for (const Json& n : pages) list += (list.empty() ? "" : ",") + std::to_string(n.get<long long>());
  auto reply = CallHelper(s, "extract", {"--pages", list}, {fd.get()}, true, ctx);
  if (!reply) return Failure(prefix + reply.error().message);
  const long long total = reply->fields["page_count"];
  for (const Json& n : pages)
    if (n.get<long long>() < 1 || n.get<long long>() > total)
      return Failure("Invalid page number " + std::to_string(n.get<long long>()) + ". PDF has " +
                     std::to_string(total) + " pages.");
  if (int err = MakeParents(s.options.workspace, output_real); err != 0)
    return Failure(prefix + OsErrorText(err, output_real.substr(0, output_real.rfind('/'))));
  if (int err = WriteOutput(s.options.workspace, output_real, reply->pdf); err != 0)
    return Failure(prefix + OsErrorText(err, output_real));
  const std::string n = std::to_string(pages.size());
  return Json{{"success", true},
              {"output_file", output},
              {"pages_extracted", pages.size()},
              {"message", "Successfully extracted " + n + " pages to " + output}};
}

// The SDK's jsonschema check of the arguments (mcp 1.23.2 validates input
// by default): the first violation, as jsonschema words it.
std::optional<std::string> SchemaError(const Json& args, const Json& schema) {
  if (!args.is_object()) return py::Repr(py::FromJson(args)) + " is not of type 'object'";
  for (const Json& name : schema["required"])
    if (!args.contains(name.get<std::string>())) return py::Repr(std::string_view(name.get_ref<const std::string&>())) + " is a required property";
  for (const auto& [name, property] : schema["properties"].items()) {
    auto it = args.find(name);
    if (it == args.end()) continue;
    const std::string type = property["type"];
    auto wrong = [](const Json& v, const std::string& t) {
      return py::Repr(py::FromJson(v)) + " is not of type " + py::Repr(std::string_view(t));
    };
    if (type == "string" && !it->is_string()) return wrong(*it, type);
    if (type == "array") {
      if (!it->is_array()) return wrong(*it, type);
      for (const Json& item : *it)
        // jsonschema counts 1.0 as an integer, never a bool.
        if (!(item.is_number_integer() || (item.is_number_float() && item.get<double>() == static_cast<double>(
                                                                           static_cast<long long>(item.get<double>())))))
          return wrong(item, "integer");
    }
  }
  return std::nullopt;
}

Tool KlavisTool(const std::string& name, const std::string& description, Json schema, Json annotations,
                std::function<ToolResult(const Json&, const ToolContext&)> body) {
  Tool t;
  t.name = name;
  t.description = description;
  t.input_schema = schema;
  t.annotations = std::move(annotations);
  t.raw_arguments = true;
  t.handler = [schema, body](const Json& args, const ToolContext& ctx) {
    const Json given = args.is_null() ? Json::object() : args;
    if (auto bad = SchemaError(given, schema)) return ToolResult::Error("Input validation error: " + *bad);
    return body(given, ctx);
  };
  return t;
}

Json PathSchema(const char* key) {
  Json schema = Json::object();
  schema["type"] = "object";
  schema["required"] = Json::array({key});
  schema["properties"] = Json{{key, Json{{"type", "string"}}}};
  return schema;
}

Json Hints(bool read_only, const char* category) {
  Json a = Json::object();
  if (read_only) a["readOnlyHint"] = true;
  a["category"] = category;
  return a;
}

// Whole numbers, as Python's json gives them to the tool (1.0 stays a float
// there, and pypdf's page index would reject it: ours counts it as 1).
Json Integers(const Json& pages) {
  Json out = Json::array();
  for (const Json& n : pages) out.push_back(n.is_number_integer() ? n.get<long long>() : static_cast<long long>(n.get<double>()));
  return out;
}

}  // namespace

std::vector<Tool> KlavisTools(std::shared_ptr<State> state) {
  std::vector<Tool> tools;
  tools.push_back(KlavisTool(
      "pdf_tools_read_pdf", "Read a PDF in the workspace: its metadata and the text of every page.",
      PathSchema("file_path"), Hints(true, "PDF_READ"), [state](const Json& args, const ToolContext& ctx) {
        const Json& path = args["file_path"];
        if (path.get<std::string>().empty()) return ToolResult::Text("Error: file_path parameter is required");
        return ToolResult::Text(Dump(ReadPdf(*state, path, ctx)));
      }));
  tools.push_back(KlavisTool(
      "pdf_tools_get_pdf_info", "Describe a PDF in the workspace (metadata, page sizes, encryption) without its text.",
      PathSchema("file_path"), Hints(true, "PDF_INFO"), [state](const Json& args, const ToolContext& ctx) {
        const Json& path = args["file_path"];
        if (path.get<std::string>().empty()) return ToolResult::Text("Error: file_path parameter is required");
        return ToolResult::Text(Dump(GetInfo(*state, path, ctx)));
      }));
  Json extract = Json::object();
  extract["type"] = "object";
  extract["required"] = Json::array({"input_file", "output_file", "page_numbers"});
  extract["properties"] = Json{{"input_file", Json{{"type", "string"}}},
                               {"output_file", Json{{"type", "string"}}},
                               {"page_numbers", Json{{"type", "array"}, {"items", Json{{"type", "integer"}}}}}};
  tools.push_back(KlavisTool(
      "pdf_tools_extract_pages", "Write the listed pages (1-based) of a workspace PDF to a new PDF in the workspace.",
      extract, Hints(false, "PDF_MANIPULATE"), [state](const Json& args, const ToolContext& ctx) {
        const std::string input = args["input_file"], output = args["output_file"];
        if (input.empty() || output.empty() || args["page_numbers"].empty())
          return ToolResult::Text("Error: input_file, output_file, and page_numbers are required");
        return ToolResult::Text(Dump(ExtractPages(*state, input, output, Integers(args["page_numbers"]), ctx)));
      }));
  return tools;
}

}  // namespace sbx::servers::pdf_tools
