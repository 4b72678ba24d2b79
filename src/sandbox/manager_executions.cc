// The execution API: an uploaded tar.gz is unpacked into /exec/<name> in the
// sandbox's jail and `python3 main.py` runs there in the background (after
// its requirements, when it lists any), its output going to a log that only
// sandboxd can reach; logs are read by byte cursor; the execution directory
// comes back as a tar.gz.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "archive/pack.h"
#include "core/fs.h"
#include "core/ids.h"
#include "core/log.h"
#include "sandbox/manager.h"

namespace sbx::sandbox {
namespace {

constexpr const char* kPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

Error NoExecution(const std::string& id, const std::string& name) {
  return MakeError(ErrorCode::kNotFound, "Execution '" + name + "' not found in local sandbox " + id +
                                             ": upload its archive, then call POST /local-sandbox/" + id +
                                             "/execute");
}

// True if the staged file `name` exists and has content beyond blank lines
// and comments (an empty requirements.txt asks for nothing).
bool ListsSomething(const std::string& dir, const std::string& name) {
  struct stat st{};
  std::string path = dir + "/" + name;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  auto text = fs::ReadFile(path, 1 << 20);
  if (!text) return true;  // too large to be nothing
  std::size_t pos = 0;
  while (pos < text->size()) {
    std::size_t end = text->find('\n', pos);
    if (end == std::string::npos) end = text->size();
    std::string line = text->substr(pos, end - pos);
    pos = end + 1;
    auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '#') return true;
  }
  return false;
}

Json FailStep() {
  // The message travels in the environment, never through a shell's parser.
  return Json{{"argv", {"/bin/sh", "-c", "printf '%s\\n' \"$SANDBOXD_MESSAGE\" >&2; exit 1"}}, {"phase", "pending"}};
}

// Cuts `text` so that it does not end inside a UTF-8 sequence that the next
// read will complete.
std::size_t CompleteUtf8Prefix(const std::string& text, bool at_end) {
  if (at_end || text.empty()) return text.size();
  std::size_t i = text.size();
  std::size_t back = 0;
  while (i > 0 && back < 4) {
    unsigned char c = static_cast<unsigned char>(text[i - 1]);
    if ((c & 0xC0) != 0x80) {
      std::size_t need = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
      return need > back + 1 ? i - 1 : text.size();
    }
    --i;
    ++back;
  }
  return text.size();
}

}  // namespace

Status ValidateExecutionName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 128 && name[0] != '.';
  for (char c : name)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  if (ok) return Ok();
  return MakeError(ErrorCode::kInvalidArgument,
                   "execution_name must be 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'");
}

Result<SignedObjectUrl> Manager::CreateExecutionUploadUrl(const std::string& owner, const std::string& id,
                                                          const std::string& name) {
  auto sandbox = Get(owner, id);
  if (!sandbox) return sandbox.error();
  if (auto s = ValidateExecutionName(name); !s) return s.error();
  store::ArchiveRecord record = NewArchiveRecord(id, store::ArchiveKind::kExecutionUpload);
  record.label = name;
  if (auto s = store_.InsertArchive(record); !s) return s.error();
  return Sign("PUT", id, record.object_id, record.expires_at);
}

Status Manager::Execute(const std::string& owner, const std::string& id, const std::string& name) {
  auto mu = LockFor(id);
  std::lock_guard lock(*mu);
  auto sandbox = Get(owner, id);
  if (!sandbox) return sandbox.error();
  if (auto s = ValidateExecutionName(name); !s) return s;
  auto upload = store_.LatestComplete(id, store::ArchiveKind::kExecutionUpload, name);
  if (!upload) return upload.error();
  if (!*upload)
    return MakeError(ErrorCode::kInvalidArgument,
                     "No archive has been uploaded for execution '" + name + "' of local sandbox " + id +
                         ": get a URL from POST /local-sandbox/" + id +
                         "/execution-upload-url, PUT the tar.gz to it, then call execute");
  if (auto s = EnsureJail(id); !s) return s;
  auto state = ExecutionState(id, name);
  if (state && (*state == "pending" || *state == "running"))
    return MakeError(ErrorCode::kConflict, "Execution '" + name + "' is still " + *state +
                                               "; wait for it to finish before executing it again");

  Workspace ws = WorkspaceOf(id);
  auto layers = ws.ReadLayers();
  if (!layers) return layers.error();
  auto staged = StageUpload(ws, (*upload)->object_id, layers->uid);
  if (!staged) return staged.error();
  const std::string staging = staged->first;
  Json steps = Json::array();
  std::vector<std::string> env = {kPath, "HOME=/root", "LANG=C.UTF-8", "TMPDIR=/tmp", "PYTHONUNBUFFERED=1",
                                  "AGENT_WORKSPACE=/data", "EXECUTION_NAME=" + name};
  // Read from the staging copy: the sandbox cannot touch it yet.
  bool wants_pip = ListsSomething(staging, "requirements.txt");
  bool wants_apt = ListsSomething(staging, "packages.txt");
  if (wants_apt) {
    env.push_back(
        "SANDBOXD_MESSAGE=sandboxd: cannot install packages.txt: system packages cannot be installed inside a "
        "sandbox (its /usr is the host's, read-only); use requirements.txt for Python packages");
    steps.push_back(FailStep());
  } else if (wants_pip && !jails_.config().egress) {
    env.push_back(
        "SANDBOXD_MESSAGE=sandboxd: cannot install requirements.txt: no package index is reachable (this "
        "deployment gives sandboxes no network access; start sandboxd with --sandbox-egress to allow it)");
    steps.push_back(FailStep());
  } else if (wants_pip) {
    steps.push_back({{"argv", {"python3", "-m", "pip", "install", "--user", "--break-system-packages",
                               "--disable-pip-version-check", "--no-input", "-r", "requirements.txt"}},
                     {"phase", "pending"}});
  }
  steps.push_back({{"argv", {"python3", "main.py"}}, {"phase", "running"}});

  // The previous run of this name goes away first (moved out of the
  // sandbox's reach, then deleted).
  std::string target = ws.exec_dir() + "/" + name;
  std::string old = ws.tmp_dir() + "/old-" + ids::RandomToken(9);
  if (::rename(target.c_str(), old.c_str()) == 0) log::IfFailed(fs::RemoveTree(old), "removing an old run");
  if (::rename(staging.c_str(), target.c_str()) != 0) {
    log::IfFailed(fs::RemoveTree(staging), "clean-up");
    return MakeError(ErrorCode::kInternal, "cannot place the execution directory");
  }
  std::string log_path = ws.logs_dir() + "/" + name + ".log";
  ::unlink((ws.logs_dir() + "/" + name + ".status").c_str());
  int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (log_fd < 0) return MakeError(ErrorCode::kInternal, "cannot create the execution log");
  Json params = {{"name", name}, {"cwd", "/exec/" + name}, {"env", env}, {"steps", steps}};
  auto started = jails_.Call(id, "exec.start", params, {log_fd});
  ::close(log_fd);
  if (!started) return started.error();
  return Ok();
}

