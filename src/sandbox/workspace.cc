#include "sandbox/workspace.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/fs.h"
#include "core/ids.h"
#include "core/log.h"

namespace sbx::sandbox {
namespace {

Error Errno(const std::string& what, const std::string& path) {
  return MakeError(ErrorCode::kInternal, what + " " + path + ": " + std::strerror(errno));
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Status Workspace::Create() {
  if (::mkdir(root_.c_str(), 0700) != 0) return Errno("mkdir", root_);
  for (const std::string& d : {base_dir(), uploads_dir(), dumps_dir(), tmp_dir()})
    if (::mkdir(d.c_str(), 0700) != 0) return Errno("mkdir", d);
  // The workspace root is what the sandbox sees as /data: world-searchable
  // like a home directory, so tools running as another user can reach it.
  if (::mkdir(work_dir().c_str(), 0755) != 0) return Errno("mkdir", work_dir());
  // Explicit modes: mkdir's are filtered by the process umask.
  if (::chmod(work_dir().c_str(), 0755) != 0 || ::chmod(base_dir().c_str(), 0755) != 0)
    return Errno("chmod", root_);
  return Ok();
}

Result<std::string> Workspace::NewStagingDir() {
  std::string dir = tmp_dir() + "/stage-" + ids::RandomToken(9);
  if (::mkdir(dir.c_str(), 0755) != 0) return Errno("mkdir", dir);
  return dir;
}

Status Workspace::ExchangeInto(const std::string& fresh, const std::string& target) {
  // Atomic swap: `target` never disappears, even for an instant.
  if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0)
    return Errno("exchange", target);
  return fs::RemoveTree(fresh);  // now holds the old tree
}

Status Workspace::ReplaceBase(const std::string& staging) {
  std::string work_copy = tmp_dir() + "/work-" + ids::RandomToken(9);
  if (auto s = fs::CopyTree(staging, work_copy); !s) {
    log::IfFailed(fs::RemoveTree(work_copy), "clean-up");
    return s;
  }
  if (auto s = ExchangeInto(staging, base_dir()); !s) {
    log::IfFailed(fs::RemoveTree(work_copy), "clean-up");
    return s;
  }
  return ExchangeInto(work_copy, work_dir());
}

Status Workspace::Reset() {
  std::string work_copy = tmp_dir() + "/work-" + ids::RandomToken(9);
  if (auto s = fs::CopyTree(base_dir(), work_copy); !s) {
    log::IfFailed(fs::RemoveTree(work_copy), "clean-up");
    return s;
  }
  return ExchangeInto(work_copy, work_dir());
}

Status Workspace::Repair() {
  for (const std::string& d : {uploads_dir(), dumps_dir(), tmp_dir()}) {
    if (!fs::Exists(d) && ::mkdir(d.c_str(), 0700) != 0) return Errno("mkdir", d);
  }
  // base/ and work/ are what the sandbox sees as /data: world-searchable.
  for (const std::string& d : {base_dir(), work_dir()}) {
    if (fs::Exists(d)) continue;
    if (::mkdir(d.c_str(), 0755) != 0 || ::chmod(d.c_str(), 0755) != 0) return Errno("mkdir", d);
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
