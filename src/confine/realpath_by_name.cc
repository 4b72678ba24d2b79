#include "confine/realpath_by_name.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <optional>
#include <vector>

#include "confine/beneath.h"
#include "core/unique_fd.h"

namespace sbx::confine {
namespace {

std::vector<std::string> SplitSlash(std::string_view s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = s.find('/', start);
    parts.emplace_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::optional<std::string> ReadLink(const std::string& path) {
  std::string buf(256, '\0');
  for (;;) {
    ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
    if (n < 0) return std::nullopt;
    if (static_cast<std::size_t>(n) < buf.size()) return buf.substr(0, static_cast<std::size_t>(n));
    if (buf.size() >= (1u << 16)) return std::nullopt;
    buf.resize(buf.size() * 2);
  }
}

// A path whose resolution loops (the kernel says ELOOP): it leads nowhere,
// so it cannot lead out.
bool IsLoop(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) != 0 && errno == ELOOP;
}

}  // namespace

Result<std::string> RealpathByName(std::string_view absolute) {
  // The stack of names still to resolve, last first. nullopt marks "the
  // link below me is now resolved": the next entry is the link's path.
  std::vector<std::optional<std::string>> rest;
  for (auto& part : SplitSlash(absolute)) rest.emplace_back(std::move(part));
  std::reverse(rest.begin(), rest.end());
  std::string path = "/";
  // Link path -> its resolved target; nullopt while it is being resolved
  // (meeting it again then means a loop).
  std::map<std::string, std::optional<std::string>> seen;
  while (!rest.empty()) {
    std::optional<std::string> name = std::move(rest.back());
    rest.pop_back();
    if (!name) {
      seen[*rest.back()] = path;
      rest.pop_back();
      continue;
    }
    if (name->empty() || *name == ".") continue;
    if (*name == "..") {
      path = path.substr(0, path.rfind('/'));
      if (path.empty()) path = "/";
      continue;
    }
    std::string next = path == "/" ? "/" + *name : path + "/" + *name;
    if (name->find('\0') != std::string::npos)
      return MakeError(ErrorCode::kInvalidArgument, "a path component contains a NUL byte");
    struct stat st {};
    if (::lstat(next.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      path = std::move(next);  // not a link, or not there: kept as written
      continue;
    }
    if (auto it = seen.find(next); it != seen.end()) {
      path = it->second ? *it->second : next;  // a loop leaves the link's own path
      continue;
    }
    auto target = ReadLink(next);
    if (!target) {
      path = std::move(next);
      continue;
    }
    seen[next] = std::nullopt;
    if (!target->empty() && (*target)[0] == '/') path = "/";
    rest.emplace_back(next);
    rest.emplace_back(std::nullopt);
    auto parts = SplitSlash(*target);
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) rest.emplace_back(std::move(*it));
  }
  return path;
}

bool ResolvedBeneath(const std::string& real, const std::string& root_real) {
  std::string rel;
  if (root_real == "/") {
    rel = real.substr(1);
  } else if (real == root_real) {
    rel = "";
  } else if (real.size() > root_real.size() && real.compare(0, root_real.size(), root_real) == 0 &&
             real[root_real.size()] == '/') {
    rel = real.substr(root_real.size() + 1);
  } else {
    return false;
  }
  UniqueFd root(::open(root_real.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  // Under a root that is not there nothing exists to escape to (and the
  // command then fails to start in it).
  if (!root.valid()) return true;
  std::vector<std::string> names = rel.empty() ? std::vector<std::string>{} : SplitSlash(rel);
  // The longest prefix that exists must open beneath the root without
  // following anything; the names past it do not exist.
  for (std::size_t k = names.size(); k > 0; --k) {
    std::string prefix;
    for (std::size_t i = 0; i < k; ++i) prefix += (i ? "/" : "") + names[i];
    UniqueFd fd;
    int err = TryOpenBeneath(root.get(), prefix, O_PATH | O_NOFOLLOW, 0, Links::kNone, fd);
    std::string full = root_real == "/" ? "/" + prefix : root_real + "/" + prefix;
    if (err == 0) {
      struct stat st {};
      if (::fstat(fd.get(), &st) != 0) return false;
      // realpath leaves a link in place only when it loops.
      return !S_ISLNK(st.st_mode) || IsLoop(full);
    }
    if (err == ENOENT || err == ENOTDIR) continue;
    if (err == ELOOP && IsLoop(full)) continue;
    return false;
  }
  return true;
}

}  // namespace sbx::confine
