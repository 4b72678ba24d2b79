// What the pdf-tools tool files share: the server's state, the helper call,
// and upstream's path steps.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/tool.h"
#include "pdf/client.h"
#include "servers/pdf_tools/files.h"
#include "servers/pdf_tools/pdf_tools.h"
#include "servers/pdf_tools/schemas.h"
#include "servers/pdf_tools/sessions.h"

namespace sbx::servers::pdf_tools {

struct State {
  explicit State(const Options& o) : options(o), sessions(o.clock, o.search_ttl_seconds) {}
  Options options;
  Sessions sessions;
};

// One helper request on `inputs` (read-only descriptors). `text` bounds the
// reply by max_text_bytes, else the written PDF by max_file_bytes.
Result<pdf::Reply> CallHelper(const State& state, const std::string& command, std::vector<std::string> arguments,
                              const std::vector<int>& inputs, bool writes_pdf, const mcp::ToolContext& ctx,
                              int* failed_input = nullptr);

// is_url(): "http://" or "https://".
bool IsUrl(const std::string& path);
// str() of the requests exception a download raises in the jail (no
// network): "Failed to download PDF from URL: …".
std::string DownloadFailure(const std::string& url);

// Upstream's validate_path(): nullopt when `path` is inside the workspace
// (`real` set), else the text it returns.
std::optional<std::string> ValidatePath(const State& state, const std::string& path, std::string& real);

// open(given) for reading / writing `real` (ValidatePath's answer): an empty
// name is Python's FileNotFoundError, though it resolves to the workspace.
Input OpenGiven(const State& state, const std::string& given, const std::string& real);
int WriteGiven(const State& state, const std::string& given, const std::string& real, std::string_view data);

// Why an input could not be used: the file-size bound in the server's words,
// else Python's OSError text.
std::string OpenErrorText(const State& state, int error, const std::string& filename);

// FastMCP's {"result": text}.
mcp::ToolResult TextResult(std::string text);

// A FastMCP tool of pdf-tools-mcp: its schemas from `fields`, arguments
// checked against the input schema as FastMCP does
// (python_text/fastmcp_arguments.h), the text `body` returns as the
// result.
mcp::Tool FastMcpTool(const std::string& name, const std::string& description, std::vector<Field> fields,
                      std::function<std::string(const Json& values, const mcp::ToolContext&)> body);

std::vector<mcp::Tool> FileTools(std::shared_ptr<State> state);    // read, info, merge, extract
std::vector<mcp::Tool> SearchTools(std::shared_ptr<State> state);  // search and its sessions
std::vector<mcp::Tool> KlavisTools(std::shared_ptr<State> state);  // the klavis variant

}  // namespace sbx::servers::pdf_tools
