// download_paper, list_papers and read_paper: upstream's handle_download
// (tools/download.py), handle_list_papers (tools/list_papers.py) and
// handle_read_paper (tools/read_paper.py), with the paper store in place of
// arXiv and poppler in place of pymupdf4llm.
#include <algorithm>

#include "python_text/codec.h"
#include "python_text/json_dumps.h"
#include "servers/arxiv/dates.h"
#include "servers/arxiv/pdf_markdown.h"
#include "servers/arxiv/tools.h"

namespace sbx::servers::arxiv {
namespace {

// Upstream answers with json.dumps(...) of a small dict, no indent.
mcp::ToolResult Reply(const Json& fields) { return mcp::ToolResult::Text(py::Dumps(fields)); }

mcp::ToolResult StatusError(const std::string& message) {
  return Reply(Json{{"status", "error"}, {"message", message}});
}

Json StatusDetails(const ConversionStatus& s) {
  return Json{{"status", s.status},
              {"started_at", NaiveIsoFormat(s.started_at)},
              {"completed_at", s.completed_at ? Json(NaiveIsoFormat(*s.completed_at)) : Json(nullptr)},
              {"error", s.error ? Json(*s.error) : Json(nullptr)},
              {"message", "Paper conversion " + s.status}};
}

Json InProgress(const ConversionStatus& s) {
  return Json{{"status", s.status},
              {"message", "Paper conversion " + s.status},
              {"started_at", NaiveIsoFormat(s.started_at)}};
}

// Runs the download and the conversion the way upstream's would look to a
// caller whose next request comes after its background conversion ended:
// this call reports "converting" and the status table holds the outcome.
// Doing the work before answering makes the sequence deterministic (no
// read_paper racing the conversion) at no cost to upstream's shapes.
mcp::ToolResult Fetch(ServerState& state, const std::string& paper_id, const mcp::ToolContext& ctx) {
  const PaperStorage& storage = state.storage();
  const std::string stem = PaperStorage::FileStem(paper_id);
  auto meta = state.store().Lookup(paper_id);
  if (!meta) return StatusError("Error: " + meta.error().message);
  if (!meta->has_value()) return StatusError("Paper " + paper_id + " not found on arXiv");

  UnixMicros started = state.Now();
  {
    std::lock_guard lock(state.statuses_mu);
    auto [it, inserted] = state.statuses.try_emplace(paper_id, ConversionStatus{"downloading", started, {}, {}});
    if (!inserted) return Reply(InProgress(it->second));  // another call got there first
  }
  auto forget = [&] {
    std::lock_guard lock(state.statuses_mu);
    state.statuses.erase(paper_id);
  };
  auto finish = [&](std::optional<std::string> error) {
    std::lock_guard lock(state.statuses_mu);
    ConversionStatus& s = state.statuses[paper_id];
    s.status = error ? "error" : "success";
    s.completed_at = state.Now();
    s.error = std::move(error);
  };
  const Options& o = state.options();
  auto content = state.store().Content(paper_id, o.max_markdown_bytes, o.max_pdf_bytes);
  if (!content && content.error().code != ErrorCode::kTooLarge) {
    forget();
    return StatusError("Error: " + content.error().message);
  }
  if (content && content->pdf) {
    if (auto s = storage.Write(stem + ".pdf", *content->pdf); !s) {
      forget();
      return StatusError("Error: " + s.error().message);
    }
  }
  {
    std::lock_guard lock(state.statuses_mu);
    state.statuses[paper_id].status = "converting";
  }
  Result<std::string> markdown = content ? Result<std::string>(std::string()) : Result<std::string>(content.error());
  if (content && content->markdown) {
    if (auto bad = py::Utf8DecodeError(*content->markdown))
      markdown = MakeError(ErrorCode::kInvalidArgument, "the store's paper.md is not UTF-8: " + *bad);
    else
      markdown = std::move(*content->markdown);
  } else if (content) {
    markdown = PdfToMarkdown(*content->pdf, PdfLimits{o.max_pdf_pages, o.max_markdown_bytes},
                             [&ctx] { return ctx.cancelled(); });
  }
  if (!markdown && markdown.error().code == ErrorCode::kUnavailable) {  // cancelled: as if never asked
    forget();
    return StatusError("Error: cancelled");
  }
  if (!markdown) {
    finish(markdown.error().message);
  } else if (auto s = storage.Write(stem + ".md", *markdown); !s) {
    finish(s.error().message);
  } else {
    finish(std::nullopt);
  }
  return Reply(Json{{"status", "converting"},
                    {"message", "Paper downloaded, conversion started"},
                    {"started_at", NaiveIsoFormat(started)}});
}

}  // namespace

mcp::ToolResult DownloadPaper(ServerState& state, const Json& args, const mcp::ToolContext& ctx) {
  const std::string paper_id = args["paper_id"].get<std::string>();
  const bool check_status = args.value("check_status", false);
  const PaperStorage& storage = state.storage();
  if (auto s = storage.EnsureDirectory(); !s) return StatusError("Error: " + s.error().message);
  const std::string md_name = PaperStorage::FileStem(paper_id) + ".md";
  const bool ready = storage.Exists(md_name);
  const std::string resource_uri = "file://" + storage.PathOf(md_name);
  {
    std::lock_guard lock(state.statuses_mu);
    auto it = state.statuses.find(paper_id);
    // A success whose file is gone (the workspace was re-initialized) is
    // forgotten, so the paper can be fetched again. Upstream would keep
    // reporting success for a file that no longer exists.
    if (it != state.statuses.end() && it->second.status == "success" && !ready) {
      state.statuses.erase(it);
      it = state.statuses.end();
    }
    if (check_status) {
      if (it != state.statuses.end()) return Reply(StatusDetails(it->second));
      if (ready) return Reply(Json{{"status", "success"}, {"message", "Paper is ready"}, {"resource_uri", resource_uri}});
      return Reply(Json{{"status", "unknown"}, {"message", "No download or conversion in progress"}});
    }
    if (ready)
      return Reply(Json{{"status", "success"}, {"message", "Paper already available"}, {"resource_uri", resource_uri}});
    if (it != state.statuses.end()) return Reply(InProgress(it->second));
  }
  return Fetch(state, paper_id, ctx);
}

mcp::ToolResult ListPapers(ServerState& state, const Json&, const mcp::ToolContext&) {
  const PaperStorage& storage = state.storage();
  if (auto s = storage.EnsureDirectory(); !s) return mcp::ToolResult::Text("Error: " + s.error().message);
  auto stems = storage.MarkdownStems(state.options().max_store_papers);
  if (!stems) return mcp::ToolResult::Text("Error: " + stems.error().message);
  Json papers = Json::array();
  for (const std::string& stem : *stems) {
    auto meta = state.store().Lookup(PaperStorage::PaperIdOf(stem));
    if (!meta) {
      if (meta.error().code == ErrorCode::kUnavailable) return mcp::ToolResult::Text("Error: " + meta.error().message);
      continue;  // a broken store entry: left out, as arXiv leaves out ids it does not know
    }
    if (!meta->has_value()) continue;
    const PaperMetadata& p = **meta;
    papers.push_back(Json{{"title", CollapseSpaces(p.title)},
                          {"summary", p.summary},
                          {"authors", p.authors},
                          {"links", p.links},
                          {"pdf_url", p.pdf_url}});
  }
  Json response{{"total_papers", stems->size()}, {"papers", std::move(papers)}};
  return mcp::ToolResult::Text(py::Dumps(response, {.indent = 2}));
}

mcp::ToolResult ReadPaper(ServerState& state, const Json& args, const mcp::ToolContext&) {
  const std::string paper_id = args["paper_id"].get<std::string>();
  const PaperStorage& storage = state.storage();
  auto failed = [](const std::string& why) { return StatusError("Error reading paper: " + why); };
  if (auto s = storage.EnsureDirectory(); !s) return failed(s.error().message);
  auto stems = storage.MarkdownStems(state.options().max_store_papers);
  if (!stems) return failed(stems.error().message);
  const std::string stem = PaperStorage::FileStem(paper_id);
  if (std::find(stems->begin(), stems->end(), stem) == stems->end())
    return StatusError("Paper " + paper_id +
                       " not found in storage. You may need to download it first using download_paper.");
  auto data = storage.Read(stem + ".md", state.options().max_markdown_bytes);
  if (!data) return failed(data.error().message);
  if (auto bad = py::Utf8DecodeError(*data)) return failed(*bad);
  return Reply(Json{{"status", "success"}, {"paper_id", paper_id}, {"content", py::UniversalNewlines(*data)}});
}

}  // namespace sbx::servers::arxiv
