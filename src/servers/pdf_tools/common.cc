#include <cerrno>

#include "python_text/fastmcp_arguments.h"
#include "python_text/repr.h"
#include "servers/pdf_tools/schemas.h"
#include "servers/pdf_tools/tools_internal.h"

namespace sbx::servers::pdf_tools {

Result<pdf::Reply> CallHelper(const State& state, const std::string& command, std::vector<std::string> arguments,
                              const std::vector<int>& inputs, bool writes_pdf, const mcp::ToolContext& ctx,
                              int* failed_input) {
  pdf::Limits limits = HelperLimits(state.options);
  limits.max_output_bytes = writes_pdf ? state.options.max_file_bytes : state.options.max_text_bytes;
  pdf::Request request{command, std::move(arguments), inputs, writes_pdf, failed_input};
  return pdf::RunHelper(request, limits, [&ctx] { return ctx.cancelled(); });
}

bool IsUrl(const std::string& path) { return path.starts_with("http://") || path.starts_with("https://"); }

std::string DownloadFailure(const std::string& url) {
  // requests' ConnectionError for a name that does not resolve (the jail has
  // no network), less the urllib3 object's address, which varies by run.
  const bool https = url.starts_with("https://");
  std::string rest = url.substr(https ? 8 : 7);
  std::size_t slash = rest.find_first_of("/?#");
  std::string authority = rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
  if (path[0] != '/') path = "/" + path;
  if (auto hash = path.find('#'); hash != std::string::npos) path.resize(hash);
  if (auto at = authority.rfind('@'); at != std::string::npos) authority = authority.substr(at + 1);
  std::string host = authority, port = https ? "443" : "80";
  if (auto colon = authority.rfind(':'); colon != std::string::npos && authority.find(']') == std::string::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  return "Failed to download PDF from URL: " + std::string(https ? "HTTPS" : "HTTP") + "ConnectionPool(host='" + host +
         "', port=" + port + "): Max retries exceeded with url: " + path +
         " (Caused by NameResolutionError(\"Failed to resolve '" + host +
         "' ([Errno -3] Temporary failure in name resolution)\"))";
}

std::optional<std::string> ValidatePath(const State& state, const std::string& path, std::string& real) {
  Resolved r = ResolveInWorkspace(state.options.workspace, path);
  if (!r.invalid.empty()) return "Error validating path: " + r.invalid;
  if (!r.inside)
    return "Error: Path '" + path + "' is outside the allowed workspace '" + state.options.workspace + "'";
  real = r.real;
  return std::nullopt;
}

Input OpenGiven(const State& state, const std::string& given, const std::string& real) {
  if (given.empty()) return Input{UniqueFd(), ENOENT};
  return OpenInput(state.options.workspace, real, state.options.max_file_bytes);
}

int WriteGiven(const State& state, const std::string& given, const std::string& real, std::string_view data) {
  if (given.empty()) return ENOENT;
  return WriteOutput(state.options.workspace, real, data);
}

std::string OpenErrorText(const State& state, int error, const std::string& filename) {
  if (error == EFBIG)
    return "the file is larger than " + std::to_string(state.options.max_file_bytes) + " bytes (this server's limit)";
  if (error == ENODEV) return "not a regular file: " + py::Repr(std::string_view(filename));
  return OsErrorText(error, filename);
}

mcp::ToolResult TextResult(std::string text) { return mcp::ToolResult::TextWithStructured(std::move(text), "result"); }

mcp::Tool FastMcpTool(const std::string& name, const std::string& description, std::vector<Field> fields,
                      std::function<std::string(const Json& values, const mcp::ToolContext&)> body) {
  mcp::Tool t;
  t.name = name;
  t.description = description;
  t.input_schema = FastMcpInput(name, fields);
  t.output_schema = FastMcpOutput(name);
  t.raw_arguments = true;
  // pdf-tools-mcp pins pydantic 2.11.7 (uv.lock).
  t.handler = [name, schema = t.input_schema, body](const Json& args, const mcp::ToolContext& ctx) {
    py::FastMcpArguments parsed = py::ValidateFastMcpArguments(name, schema, args, "2.11");
    if (parsed.error) return mcp::ToolResult::Error(*parsed.error);
    return TextResult(body(parsed.values, ctx));
  };
  return t;
}

}  // namespace sbx::servers::pdf_tools
