#include "jail/cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <sstream>
#include <thread>

#include "core/fs.h"
#include "core/strings.h"

namespace sbx::jail {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The kernel can report EBUSY on rmdir for a moment after the last process
// of a group has exited.
constexpr milliseconds kRmdirRetry{1000};
// A task stuck in uninterruptible sleep never lets the freezer finish; kill
// what can be killed rather than wait the whole timeout.
constexpr milliseconds kFreezeWait{200};
constexpr milliseconds kPoll{5};

const char* const kControllers[] = {"memory", "pids", "cpu"};

Error Errno(ErrorCode code, const std::string& what, const std::string& path, int err) {
  return MakeError(code, what + " " + path + ": " + std::strerror(err));
}

Status ValidName(const char* what, const std::string& s) {
  bool ok = !s.empty() && s.size() <= 100 && s != "." && s != ".." &&
            std::all_of(s.begin(), s.end(), [](char c) {
              return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '.' || c == '_' || c == '-';
            });
  if (ok) return Ok();
  return MakeError(ErrorCode::kInvalidArgument,
                   std::string("invalid cgroup ") + what + " name '" + s +
                       "': use 1 to 100 of [A-Za-z0-9._-], not '.' or '..'");
}

// Returns 0 or the errno of the failed open/write: callers decide which
// errors mean "not supported here".
int WriteRaw(const std::string& path, const std::string& value) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  // cgroup files take one value per write(); a split write would be two values.
  ssize_t n = ::write(fd, value.data(), value.size());
  int err = n < 0 ? errno : (static_cast<std::size_t>(n) == value.size() ? 0 : EIO);
  ::close(fd);
  return err;
}

Status Write(const std::string& path, const std::string& value) {
  if (int err = WriteRaw(path, value))
    return Errno(ErrorCode::kInternal, "write '" + value + "' to", path, err);
  return Ok();
}

std::vector<std::string> Words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool Has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

Result<std::uint64_t> ParseU64(const std::string& text, const std::string& path) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || (p != end && *p != '\n'))
    return MakeError(ErrorCode::kInternal, "unexpected content in " + path + ": '" + text + "'");
  return v;
}

Result<std::uint64_t> ReadU64(const std::string& path) {
  auto text = fs::ReadFile(path);
  if (!text) return text.error();
  return ParseU64(*text, path);
}

// Files such as memory.events hold "key value" lines.
Result<std::uint64_t> ReadKey(const std::string& path, const std::string& key) {
  auto text = fs::ReadFile(path);
  if (!text) return text.error();
  std::istringstream in(*text);
  for (std::string k, v; in >> k >> v;)
    if (k == key) return ParseU64(v, path);
  return MakeError(ErrorCode::kInternal, "no '" + key + "' in " + path);
}

Result<std::vector<pid_t>> ReadPids(const std::string& path) {
  auto text = fs::ReadFile(path);
  if (!text) return text.error();
  std::vector<pid_t> pids;
  for (const auto& w : Words(*text)) {
    auto v = ParseU64(w, path);
    if (!v) return v.error();
    pids.push_back(static_cast<pid_t>(*v));
  }
  std::sort(pids.begin(), pids.end());
  return pids;
}

// mountinfo escapes space, tab, newline and backslash in paths as \ooo.
std::string Unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() &&
        std::all_of(s.begin() + i + 1, s.begin() + i + 4,
                    [](char c) { return c >= '0' && c <= '7'; })) {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

struct Mount {
  std::string point;
  bool v2 = false;
  std::vector<std::string> options;  // super options: on v1 they name the controllers
};

Result<std::vector<Mount>> CgroupMounts(const std::string& mountinfo) {
  auto text = fs::ReadFile(mountinfo, 16 << 20);
  if (!text) return text.error();
  std::vector<Mount> mounts;
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    // id parent dev root point options [optional...] - fstype source super
    auto f = Words(line);
    auto sep = std::find(f.begin() + std::min<std::size_t>(f.size(), 6), f.end(), "-");
    if (f.end() - sep < 4) continue;
    const std::string& fstype = sep[1];
    if (fstype != "cgroup" && fstype != "cgroup2") continue;
    Mount m{Unescape(f[4]), fstype == "cgroup2", {}};
    std::istringstream opts(sep[3]);
    for (std::string o; std::getline(opts, o, ',');) m.options.push_back(o);
    mounts.push_back(std::move(m));
  }
  return mounts;
}

