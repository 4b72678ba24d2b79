#include "servers/arxiv/paper_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <tuple>

#include "core/json.h"
#include "servers/arxiv/os_files.h"

namespace sbx::servers::arxiv {
namespace {

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Splits "…v<digits>" into the id and whether the version suffix is well formed.
std::string_view StripVersion(std::string_view id, bool& ok) {
  ok = true;
  std::size_t v = id.rfind('v');
  if (v == std::string_view::npos || (id.find('/') > v && id.find('.') > v)) return id;
  std::string_view digits = id.substr(v + 1);
  if (!AllDigits(digits)) return id;
  ok = digits.size() <= 6;
  return id.substr(0, v);
}

bool IsNewStyle(std::string_view id) {
  return id.size() >= 9 && id.size() <= 10 && AllDigits(id.substr(0, 4)) && id[4] == '.' &&
         AllDigits(id.substr(5));
}

bool IsOldStyle(std::string_view id) {
  std::size_t slash = id.find('/');
  if (slash == std::string_view::npos || id.substr(slash + 1).size() != 7 || !AllDigits(id.substr(slash + 1)))
    return false;
  std::string_view archive = id.substr(0, slash);
  if (std::size_t dot = archive.find('.'); dot != std::string_view::npos) {
    std::string_view subject = archive.substr(dot + 1);
    if (subject.size() != 2 || !std::isupper(static_cast<unsigned char>(subject[0])) ||
        !std::isupper(static_cast<unsigned char>(subject[1])))
      return false;
    archive = archive.substr(0, dot);
  }
  // [a-z]+(-[a-z]+)*
  if (archive.empty() || archive.front() == '-' || archive.back() == '-' ||
      archive.find("--") != std::string_view::npos)
    return false;
  return std::all_of(archive.begin(), archive.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
}

std::string FolderFor(std::string_view id) {
  std::string folder(WithoutVersion(id));
  std::replace(folder.begin(), folder.end(), '/', '_');
  return folder;
}

Result<std::string> Str(const Json& doc, const char* key, bool required) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) {
    if (required) return MakeError(ErrorCode::kInvalidArgument, std::string("\"") + key + "\" is missing");
    return std::string();
  }
  if (!it->is_string()) return MakeError(ErrorCode::kInvalidArgument, std::string("\"") + key + "\" must be a string");
  return it->get<std::string>();
}

Result<std::vector<std::string>> Strings(const Json& doc, const char* key, bool required) {
  auto it = doc.find(key);
  std::vector<std::string> out;
  if (it == doc.end() || it->is_null()) {
    if (required) return MakeError(ErrorCode::kInvalidArgument, std::string("\"") + key + "\" is missing");
    return out;
  }
  const std::string bad = std::string("\"") + key + "\" must be an array of strings";
  if (!it->is_array()) return MakeError(ErrorCode::kInvalidArgument, bad);
  for (const Json& v : *it) {
    if (!v.is_string()) return MakeError(ErrorCode::kInvalidArgument, bad);
    out.push_back(v.get<std::string>());
  }
  return out;
}

Result<Timestamp> Date(const Json& doc, const char* key, std::optional<Timestamp> fallback) {
  auto text = Str(doc, key, !fallback.has_value());
  if (!text) return text.error();
  if (text->empty() && fallback) return *fallback;
  auto ts = ParseTimestamp(*text);
  if (!ts)
    return MakeError(ErrorCode::kInvalidArgument,
                     std::string("\"") + key + "\" must be an RFC 3339 timestamp or YYYY-MM-DD, not \"" + *text + "\"");
  return *ts;
}

}  // namespace

bool IsArxivId(std::string_view id) {
  bool version_ok = true;
  std::string_view bare = StripVersion(id, version_ok);
  return version_ok && (IsNewStyle(bare) || IsOldStyle(bare));
}

std::string_view WithoutVersion(std::string_view id) {
  bool ok = true;
  return StripVersion(id, ok);
}

Result<PaperMetadata> ParseMetadata(std::string_view json_text) {
  Json doc = Json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return MakeError(ErrorCode::kInvalidArgument, "not a JSON object");
  PaperMetadata m;
  auto take = [](auto result, auto& into) -> Status {
    if (!result) return result.error();
    into = std::move(*result);
    return Ok();
  };
  if (auto s = take(Str(doc, "id", true), m.id); !s) return s.error();
  if (!IsArxivId(m.id))
    return MakeError(ErrorCode::kInvalidArgument, "\"id\" is not an arXiv identifier: \"" + m.id + "\"");
  if (auto s = take(Str(doc, "title", true), m.title); !s) return s.error();
  if (auto s = take(Strings(doc, "authors", true), m.authors); !s) return s.error();
  const char* summary_key = doc.contains("summary") || !doc.contains("abstract") ? "summary" : "abstract";
  if (auto s = take(Str(doc, summary_key, true), m.summary); !s) return s.error();
  if (auto s = take(Strings(doc, "categories", true), m.categories); !s) return s.error();
  if (auto s = take(Date(doc, "published", std::nullopt), m.published); !s) return s.error();
  if (auto s = take(Date(doc, "updated", m.published), m.updated); !s) return s.error();
  for (auto [key, into] : {std::pair{"comment", &m.comment}, std::pair{"journal_ref", &m.journal_ref},
                           std::pair{"doi", &m.doi}, std::pair{"report_no", &m.report_no},
                           std::pair{"pdf_url", &m.pdf_url}})
    if (auto s = take(Str(doc, key, false), *into); !s) return s.error();
  if (m.pdf_url.empty()) m.pdf_url = "http://arxiv.org/pdf/" + m.id;
  if (auto s = take(Strings(doc, "links", false), m.links); !s) return s.error();
  if (!doc.contains("links")) {
    m.links = {"http://arxiv.org/abs/" + m.id, m.pdf_url};
    if (!m.doi.empty()) m.links.insert(m.links.begin(), "http://dx.doi.org/" + m.doi);
  }
  return m;
}

