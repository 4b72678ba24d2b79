#include "servers/arxiv/server_state.h"

#include <algorithm>
#include <numeric>

#include "servers/arxiv/analysis.h"

namespace sbx::servers::arxiv {
namespace {

// Appends `values`' tokens to `into`, a boundary between values.
void AppendValues(std::vector<std::string>& into, const std::vector<std::string>& values, Analyzer analyzer) {
  for (const std::string& v : values) {
    std::vector<std::string> tokens = AnalyzeField(v, analyzer);
    if (tokens.empty()) continue;
    if (!into.empty()) into.emplace_back(kBoundaryToken);
    into.insert(into.end(), tokens.begin(), tokens.end());
  }
}

}  // namespace

IndexedPaper IndexPaper(const PaperMetadata& p) {
  IndexedPaper ix;
  ix.title = AnalyzeField(p.title, Analyzer::kText);
  ix.abstract = AnalyzeField(p.summary, Analyzer::kText);
  ix.comment = AnalyzeField(p.comment, Analyzer::kText);
  ix.journal = AnalyzeField(p.journal_ref, Analyzer::kText);
  AppendValues(ix.authors, p.authors, Analyzer::kName);
  ix.report = AnalyzeField(p.report_no, Analyzer::kName);
  for (const std::string& c : p.categories) AppendValues(ix.categories, {c}, Analyzer::kExact);
  ix.categories.erase(std::remove(ix.categories.begin(), ix.categories.end(), std::string(kBoundaryToken)),
                      ix.categories.end());
  const std::string bare(WithoutVersion(p.id));
  ix.ids = AnalyzeField(bare, Analyzer::kExact);
  if (bare != p.id) ix.ids.push_back(AnalyzeField(p.id, Analyzer::kExact).front());
  std::vector<std::string> every = {p.title, p.summary, p.comment, p.journal_ref, p.report_no, bare, p.id};
  every.insert(every.end(), p.authors.begin(), p.authors.end());
  every.insert(every.end(), p.categories.begin(), p.categories.end());
  AppendValues(ix.all, every, Analyzer::kText);
  return ix;
}

Result<std::string> StorageRelativeDir(const std::string& workspace, const std::string& storage_path) {
  std::string_view rest = storage_path;
  if (rest.starts_with('/')) {
    std::string_view root = workspace;
    while (root.size() > 1 && root.ends_with('/')) root.remove_suffix(1);
    if (!rest.starts_with(root) || (rest.size() > root.size() && rest[root.size()] != '/' && root != "/"))
      return MakeError(ErrorCode::kInvalidArgument,
                       "storage_path " + storage_path + " is not inside the workspace " + workspace);
    rest.remove_prefix(root.size());
  }
  std::string rel;
  while (!rest.empty()) {
    std::size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..")
      return MakeError(ErrorCode::kInvalidArgument, "storage_path " + storage_path + " must not contain '..'");
    if (part.find('\0') != std::string_view::npos)
      return MakeError(ErrorCode::kInvalidArgument, "storage_path must not contain NUL");
    rel += (rel.empty() ? "" : "/") + std::string(part);
  }
  return rel;
}

ServerState::ServerState(Options options, std::string storage_relative_dir)
    : options_(std::move(options)),
      store_(options_.store_dir),
      storage_(options_.workspace, std::move(storage_relative_dir)),
      clock_(options_.clock ? options_.clock : std::make_shared<SystemClock>()) {}

Result<std::shared_ptr<const SearchIndex>> ServerState::Index() {
  std::lock_guard lock(index_mu_);
  auto fingerprint = store_.Fingerprint();
  if (!fingerprint) return fingerprint.error();
  if (index_ && *fingerprint == index_fingerprint_) return index_;
  auto papers = store_.All(options_.max_store_papers);
  if (!papers) return papers.error();
  std::vector<std::size_t> order(papers->size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const PaperMetadata& pa = (*papers)[a];
    const PaperMetadata& pb = (*papers)[b];
    if (pa.published.utc != pb.published.utc) return pa.published.utc > pb.published.utc;
    return pa.id > pb.id;
  });
  auto index = std::make_shared<SearchIndex>();
  for (std::size_t i : order) {
    index->tokens.push_back(IndexPaper((*papers)[i]));
    index->papers.push_back(std::move((*papers)[i]));
  }
  index_ = std::move(index);
  index_fingerprint_ = *fingerprint;
  return index_;
}

}  // namespace sbx::servers::arxiv
