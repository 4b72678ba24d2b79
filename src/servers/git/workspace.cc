#include "servers/git/workspace.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "servers/git/failure.h"
#include "servers/git/python_text.h"

namespace sbx::servers::git {
namespace {

// glibc's realpath gives up after this many links.
constexpr int kMaxSymlinks = 40;

std::string JoinNames(const std::vector<std::string>& names, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < names.size(); ++i) {
    if (!out.empty()) out += '/';
    out += names[i];
  }
  return out;
}

std::vector<std::string> Split(std::string_view rest) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= rest.size()) {
    std::size_t j = rest.find('/', i);
    if (j == std::string_view::npos) j = rest.size();
    if (j > i) out.emplace_back(rest.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string JoinPath(std::string_view base, std::string_view rest) {
  if (!rest.empty() && rest[0] == '/') return std::string(rest);
  if (base.empty()) return std::string(rest);
  std::string out(base);
  if (out.back() != '/') out += '/';
  out.append(rest);
  return out;
}

Workspace::Workspace(const std::string& root) : root_(py::NormPath(root)) {
  root_fd_.Reset(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd_.valid())
    Fail("The workspace root '" + root_ + "' cannot be opened: " + std::strerror(errno));
  char buf[PATH_MAX];
  root_real_ = ::realpath(root_.c_str(), buf) ? std::string(buf) : root_;
}

bool Workspace::Contains(std::string_view absolute) const { return Below(absolute).has_value(); }

std::optional<std::vector<std::string>> Workspace::Below(std::string_view p) const {
  for (const std::string* root : {&root_, &root_real_}) {
    if (p == *root) return std::vector<std::string>{};
    std::string prefix = *root == "/" ? "/" : *root + "/";
    if (p.substr(0, prefix.size()) == prefix) return Split(p.substr(prefix.size()));
  }
  return std::nullopt;
}

Location Workspace::Resolve(std::string_view absolute) const {
  Location loc;
  auto below = Below(py::NormPath(absolute));
  if (!below) {
    loc.kind = Location::Kind::kOutside;
    return loc;
  }
  std::vector<std::string> comps = std::move(*below);
  int links = 0;
  for (;;) {
    std::vector<UniqueFd> dirs;
    dirs.emplace_back(::openat(root_fd_.get(), ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dirs.back().valid()) {
      loc.error = errno;
      return loc;
    }
    std::vector<std::string> names;
    auto real_of = [&](std::size_t count) {
      std::string out = root_real_;
      for (std::size_t k = 0; k < count; ++k) out = JoinPath(out, names[k]);
      return out;
    };
    bool restarted = false;
    UniqueFd last;
    for (std::size_t i = 0; i < comps.size() && !restarted; ++i) {
      UniqueFd fd(::openat(dirs.back().get(), comps[i].c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
      if (!fd.valid()) {
        if (errno != ENOENT && errno != ENOTDIR) {
          loc.error = errno;
          return loc;
        }
        loc.kind = Location::Kind::kMissing;
        loc.real = JoinPath(real_of(names.size()), JoinNames(comps, i));
        return loc;
      }
      struct stat st {};
      if (::fstat(fd.get(), &st) != 0) {
        loc.error = errno;
        return loc;
      }
      if (S_ISLNK(st.st_mode)) {
        if (++links > kMaxSymlinks) {
          loc.kind = Location::Kind::kLoop;
          return loc;
        }
        char target[PATH_MAX + 1];
        ssize_t n = ::readlinkat(fd.get(), "", target, sizeof target);
        if (n < 0 || n > PATH_MAX) {
          loc.error = n < 0 ? errno : ENAMETOOLONG;
          return loc;
        }
        // The link's target replaces it; what followed it is kept.
        std::string next = JoinPath(real_of(names.size()), std::string_view(target, static_cast<std::size_t>(n)));
        std::string rest = JoinNames(comps, i + 1);
        if (!rest.empty()) next += "/" + rest;
        auto again = Below(py::NormPath(next));
        if (!again) {
          loc.kind = Location::Kind::kOutside;
          return loc;
        }
        comps = std::move(*again);
        restarted = true;
        break;
      }
      if (S_ISDIR(st.st_mode)) {
        names.push_back(comps[i]);
        dirs.push_back(std::move(fd));
        continue;
      }
      if (i + 1 < comps.size()) {  // a file with names below it: realpath goes on lexically
        loc.kind = Location::Kind::kMissing;
        loc.real = JoinPath(real_of(names.size()), JoinNames(comps, i));
        return loc;
      }
      names.push_back(comps[i]);
      loc.is_file = S_ISREG(st.st_mode);
      last = std::move(fd);
    }
    if (restarted) continue;
    loc.kind = Location::Kind::kFound;
    loc.real = real_of(names.size());
    loc.is_dir = !last.valid();
    loc.fd = last.valid() ? std::move(last) : std::move(dirs.back());
    return loc;
  }
}

std::optional<std::string> Workspace::ReadFile(std::string_view absolute, std::size_t limit) const {
  Location loc = Resolve(absolute);
  if (loc.kind != Location::Kind::kFound || !loc.is_file) return std::nullopt;
  // Reopen the checked inode itself for reading (an O_PATH descriptor cannot read).
  std::string proc = "/proc/self/fd/" + std::to_string(loc.fd.get());
  UniqueFd fd(::open(proc.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) return std::nullopt;
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() >= limit) {
      out.resize(limit);
      break;
    }
  }
  return out;
}

}  // namespace sbx::servers::git