Result<std::optional<PaperMetadata>> PaperStore::Lookup(std::string_view id) const {
  if (!IsArxivId(id)) return std::optional<PaperMetadata>();
  auto root = OpenRoot(dir_);
  if (!root) return MakeError(ErrorCode::kUnavailable, "paper store is not available: " + root.error().message);
  const std::string folder = FolderFor(id);
  const std::string rel = folder + "/metadata.json";
  auto text = ReadBeneath(root->get(), rel, kMaxMetadataBytes, dir_ + "/" + rel);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return std::optional<PaperMetadata>();
    return MakeError(ErrorCode::kInternal, "paper store entry " + folder + ": " + text.error().message);
  }
  auto meta = ParseMetadata(*text);
  if (!meta) return MakeError(ErrorCode::kInternal, "paper store entry " + rel + ": " + meta.error().message);
  if (WithoutVersion(meta->id) != WithoutVersion(id))
    return MakeError(ErrorCode::kInternal,
                     "paper store entry " + rel + ": its id " + meta->id + " does not belong in folder " + folder);
  if (WithoutVersion(id) != id && meta->id != id) return std::optional<PaperMetadata>();
  return std::optional<PaperMetadata>(std::move(*meta));
}

Result<std::vector<PaperMetadata>> PaperStore::All(std::size_t max_papers) const {
  auto root = OpenRoot(dir_);
  if (!root) return MakeError(ErrorCode::kUnavailable, "paper store is not available: " + root.error().message);
  auto dir_fd = OpenBeneath(root->get(), ".", O_RDONLY | O_DIRECTORY, dir_);
  if (!dir_fd) return MakeError(ErrorCode::kUnavailable, "paper store is not available: " + dir_fd.error().message);
  DIR* dir = ::fdopendir(dir_fd->get());
  if (!dir) return MakeError(ErrorCode::kUnavailable, "paper store is not available: " + PyOsError(errno, dir_));
  dir_fd->Release();  // owned by `dir` now
  std::vector<std::string> names;
  bool too_many = false;
  while (dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    if (names.size() >= max_papers) {
      too_many = true;
      break;
    }
    names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  if (too_many)
    return MakeError(ErrorCode::kTooLarge,
                     "paper store " + dir_ + " holds more than " + std::to_string(max_papers) + " entries");
  std::sort(names.begin(), names.end());
  std::vector<PaperMetadata> papers;
  for (const std::string& name : names) {
    const std::string rel = name + "/metadata.json";
    auto text = ReadBeneath(root->get(), rel, kMaxMetadataBytes, dir_ + "/" + rel);
    if (!text) continue;
    auto meta = ParseMetadata(*text);
    if (!meta || FolderFor(meta->id) != name) continue;
    papers.push_back(std::move(*meta));
  }
  return papers;
}

Result<PaperContent> PaperStore::Content(std::string_view id, std::uint64_t max_markdown_bytes,
                                         std::uint64_t max_pdf_bytes) const {
  auto root = OpenRoot(dir_);
  if (!root) return MakeError(ErrorCode::kUnavailable, "paper store is not available: " + root.error().message);
  const std::string folder = FolderFor(id);
  PaperContent content;
  for (auto [file, max, into] : {std::tuple{"paper.md", max_markdown_bytes, &content.markdown},
                                 std::tuple{"paper.pdf", max_pdf_bytes, &content.pdf}}) {
    const std::string rel = folder + "/" + file;
    auto data = ReadBeneath(root->get(), rel, max, dir_ + "/" + rel);
    if (data) {
      *into = std::move(*data);
    } else if (data.error().code != ErrorCode::kNotFound) {
      return data.error();
    }
  }
  if (!content.markdown && !content.pdf)
    return MakeError(ErrorCode::kNotFound, "paper store entry " + folder + " has neither paper.md nor paper.pdf");
  return content;
}

Result<std::string> PaperStore::Fingerprint() const {
  struct stat st {};
  if (::stat(dir_.c_str(), &st) != 0)
    return MakeError(ErrorCode::kUnavailable, "paper store is not available: " + PyOsError(errno, dir_));
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_mtim.tv_sec) +
         "." + std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ctim.tv_sec) + "." +
         std::to_string(st.st_ctim.tv_nsec);
}

}  // namespace sbx::servers::arxiv
