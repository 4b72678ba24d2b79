#include "servers/desktop_commander/session_table.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>

#include "core/utf8.h"
#include "js_text/date.h"
#include "js_text/number.h"
#include "js_text/string.h"

namespace sbx::servers::desktop_commander {
namespace {

constexpr std::size_t kMaxEnded = 100;            // upstream keeps the last 100
constexpr std::size_t kMaxPendingInput = 8u << 20;
constexpr std::size_t kReadChunk = 65536;         // what Node reads from a pipe at once
constexpr std::int64_t kKillDelayMs = 1000;       // forceTerminate's SIGINT → SIGKILL

void SetNonBlocking(int fd) {
  if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Keeps the newest `max` bytes, cut at a character boundary.
void KeepTail(std::string& s, std::size_t max) {
  if (s.size() <= max) return;
  s.erase(0, utf8::NextBoundary(s, s.size() - max));
}

bool SamePid(const Session& s, double pid) { return static_cast<double>(s.pid) == pid; }

}  // namespace

SessionTable::SessionTable(const Options& options) : options_(options) {}

SessionTable::~SessionTable() {
  {
    Lock lock(mu_);
    stopping_ = true;
  }
  Wake();
  if (pump_.joinable()) pump_.join();
  Lock lock(mu_);
  // Whatever still runs dies with its process group; Child's destructor
  // signals the group and reaps.
  for (auto& s : running_)
    if (s->child) s->child->Signal(SIGKILL);
  // An ended session whose pipes are still open has descendants holding
  // them, typically its shell's background jobs, which upstream (and so
  // this table) lets outlive the shell; they end with the server too. Its
  // process group still has members, so its id cannot have been reused.
  for (auto& s : ended_)
    if (s->stdout_open || s->stderr_open) ::kill(-s->pid, SIGKILL);
  running_.clear();
  ended_.clear();
}

void SessionTable::Wake() {
  if (!wake_.valid()) return;
  std::uint64_t one = 1;
  (void)!::write(wake_.get(), &one, sizeof one);
}

Result<Session*> SessionTable::Start(Lock&, std::vector<std::string> argv) {
  if (running_.size() >= options_.max_sessions)
    return MakeError(ErrorCode::kUnavailable, "too many running processes (this server's limit is " +
                                                  std::to_string(options_.max_sessions) +
                                                  "); end one with force_terminate first");
  if (!wake_.valid()) {
    wake_ = UniqueFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!wake_.valid()) return MakeError(ErrorCode::kInternal, "eventfd failed");
  }
  process::Spec spec;
  spec.argv = std::move(argv);
  spec.env = process::DefaultEnvironment();
  spec.env.push_back("TERM=xterm-256color");  // as upstream sets it
  spec.cwd = options_.workspace;
  spec.pipe_stdin = true;
  auto child = process::Spawn(spec);
  if (!child) return child.error();
  auto s = std::make_unique<Session>();
  s->child = std::move(*child);
  s->pid = s->child->pid();
  s->start_ms = js::DateNow();
  SetNonBlocking(s->child->stdout_fd());
  SetNonBlocking(s->child->stderr_fd());
  SetNonBlocking(s->child->stdin_fd());
  Session* raw = s.get();
  running_.push_back(std::move(s));
  if (!pump_.joinable()) pump_ = std::thread([this] { Pump(); });
  Wake();
  return raw;
}

Session* SessionTable::Lookup(double pid, bool ended) const {
  const auto& list = ended ? ended_ : running_;
  for (const auto& s : list)
    if (SamePid(*s, pid)) return s.get();
  return nullptr;
}

Session* SessionTable::Active(double pid) { return Lookup(pid, false); }

std::optional<std::string> SessionTable::NewOutput(double pid) {
  if (Session* s = Lookup(pid, false)) {
    std::string out = std::move(s->last_output);
    s->last_output.clear();
    return out;
  }
  if (Session* s = Lookup(pid, true)) {
    std::string code = s->exit_code ? std::to_string(*s->exit_code) : "null";
    double runtime = static_cast<double>(s->end_ms - s->start_ms) / 1000;
    return "Process completed with exit code " + code + "\nRuntime: " + js::NumberToString(runtime) + "s\nFinal output:\n" +
           s->final_output;
  }
  return std::nullopt;
}

bool SessionTable::SendInput(double pid, const std::string& input) {
  Session* s = Active(pid);
  if (!s || s->child->stdin_fd() < 0) return false;
  if (s->pending_input.size() + input.size() > kMaxPendingInput) return false;
  s->pending_input += input;
  Wake();
  return true;
}

bool SessionTable::Terminate(double pid) {
  Session* s = Active(pid);
  if (!s) return false;
  // Like upstream, the interrupt goes to the process itself only (a shell
  // waiting for its command survives it, a REPL sees KeyboardInterrupt),
  // through its pidfd so a recycled pid is never hit; the SIGKILL a second
  // later goes to its whole process group, so nothing it started lingers.
  ::syscall(SYS_pidfd_send_signal, s->child->exit_fd(), SIGINT, nullptr, 0);
  s->kill_at_ms = js::DateNow() + kKillDelayMs;
  Wake();
  return true;
}

std::vector<const Session*> SessionTable::Running() const {
  std::vector<const Session*> out;
  for (const auto& s : running_) out.push_back(s.get());
  return out;
}

void SessionTable::RemoveListener(double, SessionListener* l) {
  for (auto* list : {&running_, &ended_})
    for (auto& s : *list) std::erase(s->listeners, l);
}

void SessionTable::ReadFrom(Session& s, bool from_stdout, bool drain) {
  int fd = from_stdout ? s.child->stdout_fd() : s.child->stderr_fd();
  bool& open = from_stdout ? s.stdout_open : s.stderr_open;
  if (!open || fd < 0) {
    open = false;
    return;
  }
  char buf[kReadChunk];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) {
      open = false;
      return;
    }
    if (!s.ended) {
      // Node's data.toString(): each chunk decoded on its own.
      std::string text = js::DecodeUtf8Lossy(std::string_view(buf, static_cast<std::size_t>(n)));
      s.output += text;
      s.last_output += text;
      KeepTail(s.output, options_.max_session_output);
      KeepTail(s.last_output, options_.max_session_output);
      auto listeners = s.listeners;
      for (auto* l : listeners) l->OnChunk(s, text, from_stdout);
    }
    if (!drain) return;
  }
}

