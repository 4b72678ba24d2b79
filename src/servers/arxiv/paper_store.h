// The paper store: the deployment's read-only collection of arXiv papers
// that stands in for arXiv itself (the jail has no network). Layout:
//
//   <store_dir>/
//     <folder>/                 the arXiv id without version, '/' → '_'
//       metadata.json             (1706.03762/, hep-th_9901001/)
//       paper.md                  optional: the paper as markdown (preferred)
//       paper.pdf                 optional: the PDF, converted on download
//
// metadata.json holds what arXiv's API reports for the paper:
//   "id"           required  the arXiv id as the API gives it, usually with
//                            its version ("1706.03762v7", "hep-th/9901001v1")
//   "title"        required  string
//   "authors"      required  array of strings
//   "summary"      required  string, the abstract ("abstract" is accepted too)
//   "categories"   required  array of strings, primary category first
//   "published"    required  RFC 3339 ("2017-06-12T17:57:34Z") or YYYY-MM-DD
//   "updated", "pdf_url", "links" (array of strings), "comment",
//   "journal_ref", "doi", "report_no"   optional
// Defaults: pdf_url http://arxiv.org/pdf/<id>, links [http://arxiv.org/abs/
// <id>, pdf_url] plus http://dx.doi.org/<doi> when a doi is given (the links
// arXiv's API lists). Other keys are ignored. A folder whose metadata is
// missing or malformed is left out of searches; asking for it by id reports
// why.
//
// Every file is opened below the store's root with openat2(RESOLVE_BENEATH),
// so a link planted in a store (e.g. one seeded into a workspace for tests)
// cannot lead outside it. Files are read whole within the given bounds.
//
// Thread-safety: a PaperStore is immutable; all methods may run concurrently.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "servers/arxiv/dates.h"

namespace sbx::servers::arxiv {

struct PaperMetadata {
  std::string id;  // with version when the store gives one
  std::string title;
  std::vector<std::string> authors;
  std::string summary;
  std::vector<std::string> categories;
  Timestamp published;
  Timestamp updated;
  std::string pdf_url;
  std::vector<std::string> links;
  std::string comment, journal_ref, doi, report_no;
};

// Whether `id` is an arXiv identifier: "2301.12345", "0704.0001v2" (new
// scheme) or "hep-th/9901001", "math.GT/0309136v1" (old scheme).
bool IsArxivId(std::string_view id);
// The id without its version suffix.
std::string_view WithoutVersion(std::string_view id);

// Parses a metadata.json document; the error says which field is wrong.
Result<PaperMetadata> ParseMetadata(std::string_view json_text);

// What download_paper copies into the workspace.
struct PaperContent {
  std::optional<std::string> markdown;  // paper.md, when present
  std::optional<std::string> pdf;       // paper.pdf, when present
};

class PaperStore {
 public:
  static constexpr std::uint64_t kMaxMetadataBytes = 1 << 20;

  explicit PaperStore(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }

  // The paper a download or listing asks for: an id with a version matches
  // only that version, one without matches whatever version the store has.
  // Empty when the store has no such paper (or `id` is not an arXiv id);
  // an error when the store or the entry cannot be read.
  Result<std::optional<PaperMetadata>> Lookup(std::string_view id) const;

  // Every readable paper, in folder name order; at most `max_papers`
  // (error beyond). Folders with bad metadata are skipped.
  Result<std::vector<PaperMetadata>> All(std::size_t max_papers) const;

  // The markdown and/or PDF of the paper whose id is `id` (bounded; a file
  // over its bound is an error naming it).
  Result<PaperContent> Content(std::string_view id, std::uint64_t max_markdown_bytes,
                               std::uint64_t max_pdf_bytes) const;

  // Identifies the store's top-level directory as it is now (device, inode,
  // modification and change times), so a cached index can tell it changed.
  Result<std::string> Fingerprint() const;

 private:
  std::string dir_;
};

}  // namespace sbx::servers::arxiv
