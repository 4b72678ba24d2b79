// What the arxiv tools share within one agent (one sandbox): the options,
// the store and storage, upstream's in-memory table of download/conversion
// statuses (its module-global conversion_statuses), and the search index
// built from the store, rebuilt when the store's directory changes.
//
// Thread-safety: all members may be used concurrently; the status table
// and the index cache are guarded by their own mutexes.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "servers/arxiv/arxiv.h"
#include "servers/arxiv/paper_store.h"
#include "servers/arxiv/query.h"
#include "servers/arxiv/storage.h"

namespace sbx::servers::arxiv {

// Upstream's ConversionStatus.
struct ConversionStatus {
  std::string status;  // "downloading", "converting", "success", "error"
  UnixMicros started_at = 0;
  std::optional<UnixMicros> completed_at;
  std::optional<std::string> error;
};

// The store's papers, newest first (upstream sorts by submission date,
// descending), each with its tokens.
struct SearchIndex {
  std::vector<PaperMetadata> papers;
  std::vector<IndexedPaper> tokens;  // parallel to papers
};

IndexedPaper IndexPaper(const PaperMetadata& paper);

// The storage directory below the workspace for `storage_path` (relative,
// or absolute inside `workspace`), without "." components; errors for ".."
// or a path outside the workspace.
Result<std::string> StorageRelativeDir(const std::string& workspace, const std::string& storage_path);

class ServerState {
 public:
  ServerState(Options options, std::string storage_relative_dir);

  const Options& options() const { return options_; }
  const PaperStore& store() const { return store_; }
  const PaperStorage& storage() const { return storage_; }
  UnixMicros Now() const { return clock_->Now(); }

  // The index of the store as it is now (built on first use, rebuilt when
  // the store's top-level directory changes).
  Result<std::shared_ptr<const SearchIndex>> Index();

  std::mutex statuses_mu;
  std::map<std::string, ConversionStatus> statuses;  // by paper_id as given

 private:
  Options options_;
  PaperStore store_;
  PaperStorage storage_;
  std::shared_ptr<const Clock> clock_;
  std::mutex index_mu_;
  std::string index_fingerprint_;
  std::shared_ptr<const SearchIndex> index_;
};

}  // namespace sbx::servers::arxiv