void SignalAll(const std::vector<pid_t>& pids) {
  for (pid_t pid : pids) ::kill(pid, SIGKILL);
}

Status MakeDir(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST) return Ok();
  int err = errno;
  return Errno(ErrorCode::kInternal, "mkdir", path, err);
}

// rmdir, riding out the kernel's lag after the last exit. Missing is Ok.
Status RemoveDir(const std::string& path) {
  auto deadline = Clock::now() + kRmdirRetry;
  for (;;) {
    if (::rmdir(path.c_str()) == 0 || errno == ENOENT) return Ok();
    int err = errno;
    if (err != EBUSY) return Errno(ErrorCode::kInternal, "rmdir", path, err);
    if (Clock::now() >= deadline)
      return Errno(ErrorCode::kConflict, "rmdir (processes or child groups remain)", path, err);
    std::this_thread::sleep_for(kPoll);
  }
}

}  // namespace

Result<CgroupTree> CgroupTree::Open(const std::string& parent, const std::string& mountinfo) {
  if (auto s = ValidName("parent", parent); !s) return s.error();
  auto mounts = CgroupMounts(mountinfo);
  if (!mounts) return mounts.error();

  CgroupTree tree;
  tree.parent_ = parent;
  std::vector<std::string> why;
  for (const auto& m : *mounts) {
    if (!m.v2) continue;
    auto available = fs::ReadFile(m.point + "/cgroup.controllers");
    std::vector<std::string> missing;
    for (const char* c : kControllers)
      if (!available || !Has(Words(*available), c)) missing.push_back(c);
    if (!missing.empty()) {
      why.push_back("cgroup2 at " + m.point + " lacks " + strings::Join(missing, ", "));
      continue;
    }
    // Controllers reach a group only through every ancestor's subtree_control.
    const std::string enable = "+memory +pids +cpu";
    auto enabled = fs::ReadFile(m.point + "/cgroup.subtree_control");
    if (!enabled) return enabled.error();
    auto words = Words(*enabled);
    if (!Has(words, "memory") || !Has(words, "pids") || !Has(words, "cpu")) {
      if (int err = WriteRaw(m.point + "/cgroup.subtree_control", enable)) {
        Error e = Errno(ErrorCode::kInternal, "write '" + enable + "' to",
                        m.point + "/cgroup.subtree_control", err);
        // The no-internal-process rule: typical of a container's namespace root.
        if (err == EBUSY)
          e.message += " (processes in this group must move to a child group first)";
        return e;
      }
    }
    tree.unified_ = true;
    tree.unified_root_ = m.point + "/" + parent;
    if (auto s = MakeDir(tree.unified_root_); !s) return s.error();
    if (auto s = Write(tree.unified_root_ + "/cgroup.subtree_control", enable); !s)
      return s.error();
    return tree;
  }
  if (why.empty()) why.push_back("no cgroup2 mount");

  auto find_v1 = [&](const char* controller) -> std::string {
    for (const auto& m : *mounts)
      if (!m.v2 && Has(m.options, controller)) return m.point + "/" + parent;
    return "";
  };
  tree.memory_root_ = find_v1("memory");
  tree.pids_root_ = find_v1("pids");
  tree.cpu_root_ = find_v1("cpu");
  tree.freezer_root_ = find_v1("freezer");
  std::vector<std::string> missing;
  if (tree.memory_root_.empty()) missing.push_back("memory");
  if (tree.pids_root_.empty()) missing.push_back("pids");
  if (tree.cpu_root_.empty()) missing.push_back("cpu");
  if (!missing.empty()) {
    why.push_back("no cgroup v1 mount of " + strings::Join(missing, ", "));
    return MakeError(ErrorCode::kInternal,
                     "no usable cgroup hierarchy in " + mountinfo + ": " + strings::Join(why, ", "));
  }
  for (const auto& root : tree.Roots())
    if (auto s = MakeDir(root); !s) return s.error();
  return tree;
}

