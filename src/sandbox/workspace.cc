#include "sandbox/workspace.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "core/fs.h"
#include "core/ids.h"
#include "core/json.h"

namespace sbx::sandbox {
namespace {

Error Errno(const std::string& what, const std::string& path) {
  return MakeError(ErrorCode::kInternal, what + " " + path + ": " + std::strerror(errno));
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status MakeDir(const std::string& path, mode_t mode) {
  // Explicit chmod: mkdir's mode is filtered by the process umask.
  if (::mkdir(path.c_str(), mode) != 0) return Errno("mkdir", path);
  if (::chmod(path.c_str(), mode) != 0) return Errno("chmod", path);
  return Ok();
}

Status ChownBelow(int dirfd, const std::string& path, uid_t uid, int depth) {
  if (depth > 256) return MakeError(ErrorCode::kInternal, "tree too deep: " + path);
  int dup = ::dup(dirfd);
  DIR* dir = dup >= 0 ? ::fdopendir(dup) : nullptr;
  if (!dir) {
    if (dup >= 0) ::close(dup);
    return Errno("opendir", path);
  }
  Status result = Ok();
  while (struct dirent* e = ::readdir(dir)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (::fchownat(dirfd, name.c_str(), uid, uid, AT_SYMLINK_NOFOLLOW) != 0) {
      result = Errno("chown", path + "/" + name);
      break;
    }
    int sub = ::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) continue;  // not a directory
    result = ChownBelow(sub, path + "/" + name, uid, depth + 1);
    ::close(sub);
    if (!result) break;
  }
  ::closedir(dir);
  return result;
}

}  // namespace

Status ChownTree(const std::string& path, uid_t uid) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return Errno("open", path);
  Status s = ::fchown(fd, uid, uid) == 0 ? ChownBelow(fd, path, uid, 0) : Status(Errno("chown", path));
  ::close(fd);
  return s;
}

Status Workspace::Create(uid_t uid) {
  if (auto s = MakeDir(root_, 0700); !s) return s;
  for (const std::string& d : {layers_dir(), root_mount_dir(), logs_dir(), uploads_dir(), dumps_dir(), tmp_dir()})
    if (auto s = MakeDir(d, 0700); !s) return s;
  if (auto s = MakeDir(exec_dir(), 0755); !s) return s;
  if (::chown(exec_dir().c_str(), uid, uid) != 0) return Errno("chown", exec_dir());
  LayerState state;
  state.uid = uid;
  for (auto [kind, slot] : {std::pair{"base", &state.lower}, {"upper", &state.upper}, {"work", &state.work}}) {
    auto dir = NewLayer(kind, uid);
    if (!dir) return dir.error();
    *slot = *dir;
  }
  return WriteLayers(state);
}

Result<LayerState> Workspace::ReadLayers() const {
  auto text = fs::ReadFile(root_ + "/layers.json");
  if (!text) return text.error();
  Json j = Json::parse(*text, nullptr, false);
  try {
    LayerState s;
    s.uid = j.at("uid").get<uid_t>();
    s.lower = j.at("lower").get<std::string>();
    s.upper = j.at("upper").get<std::string>();
    s.work = j.at("work").get<std::string>();
    s.pending = j.value("pending", false);
    for (const std::string* name : {&s.lower, &s.upper, &s.work})
      if (name->empty() || name->find('/') != std::string::npos || *name == "." || *name == "..")
        return MakeError(ErrorCode::kInternal, "layers.json names a bad layer in " + root_);
    return s;
  } catch (const std::exception& e) {
    return MakeError(ErrorCode::kInternal, "unreadable layers.json in " + root_ + ": " + e.what());
  }
}

Status Workspace::WriteLayers(const LayerState& s) const {
  Json j = {{"uid", s.uid}, {"lower", s.lower}, {"upper", s.upper}, {"work", s.work}, {"pending", s.pending}};
  return fs::WriteFileAtomic(root_ + "/layers.json", j.dump(), 0600);
}

jail::Layers Workspace::LayerPaths(const LayerState& s) const {
  return jail::Layers{layers_dir() + "/" + s.lower, layers_dir() + "/" + s.upper, layers_dir() + "/" + s.work};
}

Result<std::string> Workspace::NewLayer(const std::string& kind, uid_t uid) const {
  std::string name = kind + "-" + ids::RandomToken(9);
  std::string path = layers_dir() + "/" + name;
  // The overlay work directory is the kernel's, not the sandbox's: root-owned.
  bool work = kind == "work";
  if (auto s = MakeDir(path, work ? 0700 : 0755); !s) return s.error();
  if (!work && ::chown(path.c_str(), uid, uid) != 0) return Errno("chown", path);
  return name;
}

Result<std::string> Workspace::AdoptBase(const std::string& staging) const {
  std::string name = "base-" + ids::RandomToken(9);
  if (::rename(staging.c_str(), (layers_dir() + "/" + name).c_str()) != 0) return Errno("rename", staging);
  return name;
}

Status Workspace::CollectLayers(const LayerState& s) const {
  std::set<std::string> keep = {s.lower, s.upper, s.work};
  for (const auto& name : fs::ListDir(layers_dir()))
    if (!keep.count(name))
      if (auto st = fs::RemoveTree(layers_dir() + "/" + name); !st) return st;
  return Ok();
}

Result<std::string> Workspace::NewStagingDir() {
  std::string dir = tmp_dir() + "/stage-" + ids::RandomToken(9);
  if (auto s = MakeDir(dir, 0755); !s) return s.error();
  return dir;
}

Status Workspace::Repair() {
  for (const std::string& d : {layers_dir(), root_mount_dir(), logs_dir(), uploads_dir(), dumps_dir(), tmp_dir()})
    if (!fs::Exists(d))
      if (auto s = MakeDir(d, 0700); !s) return s;
  if (!fs::Exists(exec_dir())) {
    if (auto state = ReadLayers(); state) {
      if (auto s = MakeDir(exec_dir(), 0755); !s) return s;
      if (::chown(exec_dir().c_str(), state->uid, state->uid) != 0) return Errno("chown", exec_dir());
    }
  }
  for (const auto& name : fs::ListDir(tmp_dir()))
    if (auto s = fs::RemoveTree(tmp_dir() + "/" + name); !s) return s;
  for (const std::string& d : {uploads_dir(), dumps_dir()})
    for (const auto& name : fs::ListDir(d))
      if (EndsWith(name, ".part")) ::unlink((d + "/" + name).c_str());
  return Ok();
}

Status Workspace::Destroy() { return fs::RemoveTree(root_); }

}  // namespace sbx::sandbox
