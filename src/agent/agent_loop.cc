#include "agent/agent_loop.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

#include "agent/executions.h"
#include "agent/mcp_host.h"
#include "agent/protocol.h"
#include "servers/process/process.h"

namespace sbx::agent {
namespace {

// JSON-RPC error codes: the standard ones, and server-defined ones for the
// control calls (the range JSON-RPC reserves for implementations).
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kCallFailed = -32000;
constexpr int kNotFoundCode = -32004;
constexpr int kUnavailableCode = -32003;
constexpr int kConflictCode = -32009;

int CodeFor(const Error& e) {
  switch (e.code) {
    case ErrorCode::kNotFound: return kNotFoundCode;
    case ErrorCode::kConflict: return kConflictCode;
    case ErrorCode::kInvalidArgument: return kInvalidParams;
    case ErrorCode::kUnavailable: return kUnavailableCode;
    default: return kCallFailed;
  }
}

// A connection from sandboxd. Read only by the I/O loop; written by the loop
// and by workers answering tool calls, one frame at a time.
struct Connection {
  explicit Connection(int fd) : channel(fd) {}
  Channel channel;
  std::mutex send_mu;
  bool Send(const Json& frame) {
    std::lock_guard lock(send_mu);
    return static_cast<bool>(channel.Send(frame));
  }
  bool SendText(const std::string& text) {
    std::lock_guard lock(send_mu);
    return static_cast<bool>(channel.SendText(text));
  }
};

class Agent {
 public:
  explicit Agent(int listen_fd) : listen_fd_(listen_fd), started_(std::chrono::steady_clock::now()) {}
  int Run();

 private:
  void Accept();
  void Serve(std::size_t index);
  Json Dispatch(Message& m, const std::shared_ptr<Connection>& from);
  Result<Json> StartExecution(const Json& params, std::vector<OwnedFd>& fds);
  void Reap();

  int listen_fd_;
  int signal_fd_ = -1;
  std::chrono::steady_clock::time_point started_;
  std::vector<std::shared_ptr<Connection>> channels_;
  Executions executions_;
  McpHost mcp_;
};

int Agent::Run() {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  // Blocked, so the kernel queues it for the signalfd even though pid 1
  // ignores signals it has no handler for.
  sigprocmask(SIG_BLOCK, &chld, nullptr);
  signal_fd_ = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd_ < 0) {
    std::perror("sandbox-agent: signalfd");
    return 1;
  }
  for (;;) {
    std::vector<struct pollfd> fds;
    fds.push_back({listen_fd_, POLLIN, 0});
    fds.push_back({signal_fd_, POLLIN, 0});
    for (const auto& c : channels_) fds.push_back({c->channel.fd(), POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      std::perror("sandbox-agent: poll");
      return 1;
    }
    if (fds[1].revents) Reap();
    if (fds[0].revents) Accept();
    // Serve from the back so a closed channel's removal keeps earlier indexes.
    for (std::size_t i = fds.size(); i-- > 2;)
      if (fds[i].revents) Serve(i - 2);
  }
}

void Agent::Accept() {
  int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return;
  channels_.push_back(std::make_shared<Connection>(fd));
}

void Agent::Serve(std::size_t index) {
  std::shared_ptr<Connection> conn = channels_[index];
  Channel& ch = conn->channel;
  auto filled = ch.Fill();
  bool open = filled && *filled;
  while (open) {
    auto next = ch.Next();
    if (!next) {
      std::fprintf(stderr, "sandbox-agent: dropping connection: %s\n", next.error().message.c_str());
      open = false;
      break;
    }
    if (!*next) break;
    Json reply = Dispatch(**next, conn);
    if (!reply.is_null() && !conn->Send(reply)) open = false;
  }
  if (!open) channels_.erase(channels_.begin() + static_cast<std::ptrdiff_t>(index));
}

Json Agent::Dispatch(Message& m, const std::shared_ptr<Connection>& from) {
  const Json id = m.body.value("id", Json());
  const std::string method = m.body.value("method", "");
  const Json params = m.body.value("params", Json::object());
  Result<Json> result = MakeError(ErrorCode::kInternal, "");
  if (method == "mcp") {
    // Answered through the connection, now or when the tool call finishes.
    std::weak_ptr<Connection> weak = from;
    mcp_.Message(id, params, [weak](const std::string& text) {
      if (auto c = weak.lock()) c->SendText(text);
    });
    return Json();
  }
  if (method == "mcp.close") {
    result = mcp_.Close(params);
  } else if (method == "mcp.session") {
    result = mcp_.Probe(params);
  } else if (method == "health") {
    auto uptime = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
    result = Json{{"status", "ok"}, {"pid", ::getpid()}, {"uptime_ms", uptime.count()},
                  {"running_executions", executions_.running()}, {"mcp_sessions", mcp_.sessions()}};
  } else if (method == "kill_all") {
    // Everything in the jail but the agent (kill(-1) from init spares init):
    // also what left its step's process group, such as a detached fork bomb.
    executions_.MarkAllKilled();
    ::kill(-1, SIGKILL);
    result = Json::object();
  } else if (method == "exec.start") {
    result = StartExecution(params, m.fds);
  } else if (method == "exec.status" || method == "exec.kill") {
    std::string name = params.is_object() ? params.value("name", "") : "";
    if (method == "exec.kill") {
      auto s = executions_.Kill(name);
      result = s ? Result<Json>(Json::object()) : Result<Json>(s.error());
    } else {
      result = executions_.Describe(name);
    }
  } else {
    if (id.is_null()) return Json();
    return ErrorResponse(id, kMethodNotFound, "unknown method " + method);
  }
  if (id.is_null()) return Json();  // a notification: no answer
  if (!result) return ErrorResponse(id, CodeFor(result.error()), result.error().message);
  return ResultResponse(id, std::move(*result));
}

Result<Json> Agent::StartExecution(const Json& params, std::vector<OwnedFd>& fds) {
  if (fds.size() != 1) return MakeError(ErrorCode::kInvalidArgument, "exec.start needs the log descriptor");
  ExecutionSpec spec;
  try {
    spec.name = params.at("name").get<std::string>();
    spec.cwd = params.at("cwd").get<std::string>();
    spec.env = params.at("env").get<std::vector<std::string>>();
    for (const auto& s : params.at("steps"))
      spec.steps.push_back(Step{s.at("argv").get<std::vector<std::string>>(), s.at("phase").get<std::string>()});
  } catch (const std::exception& e) {
    return MakeError(ErrorCode::kInvalidArgument, std::string("exec.start: ") + e.what());
  }
  if (auto s = executions_.Start(std::move(spec), std::move(fds[0])); !s) return s.error();
  return executions_.Describe(params.at("name").get<std::string>());
}

void Agent::Reap() {
  struct signalfd_siginfo info;
  while (::read(signal_fd_, &info, sizeof info) > 0) {
  }
  // Children of the servers get their own statuses back; the rest are
  // execution steps or orphans.
  servers::process::ReapExited([this](pid_t pid, int status) { executions_.OnExit(pid, status); });
}

}  // namespace

int RunAgent(int listen_fd) { return Agent(listen_fd).Run(); }

}  // namespace sbx::agent