std::vector<std::string> CgroupTree::Roots() const {
  if (unified_) return {unified_root_};
  std::vector<std::string> roots;
  // Controllers mounted together (cpu,cpuacct or memory,pids) share a directory.
  for (const auto* r : {&memory_root_, &pids_root_, &cpu_root_, &freezer_root_})
    if (!r->empty() && !Has(roots, *r)) roots.push_back(*r);
  return roots;
}

Status CgroupTree::RemoveParent() const {
  if (!List().empty()) return MakeError(ErrorCode::kConflict, "cgroup parent " + parent_ + " still has groups");
  for (const auto& root : Roots())
    if (::rmdir(root.c_str()) != 0 && errno != ENOENT)
      return MakeError(ErrorCode::kInternal, "rmdir " + root + ": " + std::strerror(errno));
  return Ok();
}

std::string CgroupTree::ProcsDir(const std::string& name) const {
  return (unified_ ? unified_root_ : pids_root_) + "/" + name;
}

std::vector<std::string> CgroupTree::DirsOf(const std::string& name) const {
  if (!ValidName("group", name)) return {};
  std::vector<std::string> dirs;
  for (const auto& root : Roots()) dirs.push_back(root + "/" + name);
  return dirs;
}

Status CgroupTree::Create(const std::string& name, const CgroupLimits& limits) const {
  if (auto s = ValidName("group", name); !s) return s;
  if (limits.memory_bytes == 0 || limits.pids <= 0 || limits.cpu_weight < 1 ||
      limits.cpu_weight > 10000)
    return MakeError(
        ErrorCode::kInvalidArgument,
        "invalid cgroup limits: memory and pids must be positive, cpu weight 1..10000");

  std::vector<std::string> created;
  auto fail = [&](Error e) -> Status {
    for (auto it = created.rbegin(); it != created.rend(); ++it) ::rmdir(it->c_str());
    return e;
  };
  for (const auto& dir : DirsOf(name)) {
    if (::mkdir(dir.c_str(), 0755) != 0) {
      int err = errno;
      return fail(
          Errno(err == EEXIST ? ErrorCode::kConflict : ErrorCode::kInternal, "mkdir", dir, err));
    }
    created.push_back(dir);
  }

  const std::string memory = std::to_string(limits.memory_bytes);
  const std::string pids = std::to_string(limits.pids);
  std::vector<std::pair<std::string, std::string>> writes;
  std::string no_swap;  // the file that allows no swap, where swap is accounted
  if (unified_) {
    const std::string dir = unified_root_ + "/" + name;
    writes = {{dir + "/memory.max", memory},
              {dir + "/pids.max", pids},
              {dir + "/cpu.weight", std::to_string(limits.cpu_weight)}};
    no_swap = dir + "/memory.swap.max";
  } else {
    const std::string mem = memory_root_ + "/" + name;
    writes = {{mem + "/memory.limit_in_bytes", memory},
              {pids_root_ + "/" + name + "/pids.max", pids},
              {cpu_root_ + "/" + name + "/cpu.shares",
               std::to_string(
                   std::max<std::uint64_t>(2, std::uint64_t{limits.cpu_weight} * 1024 / 100))}};
    // v1 limits memory+swap, so it must follow the memory limit it may not undercut.
    no_swap = mem + "/memory.memsw.limit_in_bytes";
  }
  for (const auto& [path, value] : writes)
    if (auto s = Write(path, value); !s) return fail(s.error());
  // The file is absent without swap accounting, and v1 may refuse the value
  // (EINVAL); either way the memory limit holds and only swap use is left to
  // the host's bounds.
  const std::string swap_value = unified_ ? "0" : memory;
  if (int err = WriteRaw(no_swap, swap_value);
      err && err != ENOENT && !(err == EINVAL && !unified_))
    return fail(Errno(ErrorCode::kInternal, "write '" + swap_value + "' to", no_swap, err));
  return Ok();
}

Status CgroupTree::AddProcess(const std::string& name, pid_t pid) const {
  if (auto s = ValidName("group", name); !s) return s;
  if (pid <= 0) return MakeError(ErrorCode::kInvalidArgument, "invalid pid " + std::to_string(pid));
  for (const auto& dir : DirsOf(name)) {
    const std::string procs = dir + "/cgroup.procs";
    if (int err = WriteRaw(procs, std::to_string(pid))) {
      if (err == ESRCH)
        return MakeError(ErrorCode::kNotFound,
                         "no process " + std::to_string(pid) + " to move to " + procs);
      return Errno(err == ENOENT ? ErrorCode::kNotFound : ErrorCode::kInternal,
                   "write " + std::to_string(pid) + " to", procs, err);
    }
  }
  return Ok();
}

