// Registration: the four tools with the reference input schemas, in
// upstream's order, and our own descriptions.
#include "servers/arxiv/prompts.h"
#include "servers/arxiv/tools.h"

#include <memory>
#include <utility>
#include <vector>

#include "servers/arxiv/arxiv.h"

namespace sbx::servers::arxiv {

const Json& InputSchemas() {
  // Equal to shared/reference/tools/arxiv.json key for key, order included
  // (tools_test.cc compares them byte for byte).
  static const Json schemas = Json::parse(R"({
    "search_papers": {"type": "object", "properties": {
        "query": {"type": "string"}, "max_results": {"type": "integer"},
        "date_from": {"type": "string"}, "date_to": {"type": "string"},
        "categories": {"type": "array", "items": {"type": "string"}}},
      "required": ["query"]},
    "download_paper": {"type": "object", "properties": {
        "paper_id": {"type": "string"},
        "check_status": {"type": "boolean", "default": false}},
      "required": ["paper_id"]},
    "list_papers": {"type": "object", "properties": {}, "required": []},
    "read_paper": {"type": "object", "properties": {"paper_id": {"type": "string"}},
      "required": ["paper_id"]}
  })");
  return schemas;
}

std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options) {
  // The path was checked by OptionsFromSettings; a bad one passed in
  // directly falls back to the default rather than to anywhere outside.
  auto rel = StorageRelativeDir(options.workspace, options.storage_path);
  auto state = std::make_shared<ServerState>(options, rel ? *rel : std::string("arxiv_local_storage"));
  using Handler = mcp::ToolResult (*)(ServerState&, const Json&, const mcp::ToolContext&);
  auto tool = [&](const char* name, std::string description, Handler handler) {
    mcp::Tool t;
    t.name = name;
    t.description = std::move(description);
    t.input_schema = InputSchemas()[name];
    // Handlers hold the state alive for as long as the definition lives.
    t.handler = [state, handler](const Json& args, const mcp::ToolContext& ctx) { return handler(*state, args, ctx); };
    return t;
  };
  std::vector<mcp::Tool> tools;
  tools.push_back(tool("search_papers",
                       "Search arXiv papers. `query` takes plain words (every word must match) or arXiv search "
                       "syntax: field prefixes ti:, au:, abs:, co:, jr:, cat:, all:, \"quoted phrases\", AND / OR / "
                       "ANDNOT and parentheses. Optional: max_results (default 10, at most 50), date_from / date_to "
                       "(dates such as 2023-01-31, compared with the submission date) and categories (e.g. "
                       "[\"cs.AI\", \"cs.LG\"], any of them). Returns JSON with total_results and papers (id, title, "
                       "authors, abstract, categories, published, url, resource_uri), newest first.",
                       SearchPapers));
  tools.push_back(tool("download_paper",
                       "Fetch a paper by its arXiv id (e.g. 2301.12345 or hep-th/9901001) into local storage and "
                       "convert it to markdown so read_paper can return it. Returns JSON with a status "
                       "(\"converting\" once started, \"success\" when already available, \"error\"). Pass "
                       "check_status=true to only report the conversion's state.",
                       DownloadPaper));
  tools.push_back(tool("list_papers",
                       "List the papers already downloaded to local storage. Returns JSON with total_papers and, "
                       "per paper, title, summary, authors, links and pdf_url.",
                       ListPapers));
  tools.push_back(tool("read_paper",
                       "Return the full markdown text of a downloaded paper by its arXiv id, as JSON with status, "
                       "paper_id and content. Download the paper with download_paper first.",
                       ReadPaper));
  auto server = std::make_shared<mcp::ServerDefinition>(mcp::ServerInfo{"arxiv-mcp-server", "0.2.11", "", ""},
                                                        std::move(tools));
  server->SetPrompts(MakePrompts());
  // What the Python SDK's get_capabilities gives upstream's server (prompts
  // and tools handlers, empty experimental capabilities), in its field order.
  server->SetCapabilities(Json{{"experimental", Json::object()},
                               {"prompts", Json{{"listChanged", false}}},
                               {"tools", Json{{"listChanged", false}}}});
  return server;
}

}  // namespace sbx::servers::arxiv