void SessionTable::Finish(std::unique_ptr<Session> s) {
  process::Exit exit = *s->child->Poll();
  s->ended = true;
  s->end_ms = js::DateNow();
  if (exit.signal == 0) s->exit_code = exit.code;
  s->final_output = s->output + s->last_output;  // 0.2.7 records both
  s->child->CloseStdin();
  s->pending_input.clear();
  Session* raw = s.get();
  auto same = std::find_if(ended_.begin(), ended_.end(), [&](const auto& e) { return e->pid == raw->pid; });
  if (same != ended_.end()) *same = std::move(s);  // a Map keeps a re-set key's place
  else ended_.push_back(std::move(s));
  if (ended_.size() > kMaxEnded) ended_.erase(ended_.begin());
  auto listeners = raw->listeners;
  for (auto* l : listeners) l->OnExit(*raw);
}

void SessionTable::Pump() {
  Lock lock(mu_);
  enum Kind { kOut, kErr, kExit, kIn };
  while (!stopping_) {
    std::vector<pollfd> fds{{wake_.get(), POLLIN, 0}};
    std::vector<std::pair<Session*, Kind>> who{{nullptr, kOut}};
    std::int64_t next_kill = 0;
    auto watch = [&](Session* s, int fd, short events, Kind kind) {
      fds.push_back({fd, events, 0});
      who.emplace_back(s, kind);
    };
    for (auto* list : {&running_, &ended_}) {
      for (auto& s : *list) {
        if (s->stdout_open && s->child->stdout_fd() >= 0) watch(s.get(), s->child->stdout_fd(), POLLIN, kOut);
        if (s->stderr_open && s->child->stderr_fd() >= 0) watch(s.get(), s->child->stderr_fd(), POLLIN, kErr);
        if (s->ended) continue;
        watch(s.get(), s->child->exit_fd(), POLLIN, kExit);
        if (!s->pending_input.empty() && s->child->stdin_fd() >= 0)
          watch(s.get(), s->child->stdin_fd(), POLLOUT, kIn);
        if (s->kill_at_ms && (!next_kill || s->kill_at_ms < next_kill)) next_kill = s->kill_at_ms;
      }
    }
    int timeout = 1000;
    if (next_kill) timeout = static_cast<int>(std::clamp<std::int64_t>(next_kill - js::DateNow(), 0, 1000));
    lock.unlock();
    int ready = ::poll(fds.data(), fds.size(), timeout);
    lock.lock();
    if (stopping_) break;
    if (ready < 0 && errno != EINTR) continue;
    std::uint64_t drained;
    while (::read(wake_.get(), &drained, sizeof drained) > 0) {
    }
    // Output before exits, so an exit is reported after everything the
    // process wrote before it.
    for (std::size_t i = 1; i < fds.size(); ++i) {
      auto [s, kind] = who[i];
      if (fds[i].revents && (kind == kOut || kind == kErr)) ReadFrom(*s, kind == kOut, false);
    }
    for (std::size_t i = 1; i < fds.size(); ++i) {
      auto [s, kind] = who[i];
      if (!fds[i].revents) continue;
      if (kind == kIn) {
        ssize_t n = ::write(s->child->stdin_fd(), s->pending_input.data(), s->pending_input.size());
        if (n > 0) s->pending_input.erase(0, static_cast<std::size_t>(n));
        else if (n < 0 && errno != EAGAIN && errno != EINTR) {
          s->pending_input.clear();
          s->child->CloseStdin();
        }
      } else if (kind == kExit && !s->ended && s->child->Poll()) {
        ReadFrom(*s, true, true);
        ReadFrom(*s, false, true);
        auto it = std::find_if(running_.begin(), running_.end(), [&](const auto& r) { return r.get() == s; });
        std::unique_ptr<Session> owned = std::move(*it);
        running_.erase(it);
        Finish(std::move(owned));
      }
    }
    std::int64_t now = js::DateNow();
    for (auto& s : running_) {
      if (s->kill_at_ms && now >= s->kill_at_ms) {
        s->child->Signal(SIGKILL);
        s->kill_at_ms = 0;
      }
    }
    cv_.notify_all();
  }
}

}  // namespace sbx::servers::desktop_commander
