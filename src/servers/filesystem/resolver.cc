#include "servers/filesystem/resolver.h"

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <optional>

#include "js_text/string.h"
#include "servers/filesystem/dir_cursor.h"
#include "servers/filesystem/limits.h"
#include "servers/filesystem/node_errors.h"
#include "servers/filesystem/node_path.h"

namespace sbx::servers::filesystem {
namespace {

// glibc's realpath gives up after this many links (__eloop_threshold).
constexpr int kMaxSymlinks = 40;

std::string JoinAll(const std::vector<std::string>& list, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += sep;
    out += list[i];
  }
  return out;
}

std::string CurrentDirectory() {
  char buf[PATH_MAX];
  return ::getcwd(buf, sizeof buf) ? std::string(buf) : std::string("/");
}

std::string HomeDirectory() {
  if (const char* home = std::getenv("HOME"); home && *home) return home;
  struct passwd pw, *found = nullptr;
  char buf[4096];
  if (::getpwuid_r(::geteuid(), &pw, buf, sizeof buf, &found) == 0 && found) return pw.pw_dir;
  return "/";
}

std::string Nfc(const std::string& utf8) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) return utf8;
  icu::UnicodeString normalized = nfc->normalize(icu::UnicodeString::fromUTF8(utf8), status);
  if (U_FAILURE(status)) return utf8;
  std::string out;
  normalized.toUTF8String(out);
  return out;
}

// realpath(3), step by step, without letting the kernel follow anything
// inside an allowed root. Outside the roots it only reads links and file
// types (to compute the same real path realpath would), never content.
class Walker {
 public:
  explicit Walker(const std::vector<std::string>& roots) : roots_(roots) { MaybeEnterRoot(); }

