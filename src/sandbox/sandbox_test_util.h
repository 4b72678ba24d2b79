// Test-only helpers for the sandbox tests: a settable clock, a Manager over a
// fresh SQLite store in a temporary data dir with real jails (the real
// sandbox-agent, in a cgroup parent of the test's own), signed-URL parsing,
// uploads built with libarchive, a tar.gz member lister, and probes that run
// shell commands inside a sandbox's jail.
//
// Needs root (as sandboxd does). Every jail a test starts is destroyed in
// TearDown, and the test's cgroup parent directories are removed.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "archive/archive_test_util.h"
#include "archive/signed_url.h"
#include "core/clock.h"
#include "core/fs.h"
#include "core/ids.h"
#include "jail/cgroup.h"
#include "jail/spawn.h"
#include "sandbox/jails.h"
#include "sandbox/manager.h"
#include "store/store.h"

namespace sbx::sandbox::testing {

using archive::testing::ListTree;
using archive::testing::ModeOf;
using archive::testing::ReadAll;
using archive::testing::TarWriter;
using archive::testing::TempDir;
using archive::testing::WriteFile;
using Tree = std::vector<std::string>;

// Time that only moves when the test says so.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(UnixMicros now) : now_(now) {}
  UnixMicros Now() const override { return now_; }
  void Set(UnixMicros t) { now_ = t; }
  void AdvanceSeconds(std::int64_t s) { now_ += s * 1'000'000; }

 private:
  UnixMicros now_;
};

// 2023-11-14T22:13:20.250000Z: a quarter second past a whole second, so that
// second truncation is visible.
inline constexpr UnixMicros kStart = 1'700'000'000'250'000;
inline constexpr char kPublicUrl[] = "http://sbx.test:9000";
inline constexpr uid_t kUidBase = 1'000'000'000;
inline constexpr uid_t kUidCount = 1'000'000;

struct ObjectUrl {
  std::string base;  // up to "/objects/"
  std::string sandbox_id, object_id, expires, signature;
};

// Splits "{base}/objects/{sandbox}/{object}?expires=E&signature=S".
inline ObjectUrl ParseObjectUrl(const std::string& url) {
  ObjectUrl u;
  std::size_t objects = url.find("/objects/");
  std::size_t q = url.find('?');
  if (objects == std::string::npos || q == std::string::npos) {
    ADD_FAILURE() << "not an object URL: " << url;
    return u;
  }
  u.base = url.substr(0, objects);
  std::string path = url.substr(objects + 9, q - objects - 9);
  u.sandbox_id = path.substr(0, path.find('/'));
  u.object_id = path.substr(path.find('/') + 1);
  std::string query = url.substr(q + 1);
  std::size_t amp = query.find('&');
  if (query.rfind("expires=", 0) == 0 && amp != std::string::npos &&
      query.compare(amp + 1, 10, "signature=") == 0) {
    u.expires = query.substr(8, amp - 8);
    u.signature = query.substr(amp + 11);
  } else {
    ADD_FAILURE() << "unexpected query: " << query;
  }
  return u;
}

// Member names of a tar.gz in archive order, typed: "d ./", "f ./a", "l ./l".
inline Tree ArchiveMembers(const std::string& path) {
  Tree out;
  struct archive* a = archive_read_new();
  archive_read_support_filter_all(a);
  archive_read_support_format_all(a);
  if (archive_read_open_filename(a, path.c_str(), 1 << 16) != ARCHIVE_OK) {
    ADD_FAILURE() << "open " << path << ": " << archive_error_string(a);
    archive_read_free(a);
    return out;
  }
  struct archive_entry* e;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    std::string type = archive_entry_filetype(e) == AE_IFDIR   ? "d "
                       : archive_entry_filetype(e) == AE_IFLNK ? "l "
                                                               : "f ";
    out.push_back(type + archive_entry_pathname(e));
    archive_read_data_skip(a);
  }
  archive_read_free(a);
  return out;
}

// The entries of ListTree(root) that are directly in root.
inline Tree TopLevel(const std::string& root) {
  Tree out;
  for (const auto& line : ListTree(root))
    if (line.find('/') == std::string::npos) out.push_back(line);
  return out;
}

inline const store::SandboxRecord& NoRecord() {
  static const store::SandboxRecord r;
  return r;
}

// Asserts that `r` failed with `code` and `message`.
template <class R>
void ExpectError(const R& r, ErrorCode code, const std::string& message) {
  ASSERT_FALSE(r.ok()) << "expected: " << message;
  EXPECT_EQ(r.error().code, code) << r.error().message;
  EXPECT_EQ(r.error().message, message);
}

template <class R>
void ExpectCode(const R& r, ErrorCode code) {
  ASSERT_FALSE(r.ok()) << "expected an error";
  EXPECT_EQ(r.error().code, code) << r.error().message;
}