Result<std::string> Manager::ExecutionState(const std::string& id, const std::string& name) {
  const std::string base = WorkspaceOf(id).logs_dir() + "/" + name;
  auto state = jails_.Call(id, "exec.status", {{"name", name}});
  if (state) {
    std::string status = state->value("status", "failed");
    // A finished execution's outcome is kept beside its log, so it outlives
    // the agent that ran it (an agent replaced after a death starts empty).
    if ((status == "completed" || status == "failed") && !fs::Exists(base + ".status"))
      log::IfFailed(fs::WriteFileAtomic(base + ".status", status, 0600), "recording an execution's outcome");
    return status;
  }
  if (!fs::Exists(base + ".log")) return NoExecution(id, name);
  if (auto recorded = fs::ReadFile(base + ".status", 64); recorded && (*recorded == "completed" || *recorded == "failed"))
    return *recorded;
  // Known, but its agent is gone before it finished (it died, or was replaced).
  return std::string("failed");
}

Result<std::string> Manager::ExecutionStatus(const std::string& owner, const std::string& id,
                                             const std::string& name) {
  auto sandbox = Get(owner, id);
  if (!sandbox) return sandbox.error();
  if (auto s = ValidateExecutionName(name); !s) return NoExecution(id, name);
  return ExecutionState(id, name);
}

Result<ExecutionLogs> Manager::ReadExecutionLogs(const std::string& owner, const std::string& id,
                                                 const std::string& name, std::uint64_t cursor) {
  auto status = ExecutionStatus(owner, id, name);
  if (!status) return status.error();
  ExecutionLogs out;
  out.status = *status;
  out.cursor = cursor;
  int fd = ::open((WorkspaceOf(id).logs_dir() + "/" + name + ".log").c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return out;
  struct stat st{};
  ::fstat(fd, &st);
  std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
  if (cursor < size) {
    std::string chunk(std::min<std::uint64_t>(size - cursor, config_.max_log_chunk), '\0');
    ssize_t n = ::pread(fd, chunk.data(), chunk.size(), static_cast<off_t>(cursor));
    chunk.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    chunk.resize(CompleteUtf8Prefix(chunk, cursor + chunk.size() >= size && out.status != "running" &&
                                               out.status != "pending"));
    out.cursor = cursor + chunk.size();
    out.logs = std::move(chunk);
  }
  ::close(fd);
  return out;
}

Result<SignedObjectUrl> Manager::ExportArtifacts(const std::string& owner, const std::string& id,
                                                 const std::string& name) {
  auto mu = LockFor(id);
  std::lock_guard lock(*mu);
  auto sandbox = Get(owner, id);
  if (!sandbox) return sandbox.error();
  if (!ValidateExecutionName(name)) return NoExecution(id, name);
  Workspace ws = WorkspaceOf(id);
  if (!fs::Exists(ws.logs_dir() + "/" + name + ".log")) return NoExecution(id, name);
  if (auto s = EnsureJail(id); !s) return s.error();
  auto root = jails_.DupRootFd(id);
  if (!root) return root.error();
  store::ArchiveRecord record = NewArchiveRecord(id, store::ArchiveKind::kArtifacts);
  record.label = name;
  std::string path = ws.dumps_dir() + "/" + ArchiveFileName(record.object_id);
  auto packed = archive::PackDirectoryBeneath(*root, "exec/" + name, path);
  ::close(*root);
  if (!packed) {
    if (packed.error().code == ErrorCode::kNotFound)
      return MakeError(ErrorCode::kNotFound, "The directory of execution '" + name + "' no longer exists");
    return packed.error();
  }
  return RecordPacked(std::move(record), path);
}

}  // namespace sbx::sandbox