  // Resolves `pending` from the current position: 0 or realpath's errno.
  int Walk(std::deque<std::string> pending) {
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
        UniqueFd fd(::openat(cursor_->fd(), c.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
        if (!fd.valid()) return errno;
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

  bool inside() const { return cursor_.has_value(); }
  bool at_file() const { return final_; }
  std::string path() const {
    std::string out;
    for (const auto& p : parts_) out += "/" + p;
    return out.empty() ? "/" : out;
  }
  DirCursor& cursor() { return *cursor_; }

  // The walk's end as a Target (must be inside); the walker is spent.
  Target Take() {
    Target t;
    t.path = path();
    t.exists = true;
    if (final_) {
      t.base = cursor_->Release();
      t.rest = {parts_.back()};
    } else if (cursor_->depth() == 0) {
      t.base = cursor_->Release();
    } else {
      std::string name = cursor_->names().back();
      bool left = false;
      if (int err = cursor_->Leave(left)) ThrowErrno(err, "realpath", t.path);
      t.base = cursor_->Release();
      t.rest = {name};
    }
    if (!t.base.valid()) ThrowErrno(errno, "realpath", t.path);
    return t;
  }

 private:
  static int ReadLink(int dirfd, const std::string& path, std::string& out) {
    char buf[PATH_MAX + 1];
    ssize_t n = ::readlinkat(dirfd, path.c_str(), buf, sizeof buf);
    if (n < 0) return errno;
    if (static_cast<std::size_t>(n) > PATH_MAX) return ENAMETOOLONG;
    out.assign(buf, static_cast<std::size_t>(n));
    return 0;
  }

  std::string PathWith(const std::string& c) const {
    return (parts_.empty() ? "" : path()) + "/" + c;
  }

  bool IsRoot(const std::string& p) const {
    return std::find(roots_.begin(), roots_.end(), p) != roots_.end();
  }

  void MaybeEnterRoot() {
    std::string here = path();
    if (!IsRoot(here)) return;
    UniqueFd fd(::open(here.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) return;
    cursor_.emplace(std::move(fd));
    root_depth_ = parts_.size();
  }

  // A link's target replaces the link: absolute ones restart from "/".
  void Splice(const std::string& target, std::deque<std::string>& pending) {
    auto comps = nodepath::Components(target);
    if (!target.empty() && target.back() == '/') comps.push_back(".");  // must be a directory
    pending.insert(pending.begin(), comps.begin(), comps.end());
    if (nodepath::IsAbsolute(target)) {
      parts_.clear();
      cursor_.reset();
      MaybeEnterRoot();
    }
  }

  int Up() {
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

  const std::vector<std::string>& roots_;
  std::vector<std::string> parts_;   // components of the real path so far
  std::optional<DirCursor> cursor_;  // set while the walk is inside a root
  std::size_t root_depth_ = 0;       // parts_ of the root the cursor started at
  bool final_ = false;               // the last part is not a directory
};

std::deque<std::string> Parts(std::string_view absolute) {
  auto comps = nodepath::Components(absolute);
  return std::deque<std::string>(comps.begin(), comps.end());
}

}  // namespace

PathPolicy::PathPolicy(const std::vector<std::string>& configured) : home_(HomeDirectory()) {
  std::string cwd = CurrentDirectory();
  std::vector<std::string> candidates;
  for (const auto& dir : configured) {
    std::string absolute = nodepath::Resolve(cwd, nodepath::ExpandHome(dir, home_));
    std::string original = nodepath::UpstreamNormalize(absolute);
    char real[PATH_MAX];
    if (::realpath(absolute.c_str(), real)) {
      std::string resolved = nodepath::UpstreamNormalize(real);
      if (resolved != original) candidates.push_back(original);
      candidates.push_back(resolved);
    } else {
      candidates.push_back(original);
    }
  }
  for (const auto& dir : candidates) {
    struct stat st;
    if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) allowed_.push_back(dir);
  }
  for (const auto& dir : allowed_) {
    char real[PATH_MAX];
    if (!::realpath(dir.c_str(), real)) continue;
    if (std::find(real_roots_.begin(), real_roots_.end(), real) == real_roots_.end())
      real_roots_.push_back(real);
  }
}

bool PathPolicy::Within(std::string_view path) const { return nodepath::IsWithin(path, allowed_); }

std::string PathPolicy::OutsideMessage(const std::string& absolute) const {
  return "Access denied - path outside allowed directories: " + absolute + " not in " +
         JoinAll(allowed_, ", ");
}

std::string PathPolicy::SymlinkOutsideMessage(const std::string& real) const {
  return "Access denied - symlink target outside allowed directories: " + real + " not in " +
         JoinAll(allowed_, ", ");
}

std::string PathPolicy::Absolute(std::string_view expanded) const {
  if (nodepath::IsAbsolute(expanded)) return nodepath::ResolveAbsolute(expanded);
  if (allowed_.empty()) return nodepath::Resolve(CurrentDirectory(), expanded);
  for (const auto& dir : allowed_) {
    std::string candidate = nodepath::Resolve(dir, expanded);
    if (Within(nodepath::UpstreamNormalize(candidate))) return candidate;
  }
  return nodepath::Resolve(allowed_[0], expanded);
}

std::string PathPolicy::Lexical(std::string_view requested) const {
  std::string expanded = nodepath::ExpandHome(requested, home_);
  if (nodepath::LooksLikeWindowsDrivePath(expanded))
    throw FsError("Access denied - Windows-style path received on a POSIX host: " +
                  std::string(requested));
  return Absolute(expanded);
}

Target PathPolicy::Validate(std::string_view requested) const {
  std::string absolute = Lexical(requested);
  // Upstream checks only the normalized copy; the path itself must pass too.
  if (!Within(nodepath::UpstreamNormalize(absolute)) || !Within(absolute))
    throw FsError(OutsideMessage(absolute));

  Walker walker(real_roots_);
  int err = walker.Walk(Parts(absolute));
  if (err == 0) {
    std::string real = walker.path();
    if (!walker.inside() || !Within(nodepath::UpstreamNormalize(real)))
      throw FsError(SymlinkOutsideMessage(real));
    return walker.Take();
  }
  if (err != ENOENT) ThrowErrno(err, "realpath", absolute);
  try {
    return UnicodeEquivalent(absolute);
  } catch (const FsError& e) {
    if (e.code() == ENOENT)
      throw FsError("Parent directory does not exist: " + nodepath::Dirname(absolute));
    throw;
  }
}

// Upstream's fallback for paths that do not exist (yet): walk the existing
// part from the allowed directory, matching names exactly or, failing that,
// by Unicode NFC equivalence, following links that stay inside.
Target PathPolicy::UnicodeEquivalent(const std::string& absolute) const {
  const std::string* base_dir = nullptr;
  for (const auto& dir : allowed_) {
    if (!nodepath::IsWithin(absolute, {dir})) continue;
    if (!base_dir || dir.size() > base_dir->size()) base_dir = &dir;
  }
  if (!base_dir) throw FsError(OutsideMessage(absolute));

  Walker walker(real_roots_);
  if (int err = walker.Walk(Parts(*base_dir))) ThrowErrno(err, "realpath", *base_dir);
  if (!walker.inside()) throw FsError(SymlinkOutsideMessage(walker.path()));

  auto parts = nodepath::Components(nodepath::Relative(*base_dir, absolute));
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& wanted = parts[i];
    std::string here = walker.path();
    if (walker.at_file()) ThrowErrno(ENOTDIR, "scandir", here);
    std::vector<DirEntry> entries;
    if (int err = ReadDirectory(walker.cursor().fd(), entries, kMaxDirectoryEntries))
      ThrowErrno(err, "scandir", here);
    std::vector<std::string> matches;
    for (const auto& e : entries) {
      if (js::DecodeUtf8Lossy(e.name) == wanted) {
        matches = {wanted};
        break;
      }
    }
    if (matches.empty()) {
      std::string wanted_nfc = Nfc(wanted);
      for (const auto& e : entries) {
        std::string name = js::DecodeUtf8Lossy(e.name);
        if (Nfc(name) == wanted_nfc) matches.push_back(name);
      }
    }
    if (matches.size() > 1) throw FsError("Ambiguous Unicode path component: " + wanted);
    if (matches.empty()) {
      // Nothing below exists: the rest is created (or reported missing) by the
      // operation, relative to this directory.
      Target t;
      t.path = here;
      for (std::size_t k = i; k < parts.size(); ++k) t.path = nodepath::Join(t.path, parts[k]);
      t.base = walker.cursor().Release();
      if (!t.base.valid()) ThrowErrno(errno, "scandir", here);
      t.rest.assign(parts.begin() + static_cast<std::ptrdiff_t>(i), parts.end());
      return t;
    }
    if (int err = walker.Walk({matches[0]}))
      ThrowErrno(err, "realpath", nodepath::Join(here, matches[0]));
    std::string real = walker.path();
    if (!walker.inside() || !Within(nodepath::UpstreamNormalize(real)))
      throw FsError(SymlinkOutsideMessage(real));
  }
  return walker.Take();
}

}  // namespace sbx::servers::filesystem
