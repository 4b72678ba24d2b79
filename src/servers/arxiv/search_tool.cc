// search_papers: upstream's handle_search (tools/search.py) over the local
// index instead of arXiv's API.
#include <optional>

#include "python_text/json_dumps.h"
#include "servers/arxiv/analysis.h"
#include "servers/arxiv/dates.h"
#include "servers/arxiv/query.h"
#include "servers/arxiv/tools.h"

namespace sbx::servers::arxiv {
namespace {

// Upstream's _process_paper.
Json PaperJson(const PaperMetadata& p) {
  return Json{{"id", p.id},
              {"title", CollapseSpaces(p.title)},
              {"authors", p.authors},
              {"abstract", p.summary},
              {"categories", p.categories},
              {"published", IsoFormat(p.published)},
              {"url", p.pdf_url},
              {"resource_uri", "arxiv://" + p.id}};
}

mcp::ToolResult ErrorText(const std::string& message) { return mcp::ToolResult::Text("Error: " + message); }

}  // namespace

mcp::ToolResult SearchPapers(ServerState& state, const Json& args, const mcp::ToolContext& ctx) {
  // min(int(max_results), 50). Upstream's arxiv client fetches nothing for a
  // negative count and stops after the first paper for 0 (its limit 0 means
  // "no limit", and the loop breaks once len(results) >= 0).
  std::int64_t requested = 10;
  if (auto it = args.find("max_results"); it != args.end()) {
    if (it->is_number_unsigned()) requested = static_cast<std::int64_t>(std::min<std::uint64_t>(it->get<std::uint64_t>(), 1000));
    else if (it->is_number_integer()) requested = it->get<std::int64_t>();
    else if (it->is_number()) requested = it->get<double>() >= 1000 ? 1000 : it->get<double>() < 0 ? -1 : static_cast<std::int64_t>(it->get<double>());
  }
  const std::int64_t max_results = std::min<std::int64_t>(requested, kMaxSearchResults);
  const std::size_t limit = max_results < 0 ? 0 : max_results == 0 ? 1 : static_cast<std::size_t>(max_results);

  std::vector<std::string> categories;
  if (args.contains("categories"))
    for (const Json& c : args["categories"]) categories.push_back(c.get<std::string>());
  const std::string search_query = UpstreamQuery(args["query"].get<std::string>(), categories);

  std::optional<UnixMicros> date_from, date_to;
  for (auto [key, into] : {std::pair{"date_from", &date_from}, std::pair{"date_to", &date_to}}) {
    if (!args.contains(key)) continue;
    auto parsed = ParseFilterDate(args[key].get<std::string>(), state.Now());
    if (!parsed) return ErrorText("Invalid date format - " + parsed.error().message);
    *into = *parsed;
  }

  auto query = ArxivQuery::Parse(search_query);
  if (!query) return ErrorText(query.error().message);
  auto index = state.Index();
  if (!index) return ErrorText(index.error().message);

  // Deliberate difference: the date range filters the matches before the
  // count is applied. Upstream asks arXiv for the newest max_results matches
  // and filters those, so a range in the past usually yields nothing.
  Json papers = Json::array();
  const SearchIndex& ix = **index;
  for (std::size_t i = 0; i < ix.papers.size() && papers.size() < limit; ++i) {
    if (i % 4096 == 0 && ctx.cancelled()) break;
    const UnixMicros published = ix.papers[i].published.utc;
    if ((date_from && published < *date_from) || (date_to && published > *date_to)) continue;
    if (query->Matches(ix.tokens[i])) papers.push_back(PaperJson(ix.papers[i]));
  }
  Json response{{"total_results", papers.size()}, {"papers", std::move(papers)}};
  return mcp::ToolResult::Text(py::Dumps(response, {.indent = 2}));
}

}  // namespace sbx::servers::arxiv