Result<std::vector<pid_t>> CgroupTree::Processes(const std::string& name) const {
  if (auto s = ValidName("group", name); !s) return s.error();
  return ReadPids(ProcsDir(name) + "/cgroup.procs");
}

Status CgroupTree::KillAll(const std::string& name, milliseconds timeout) const {
  if (auto s = ValidName("group", name); !s) return s;
  const auto deadline = Clock::now() + timeout;
  const std::string dir = ProcsDir(name);
  const std::string freezer =
      freezer_root_.empty() ? "" : freezer_root_ + "/" + name + "/freezer.state";
  for (;;) {
    auto pids = ReadPids(dir + "/cgroup.procs");
    // A group whose process list is gone was already emptied and is being
    // removed (Remove runs only on empty groups; a crash can stop it halfway).
    if (!pids && ::access(dir.c_str(), F_OK) != 0 && errno == ENOENT) return Ok();
    if (!pids) return pids.error();
    if (pids->empty()) return Ok();
    if (Clock::now() >= deadline)
      return MakeError(ErrorCode::kUnavailable,
                       std::to_string(pids->size()) + " processes remain in " + dir + " after " +
                           std::to_string(timeout.count()) + "ms of SIGKILL");
    if (unified_) {
      // cgroup.kill also catches children forked while it runs; kernels
      // before 5.14 lack it and get the signal loop.
      int err = WriteRaw(dir + "/cgroup.kill", "1");
      if (err && err != ENOENT)
        return Errno(ErrorCode::kInternal, "write '1' to", dir + "/cgroup.kill", err);
      if (err) SignalAll(*pids);
    } else if (!freezer.empty() && WriteRaw(freezer, "FROZEN") == 0) {
      // Frozen tasks cannot fork, so the pid list stays complete while we
      // signal it; they die once thawed.
      const auto wait_until = std::min(deadline, Clock::now() + kFreezeWait);
      for (;;) {
        auto state = fs::ReadFile(freezer);
        if (!state || state->rfind("FROZEN", 0) == 0 || Clock::now() >= wait_until) break;
        std::this_thread::sleep_for(milliseconds(1));
      }
      if (auto frozen = ReadPids(dir + "/cgroup.procs")) pids = std::move(frozen);
      SignalAll(*pids);
      if (auto s = Write(freezer, "THAWED"); !s) return s;
    } else {
      SignalAll(*pids);
    }
    std::this_thread::sleep_for(kPoll);
  }
}

Status CgroupTree::Remove(const std::string& name) const {
  if (auto s = ValidName("group", name); !s) return s;
  if (auto pids = Processes(name); pids && !pids->empty())
    return MakeError(ErrorCode::kConflict, "cgroup " + ProcsDir(name) + " still has processes (" +
                                               std::to_string(pids->size()) + "); kill them first");
  for (const auto& dir : DirsOf(name))
    if (auto s = RemoveDir(dir); !s) return s;
  return Ok();
}

std::vector<std::string> CgroupTree::List() const {
  std::vector<std::string> names;
  for (const auto& root : Roots()) {
    for (auto& n : fs::ListDir(root)) {
      struct stat st {};
      if (::lstat((root + "/" + n).c_str(), &st) == 0 && S_ISDIR(st.st_mode) && !Has(names, n))
        names.push_back(std::move(n));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::uint64_t> CgroupTree::MemoryUsage(const std::string& name) const {
  if (auto s = ValidName("group", name); !s) return s.error();
  if (unified_) return ReadU64(unified_root_ + "/" + name + "/memory.current");
  return ReadU64(memory_root_ + "/" + name + "/memory.usage_in_bytes");
}

Result<std::uint64_t> CgroupTree::OomKills(const std::string& name) const {
  if (auto s = ValidName("group", name); !s) return s.error();
  if (unified_) return ReadKey(unified_root_ + "/" + name + "/memory.events", "oom_kill");
  return ReadKey(memory_root_ + "/" + name + "/memory.oom_control", "oom_kill");
}

}  // namespace sbx::jail
