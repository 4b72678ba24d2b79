#include "confine/resolver.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "confine/beneath.h"

namespace sbx::confine {
namespace {

// glibc's realpath gives up after this many links (__eloop_threshold).
constexpr int kMaxSymlinks = 40;

int ReadLink(int dirfd, const std::string& path, std::string& out) {
  char buf[PATH_MAX + 1];
  ssize_t n = ::readlinkat(dirfd, path.c_str(), buf, sizeof buf);
  if (n < 0) return errno;
  if (static_cast<std::size_t>(n) > PATH_MAX) return ENAMETOOLONG;
  out.assign(buf, static_cast<std::size_t>(n));
  return 0;
}

// One name below `dirfd`, never followed: the kernel refuses to follow a
// link or leave `dirfd` even if the name were odd. A trailing link (magic
// ones included) comes back as the link itself.
int OpenComponent(int dirfd, const std::string& name, UniqueFd& out) {
  return TryOpenBeneath(dirfd, name, O_PATH | O_NOFOLLOW, 0, Links::kNone, out);
}

// path.resolve for an absolute path: "." and ".." taken lexically.
std::string NormalizeAbsolute(std::string_view path) {
  std::vector<std::string> out;
  for (auto& c : Components(path)) {
    if (c == ".") continue;
    if (c == "..") {
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(std::move(c));
  }
  std::string joined;
  for (const auto& c : out) joined += "/" + c;
  return joined.empty() ? "/" : joined;
}

std::deque<std::string> Parts(std::string_view absolute) {
  auto comps = Components(absolute);
  return std::deque<std::string>(comps.begin(), comps.end());
}

std::string Join(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

}  // namespace

std::vector<std::string> Components(std::string_view p) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < p.size()) {
    std::size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    if (j > i) out.emplace_back(p.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

bool IsWithin(std::string_view path, std::string_view dir) {
  if (path == dir) return true;
  if (dir == "/") return !path.empty() && path[0] == '/';
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

// ---- RealpathWalk -----------------------------------------------------------

RealpathWalk::RealpathWalk(const std::vector<std::string>& real_roots) : roots_(real_roots) {
  MaybeEnterRoot();
}

int RealpathWalk::Walk(std::deque<std::string> pending) {
  int links = 0;
  while (!pending.empty()) {
    if (final_) return ENOTDIR;  // only a directory has anything below it
    std::string c = std::move(pending.front());
    pending.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      if (int err = Up()) return err;
      continue;
    }
    std::string candidate = PathWith(c);
    if (candidate.size() >= PATH_MAX) return ENAMETOOLONG;
    if (cursor_) {
      UniqueFd fd;
      if (int err = OpenComponent(cursor_->fd(), c, fd)) return err;
      struct stat st;
      if (::fstat(fd.get(), &st) != 0) return errno;
      if (S_ISLNK(st.st_mode)) {
        if (++links > kMaxSymlinks) return ELOOP;
        std::string target;
        if (int err = ReadLink(fd.get(), "", target)) return err;
        Splice(target, pending);
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        cursor_->EnterOpened(c, std::move(fd));
        parts_.push_back(c);
        continue;
      }
      if (!pending.empty()) return ENOTDIR;
      parts_.push_back(c);
      final_ = true;
      continue;
    }
    if (IsRoot(candidate)) {
      UniqueFd fd(::open(candidate.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (!fd.valid()) return errno;
      parts_.push_back(c);
      cursor_.emplace(std::move(fd));
      root_depth_ = parts_.size();
      continue;
    }
    // Outside every root: read links and types only, as realpath does.
    std::string target;
    int err = ReadLink(AT_FDCWD, candidate, target);
    if (err == 0) {
      if (++links > kMaxSymlinks) return ELOOP;
      Splice(target, pending);
      continue;
    }
    if (err != EINVAL) return err;
    struct stat st;
    if (::lstat(candidate.c_str(), &st) != 0) return errno;
    if (!S_ISDIR(st.st_mode) && !pending.empty()) return ENOTDIR;
    parts_.push_back(c);
  }
  return 0;
}

std::string RealpathWalk::path() const {
  std::string out;
  for (const auto& p : parts_) out += "/" + p;
  return out.empty() ? "/" : out;
}

int RealpathWalk::Take(Resolved& t) {
  t.path = path();
  t.exists = true;
  t.rest.clear();
  if (final_) {
    t.base = cursor_->Release();
    t.rest = {parts_.back()};
  } else if (cursor_->depth() == 0) {
    t.base = cursor_->Release();
  } else {
    std::string name = cursor_->names().back();
    bool left = false;
    if (int err = cursor_->Leave(left)) return err;
    t.base = cursor_->Release();
    t.rest = {name};
  }
  return t.base.valid() ? 0 : errno;
}

std::string RealpathWalk::PathWith(const std::string& c) const {
  return (parts_.empty() ? "" : path()) + "/" + c;
}

bool RealpathWalk::IsRoot(const std::string& p) const {
  return std::find(roots_.begin(), roots_.end(), p) != roots_.end();
}

void RealpathWalk::MaybeEnterRoot() {
  std::string here = path();
  if (!IsRoot(here)) return;
  UniqueFd fd(::open(here.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return;
  cursor_.emplace(std::move(fd));
  root_depth_ = parts_.size();
}

// A link's target replaces the link: absolute ones restart from "/".
void RealpathWalk::Splice(const std::string& target, std::deque<std::string>& pending) {
  auto comps = Components(target);
  if (!target.empty() && target.back() == '/') comps.push_back(".");  // must be a directory
  pending.insert(pending.begin(), comps.begin(), comps.end());
  if (!target.empty() && target[0] == '/') {
    parts_.clear();
    cursor_.reset();
    MaybeEnterRoot();
  }
}

int RealpathWalk::Up() {
  if (parts_.empty()) return 0;
  if (cursor_ && parts_.size() > root_depth_) {
    bool left = false;
    int err = cursor_->Leave(left);
    parts_.pop_back();
    return err;
  }
  cursor_.reset();
  parts_.pop_back();
  MaybeEnterRoot();
  return 0;
}

// ---- Root -------------------------------------------------------------------

Result<Root> Root::Open(const std::string& path, const Wording& wording) {
  if (path.empty() || path[0] != '/' || path.find('\0') != std::string::npos)
    return wording({EINVAL, "open", path, {}});
  char real[PATH_MAX];
  if (!::realpath(path.c_str(), real)) return wording({errno, "open", path, {}});
  struct stat st {};
  if (::stat(real, &st) != 0) return wording({errno, "open", path, {}});
  if (!S_ISDIR(st.st_mode)) return wording({ENOTDIR, "open", path, {}});
  Root root;
  root.roots_ = {real};
  root.given_ = NormalizeAbsolute(path);
  return root;
}

Result<Resolved> Root::Resolve(std::string_view requested, const Wording& wording) const {
  const std::string shown(requested);
  if (requested.find('\0') != std::string_view::npos) return wording({EINVAL, "realpath", shown, {}});
  std::string absolute =
      NormalizeAbsolute(!requested.empty() && requested[0] == '/' ? shown : real() + "/" + shown);
  // The configured spelling of a root that is a link means the real one.
  if (given_ != real() && IsWithin(absolute, given_))
    absolute = real() + absolute.substr(given_ == "/" ? 0 : given_.size());
  if (!IsWithin(absolute, real())) return wording({EXDEV, "realpath", absolute, {}});

  RealpathWalk walk(roots_);
  int err = walk.Walk(Parts(absolute));
  Resolved out;
  if (err == 0) {
    if (!walk.inside() || !IsWithin(walk.path(), real()))
      return wording({EXDEV, "realpath", walk.path(), {}});
    if (int e = walk.Take(out)) return wording({e, "realpath", absolute, {}});
    return out;
  }
  if (err != ENOENT) return wording({err, "realpath", absolute, {}});

  // Something is missing: walk again name by name to find the deepest
  // existing directory, following links that stay inside; the names past it
  // are for the caller to create.
  RealpathWalk step(roots_);
  if (int e = step.Walk(Parts(real()))) return wording({e, "realpath", absolute, {}});
  if (!step.inside()) return wording({EXDEV, "realpath", step.path(), {}});
  auto names = Components(absolute.substr(real() == "/" ? 0 : real().size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string here = step.path();
    if (step.at_file()) return wording({ENOTDIR, "realpath", absolute, {}});
    struct stat st {};
    if (::fstatat(step.cursor().fd(), names[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno != ENOENT) return wording({errno, "realpath", absolute, {}});
      out.path = here;
      for (std::size_t k = i; k < names.size(); ++k) out.path = Join(out.path, names[k]);
      out.base = step.cursor().Release();
      if (!out.base.valid()) return wording({errno, "realpath", here, {}});
      out.rest.assign(names.begin() + static_cast<std::ptrdiff_t>(i), names.end());
      out.exists = false;
      return out;
    }
    if (int e = step.Walk({names[i]})) return wording({e, "realpath", absolute, {}});
    if (!step.inside() || !IsWithin(step.path(), real()))
      return wording({EXDEV, "realpath", step.path(), {}});
  }
  // Everything exists after all (created meanwhile).
  if (int e = step.Take(out)) return wording({e, "realpath", absolute, {}});
  return out;
}

}  // namespace sbx::confine