// True while `pid` names a process (a zombie included).
inline bool ProcessExists(pid_t pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

// Destroys every group below `parent`, reaps, and removes the parent
// directories from every hierarchy. Returns false if anything was left.
inline bool DestroyCgroupParent(const std::string& parent) {
  bool clean = true;
  auto tree = jail::CgroupTree::Open(parent);
  if (tree) {
    for (const auto& name : tree->List()) {
      Status s = jail::DestroyJail(*tree, name);
      if (!s) {
        ADD_FAILURE() << "destroying jail " << name << ": " << s.error().message;
        clean = false;
      }
    }
  }
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  for (const auto& hierarchy : fs::ListDir("/sys/fs/cgroup")) {
    std::string dir = "/sys/fs/cgroup/" + hierarchy + "/" + parent;
    if (::access(dir.c_str(), F_OK) == 0 && ::rmdir(dir.c_str()) != 0) {
      ADD_FAILURE() << "cannot remove " << dir << ": " << std::strerror(errno);
      clean = false;
    }
  }
  return clean;
}

// A Manager over a fresh store and data dir, with real jails in a cgroup
// parent of this test's own.
class ManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = store::OpenSqliteStore(dir_ / "state.db");
    ASSERT_TRUE(s.ok()) << s.error().message;
    store_ = std::move(s).value();
    ASSERT_NO_FATAL_FAILURE(OpenJails());
    manager_ = std::make_unique<Manager>(Config(), *store_, clock_, signer_, *jails_);
    SetDeathTarget(manager_.get());
  }

  void TearDown() override {
    SetDeathTarget(nullptr);
    manager_.reset();
    jails_.reset();
    EXPECT_TRUE(DestroyCgroupParent(cgroup_parent_));
  }

  // The configuration of every Manager the fixture makes.
  virtual ManagerConfig Config() {
    ManagerConfig config;
    config.data_dir = data_dir_;
    config.public_url = std::string(kPublicUrl) + "/";
    config.url_expiry_minutes = 30;
    config.max_upload_bytes = 1 << 20;
    return config;
  }
  virtual JailConfig JailSettings() {
    JailConfig j;
    j.agent_path = SANDBOX_AGENT_PATH;
    j.cgroup_parent = cgroup_parent_;
    j.limits.memory_bytes = 512ull << 20;
    j.limits.pids = 128;
    j.tmp_bytes = 16ull << 20;
    j.uid_base = kUidBase;
    j.uid_count = kUidCount;
    return j;
  }

  void OpenJails() {
    auto j = Jails::Open(JailSettings(), [this](const std::string& id) {
      std::lock_guard lock(death_mu_);
      deaths_.push_back(id);
      if (death_target_) death_target_->OnAgentDeath(id);
    });
    ASSERT_TRUE(j.ok()) << j.error().message;
    jails_ = std::move(j).value();
  }
  void SetDeathTarget(Manager* m) {
    std::lock_guard lock(death_mu_);
    death_target_ = m;
  }
  std::vector<std::string> Deaths() {
    std::lock_guard lock(death_mu_);
    return deaths_;
  }

  // sandboxd "crashes": the Manager and Jails objects go away without
  // releasing anything; the jails keep running.
  void Crash() {
    SetDeathTarget(nullptr);
    manager_.reset();
    jails_.reset();
  }
  // A new sandboxd on the same data dir, store and cgroup parent (Recover is
  // the test's to call).
  void Restart() {
    ASSERT_NO_FATAL_FAILURE(OpenJails());
    manager_ = std::make_unique<Manager>(Config(), *store_, clock_, signer_, *jails_);
    SetDeathTarget(manager_.get());
  }

  store::SandboxRecord Acquire(const std::string& owner, std::vector<std::string> servers = {"git"},
                               std::optional<std::int64_t> ttl = 7200) {
    AcquireRequest req;
    req.server_names = std::move(servers);
    req.ttl_seconds = ttl;
    auto r = manager_->Acquire(owner, req);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? r.value() : NoRecord();
  }

  std::string SandboxDir(const std::string& id) const { return data_dir_ + "/sandboxes/" + id; }
  std::string LayersJson(const std::string& id) const { return ReadAll(SandboxDir(id) + "/layers.json"); }
  LayerState Layers(const std::string& id) const {
    auto state = Workspace(SandboxDir(id)).ReadLayers();
    EXPECT_TRUE(state.ok()) << state.error().message;
    return state.ok() ? *state : LayerState{};
  }
  std::string LayerDir(const std::string& id, const std::string& layer) const {
    return SandboxDir(id) + "/layers/" + layer;
  }
  // The names below layers/, sorted.
  Tree LayerNames(const std::string& id) const {
    Tree out;
    for (const auto& line : TopLevel(SandboxDir(id) + "/layers")) out.push_back(line.substr(2));
    return out;
  }
  std::string StoredStatus(const std::string& id) {
    auto r = store_->GetSandbox(id);
    if (!r.ok() || !r->has_value()) return "<missing>";
    return (*r)->status;
  }
  // Polls the store until the sandbox's status is `status` (5 s at most).
  bool WaitForStatus(const std::string& id, const std::string& status) {
    for (int i = 0; i < 500; ++i) {
      if (StoredStatus(id) == status) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  // The host pid of the sandbox's agent (pid 1 of the jail's pid namespace),
  // or -1.
  pid_t AgentPid(const std::string& id) {
    if (!jails_) return -1;
    auto pids = jails_->cgroups().Processes(id);
    if (!pids) return -1;
    for (pid_t pid : *pids) {
      std::ifstream status("/proc/" + std::to_string(pid) + "/status");
      std::string line;
      while (std::getline(status, line))
        if (line.rfind("NSpid:", 0) == 0 && line.size() >= 2 && line.substr(line.size() - 2) == "\t1") return pid;
    }
    return -1;
  }
  // SIGKILLs the agent and waits until it is gone from its cgroup.
  void KillAgent(const std::string& id) {
    pid_t pid = AgentPid(id);
    ASSERT_GT(pid, 0) << "no agent for " << id;
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    for (int i = 0; i < 500 && AgentPid(id) == pid; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_NE(AgentPid(id), pid);
  }

  // Runs `script` with /bin/sh inside the sandbox's jail (through the agent,
  // as root of the jail, cwd /) and returns its output (stdout and stderr).
  std::string RunIn(const std::string& id, const std::string& script) {
    std::string name = "probe-" + std::to_string(++probes_);
    std::string log = dir_ / (name + ".log");
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
      ADD_FAILURE() << "cannot create " << log;
      return "<no log>";
    }
    Json params = {{"name", name}, {"cwd", "/"}, {"env", {"PATH=/usr/bin:/bin", "LC_ALL=C"}},
                   {"steps", {{{"argv", {"/bin/sh", "-c", script}}, {"phase", "running"}}}}};
    auto started = jails_->Call(id, "exec.start", params, {fd});
    ::close(fd);
    if (!started) {
      ADD_FAILURE() << "exec.start in " << id << ": " << started.error().message;
      return "<not started>";
    }
    for (int i = 0; i < 1000; ++i) {
      auto st = jails_->Call(id, "exec.status", {{"name", name}});
      if (!st) {
        ADD_FAILURE() << "exec.status: " << st.error().message;
        break;
      }
      if ((*st)["status"] != "running") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return ReadAll(log);
  }
  // /data as the sandbox sees it: "./a", "./d", "./d/b" … sorted, one per line.
  std::string DataTree(const std::string& id) {
    return RunIn(id, "cd /data && find . -mindepth 1 | sort");
  }
  // The members of a fresh dump of the sandbox.
  Tree DumpMembers(const std::string& owner, const std::string& id) {
    auto dump = manager_->Dump(owner, id);
    EXPECT_TRUE(dump.ok()) << dump.error().message;
    if (!dump.ok()) return {"<no dump>"};
    auto path = manager_->ObjectPath(id, ParseObjectUrl(dump->url).object_id);
    EXPECT_TRUE(path.ok());
    return path.ok() ? ArchiveMembers(*path) : Tree{"<no path>"};
  }

  // Writes the archive `build` makes to the part file of a fresh upload of
  // `url` and commits it. Returns the object id.
  std::string PutArchive(const std::string& id, const Result<SignedObjectUrl>& url,
                         const std::function<void(TarWriter&)>& build) {
    EXPECT_TRUE(url.ok()) << url.error().message;
    if (!url.ok()) return "";
    ObjectUrl u = ParseObjectUrl(url->url);
    auto target = manager_->BeginUpload(id, u.object_id);
    EXPECT_TRUE(target.ok());
    if (!target.ok()) return "";
    {
      TarWriter w(target->part_path);
      build(w);
    }
    struct stat st {};
    EXPECT_EQ(::stat(target->part_path.c_str(), &st), 0);
    Status s = manager_->CommitUpload(id, u.object_id, *target, static_cast<std::uint64_t>(st.st_size));
    EXPECT_TRUE(s.ok()) << s.error().message;
    return u.object_id;
  }
  // An initialize upload.
  std::string Upload(const std::string& owner, const std::string& id,
                     const std::function<void(TarWriter&)>& build) {
    return PutArchive(id, manager_->CreateUploadUrl(owner, id), build);
  }
  // An execution upload for `name`.
  std::string UploadExecution(const std::string& owner, const std::string& id, const std::string& name,
                              const std::function<void(TarWriter&)>& build) {
    return PutArchive(id, manager_->CreateExecutionUploadUrl(owner, id, name), build);
  }
  void Initialize(const std::string& owner, const std::string& id,
                  const std::function<void(TarWriter&)>& build) {
    Upload(owner, id, build);
    auto r = manager_->Initialize(owner, id);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }

  TempDir dir_;
  std::string data_dir_ = dir_ / "data";
  std::string cgroup_parent_ = "sbxtest-mgr-" + std::to_string(::getpid()) + "-" + ids::RandomToken(6);
  FakeClock clock_{kStart};
  archive::UrlSigner signer_{std::string(32, 'k')};
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<Jails> jails_;
  std::unique_ptr<Manager> manager_;
  int probes_ = 0;

 private:
  std::mutex death_mu_;
  Manager* death_target_ = nullptr;
  std::vector<std::string> deaths_;
};

}  // namespace sbx::sandbox::testing
