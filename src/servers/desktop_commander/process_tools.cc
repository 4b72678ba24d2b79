// start_process, read_process_output, interact_with_process,
// force_terminate and list_sessions: upstream's algorithms
// (tools/improved-process-tools.ts, terminal-manager.ts) with their timers
// (a 100 ms prompt check while a process starts, 200 ms polls while
// reading, a 50 ms settle after a prompt-like chunk) run against the
// session table's stream of chunks and exits.
#include <algorithm>
#include <cmath>

#include "js_text/date.h"
#include "js_text/json.h"
#include "js_text/number.h"
#include "js_text/string.h"
#include "servers/desktop_commander/command_filter.h"
#include "servers/desktop_commander/process_state.h"
#include "servers/desktop_commander/server_state.h"

namespace sbx::servers::desktop_commander {
namespace {

using Clock = SessionTable::Clock;
using std::chrono::milliseconds;

const char* kWaiting = "\n\U0001F504 ";
const char* kFinished = "\n\u2705 ";

// Node's setTimeout: a delay outside [1, 2^31 - 1] ms becomes 1 ms.
Clock::duration TimerDelay(double ms) {
  if (!(ms >= 1 && ms <= 2147483647.0)) ms = 1;
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
}

// The end of a wait: upstream's timeout, cut at the server's max_wait.
Clock::time_point Deadline(const ServerState& state, Clock::time_point start, double ms) {
  return std::min(start + TimerDelay(ms), start + std::chrono::duration_cast<Clock::duration>(state.options.max_wait));
}

double Number(const Json& args, const char* key, double fallback) {
  auto it = args.find(key);
  return it != args.end() && it->is_number() ? it->get<double>() : fallback;
}

bool Empty(std::string_view s) { return js::Trim(s).empty(); }

// Waits for the next event or `until`, waking at least every 100 ms so a
// cancelled call ends promptly; false once the call was cancelled.
bool Wait(ServerState& state, SessionTable::Lock& lock, Clock::time_point until, const ToolContext& ctx) {
  if (ctx.cancelled()) return false;
  state.sessions.WaitUntil(lock, std::min(until, Clock::now() + milliseconds(100)));
  return !ctx.cancelled();
}

// Registers a listener for the lifetime of a wait.
class Listening {
 public:
  Listening(SessionTable& table, Session& s, SessionListener* l) : table_(table), pid_(s.pid), l_(l) {
    table.AddListener(s, l);
  }
  ~Listening() { table_.RemoveListener(pid_, l_); }

 private:
  SessionTable& table_;
  double pid_;
  SessionListener* l_;
};

// terminal-manager's executeCommand: until a prompt-like stdout chunk, a
// periodic check finding a prompt, the timeout (all "blocked"), or the exit.
struct StartWait : SessionListener {
  bool done = false, blocked = false;
  std::string output;
  void OnChunk(Session& s, const std::string& text, bool from_stdout) override {
    if (done || !from_stdout || !EndsWithQuickPrompt(text)) return;
    s.blocked = true;
    Resolve(s, true);
  }
  void OnExit(Session& s) override {
    if (!done) Resolve(s, false);
  }
  void Resolve(Session& s, bool is_blocked) {
    done = true;
    blocked = is_blocked;
    output = s.output;
  }
};

}  // namespace

ToolResult StartProcess(ServerState& state, const Json& args, const ToolContext& ctx) {
  std::string command = args.value("command", "");
  double timeout_ms = Number(args, "timeout_ms", 0);
  if (!IsCommandAllowed(command, state.config.Value("blockedCommands")))
    return ToolResult::Error("Error: Command not allowed: " + command);

  // The shell: the argument, the configured default, else /bin/sh; a
  // non-string default is shown as is but Node then runs /bin/sh.
  std::string shell_shown = "/bin/sh", shell_run = "/bin/sh";
  if (auto it = args.find("shell"); it != args.end() && it->is_string() && !it->get<std::string>().empty()) {
    shell_shown = shell_run = it->get<std::string>();
  } else if (Json configured = state.config.Value("defaultShell"); js::ToBoolean(configured)) {
    shell_shown = js::ToString(configured);
    if (configured.is_string()) shell_run = configured.get<std::string>();
  }
  std::string to_run = command;
  if (js::Trim(command).substr(0, 4) == "ssh " && command.find(" -t") == std::string::npos &&
      command.rfind("ssh ", 0) == 0)
    to_run = "ssh -t " + command.substr(4);

  auto lock = state.sessions.Acquire();
  auto started = state.sessions.Start(lock, {shell_run, "-c", to_run});
  if (!started) {
    if (started.error().code == ErrorCode::kUnavailable && started.error().message.rfind("too many", 0) == 0)
      return ToolResult::Error("Error: " + started.error().message);
    return ToolResult::Error("Error: Failed to get process ID. The command could not be executed.");
  }
  Session& s = **started;
  const double pid = s.pid;
  StartWait wait;
  Listening listening(state.sessions, s, &wait);
  Clock::time_point start = Clock::now(), deadline = Deadline(state, start, timeout_ms);
  Clock::time_point tick = start + milliseconds(100);
  while (!wait.done) {
    Clock::time_point now = Clock::now();
    if (now >= tick) {
      tick += milliseconds(100);
      if (!Empty(s.output) && AnalyzeProcessState(s.output).waiting_for_input) {
        s.blocked = true;
        wait.Resolve(s, true);
        break;
      }
    }
    if (now >= deadline || ctx.cancelled()) {
      s.blocked = true;
      wait.Resolve(s, true);
      break;
    }
    Wait(state, lock, std::min(tick, deadline), ctx);
  }

  ProcessState ps = AnalyzeProcessState(wait.output);
  std::string status;
  std::string pid_text = js::NumberToString(pid);
  if (ps.waiting_for_input) status = kWaiting + FormatProcessState(ps, pid_text);
  else if (ps.finished) status = kFinished + FormatProcessState(ps, pid_text);
  else if (wait.blocked) status = "\n\u23F3 Process is running. Use read_process_output to get more output.";
  return ToolResult::Text("Process started with PID " + pid_text + " (shell: " + shell_shown + ")\nInitial output:\n" +
                          wait.output + status);
}

namespace {

// read_process_output's promise: a prompt-like chunk (either stream) whose
// unread output shows a prompt ends it at once.
struct ReadWait : SessionListener {
  SessionTable& table;
  double pid;
  const std::string& output;  // what the 200 ms polls collected so far
  bool done = false, early = false, timed_out = false;
  std::optional<ProcessState> state;
  std::string value;
  ReadWait(SessionTable& t, double p, const std::string& o) : table(t), pid(p), output(o) {}
  void OnChunk(Session&, const std::string& text, bool) override {
    if (done || !EndsWithQuickPrompt(text)) return;
    std::string fresh = table.NewOutput(pid).value_or("");
    if (fresh.empty()) fresh = text;
    ProcessState st = AnalyzeProcessState(output + fresh);
    if (st.waiting_for_input) {
      early = true;
      state = st;
      Resolve(std::move(fresh), false);
    }
  }
  void OnExit(Session&) override {}
  void Resolve(std::string v, bool timeout) {
    if (done) return;
    done = true;
    timed_out = timeout;
    value = std::move(v);
  }
};

}  // namespace

ToolResult ReadProcessOutput(ServerState& state, const Json& args, const ToolContext& ctx) {
  const double pid = Number(args, "pid", 0);
  const double timeout_ms = Number(args, "timeout_ms", 5000);
  auto lock = state.sessions.Acquire();
  Session* s = state.sessions.Active(pid);
  if (!s) return ToolResult::Error("No active session found for PID " + js::NumberToString(pid));

  std::string output;
  ReadWait wait(state.sessions, pid, output);
  std::string initial = state.sessions.NewOutput(pid).value_or("");
  if (!initial.empty()) {
    ProcessState st = AnalyzeProcessState(initial);
    if (st.waiting_for_input) {
      wait.early = true;
      wait.state = st;
    }
    wait.Resolve(initial, false);
  } else {
    Listening listening(state.sessions, *s, &wait);
    Clock::time_point start = Clock::now(), deadline = Deadline(state, start, timeout_ms);
    Clock::time_point tick = start + milliseconds(200);
    while (!wait.done) {
      Clock::time_point now = Clock::now();
      if (now >= tick) {
        tick += milliseconds(200);
        std::string fresh = state.sessions.NewOutput(pid).value_or("");
        if (!fresh.empty()) {
          std::string current = output + fresh;
          ProcessState st = AnalyzeProcessState(current);
          if (st.waiting_for_input) {
            wait.early = true;
            wait.state = st;
            wait.Resolve(fresh, false);
            break;
          }
          output = current;
          if (st.finished) {
            wait.state = st;
            wait.Resolve(fresh, false);  // upstream then appends it a second time
            break;
          }
        }
      }
      if (now >= deadline || ctx.cancelled()) {
        wait.Resolve(state.sessions.NewOutput(pid).value_or(""), true);
        break;
      }
      Wait(state, lock, std::min(tick, deadline), ctx);
    }
  }
  output += wait.value;
  ProcessState st = wait.state ? *wait.state : AnalyzeProcessState(output);
  std::string status;
  std::string pid_text = js::NumberToString(pid);
  if (wait.early && st.waiting_for_input) status = kWaiting + FormatProcessState(st, pid_text);
  else if (st.finished) status = kFinished + FormatProcessState(st, pid_text);
  else if (wait.timed_out) status = "\n\u23F1\uFE0F Timeout reached - process may still be running";
  return ToolResult::Text((output.empty() ? "No new output available" : output) + status);
}

namespace {

// interact_with_process: a prompt-like chunk schedules a look 50 ms later.
struct InteractWait : SessionListener {
  std::vector<Clock::time_point> checks;
  void OnChunk(Session&, const std::string& text, bool) override {
    if (EndsWithQuickPrompt(text)) checks.push_back(Clock::now() + milliseconds(50));
  }
  void OnExit(Session&) override {}
};

}  // namespace

ToolResult InteractWithProcess(ServerState& state, const Json& args, const ToolContext& ctx) {
  const double pid = Number(args, "pid", 0);
  const std::string input = args.value("input", "");
  const double timeout_ms = Number(args, "timeout_ms", 8000);
  const bool wait_for_prompt = !(args.contains("wait_for_prompt") && args["wait_for_prompt"].is_boolean() &&
                                 !args["wait_for_prompt"].get<bool>());
  const std::string pid_text = js::NumberToString(pid);
  auto lock = state.sessions.Acquire();
  std::string line = !input.empty() && input.back() == '\n' ? input : input + "\n";
  if (!state.sessions.SendInput(pid, line))
    return ToolResult::Error("Error: Failed to send input to process " + pid_text +
                             ". The process may have exited or doesn't accept input.");
  if (!wait_for_prompt)
    return ToolResult::Text("\u2705 Input sent to process " + pid_text +
                            ". Use read_process_output to get the response.");

  std::string output;
  std::optional<ProcessState> ps;
  bool early = false, done = false;
  InteractWait waiter;
  {
    Listening listening(state.sessions, *state.sessions.Active(pid), &waiter);
    const double max_attempts = std::ceil(timeout_ms / 200);
    double attempts = 0;
    Clock::time_point start = Clock::now();
    Clock::time_point tick = start + milliseconds(200);
    Clock::time_point cap = start + std::chrono::duration_cast<Clock::duration>(state.options.max_wait);
    while (!done) {
      Clock::time_point now = Clock::now();
      std::sort(waiter.checks.begin(), waiter.checks.end());
      while (!done && !waiter.checks.empty() && waiter.checks.front() <= now) {
        waiter.checks.erase(waiter.checks.begin());
        std::string fresh = state.sessions.NewOutput(pid).value_or("");
        if (fresh.empty()) continue;
        output += fresh;
        ProcessState st = AnalyzeProcessState(output);
        if (st.waiting_for_input) {
          ps = st;
          early = done = true;
        }
      }
      if (done) break;
      if (now >= tick) {
        tick += milliseconds(200);
        std::string fresh = state.sessions.NewOutput(pid).value_or("");
        if (!fresh.empty()) {
          output += fresh;
          ps = AnalyzeProcessState(output);
          if (ps->waiting_for_input) early = true;
          if (ps->waiting_for_input || ps->finished) break;
        }
        if (++attempts >= max_attempts) break;
      }
      if (now >= cap || ctx.cancelled()) break;
      Clock::time_point next = tick;
      if (!waiter.checks.empty()) next = std::min(next, *std::min_element(waiter.checks.begin(), waiter.checks.end()));
      Wait(state, lock, next, ctx);
    }
  }
  std::string clean = CleanProcessOutput(output, input);
  bool timed_out = !early && !(ps && ps->finished) && !(ps && ps->waiting_for_input);
  ProcessState st = ps ? *ps : AnalyzeProcessState(output);
  std::string status;
  if (st.waiting_for_input) status = kWaiting + FormatProcessState(st, pid_text);
  else if (st.finished) status = kFinished + FormatProcessState(st, pid_text);
  else if (timed_out) status = "\n\u23F1\uFE0F Response may be incomplete (timeout reached)";
  if (Empty(clean) && !timed_out)
    return ToolResult::Text("\u2705 Input executed in process " + pid_text + ".\n\U0001F4ED (No output produced)" + status);
  std::string text = "\u2705 Input executed in process " + pid_text;
  text += !Empty(clean) ? ":\n\n\U0001F4E4 Output:\n" + clean : ".\n\U0001F4ED (No output produced)";
  if (!status.empty()) text += "\n\n" + status;
  return ToolResult::Text(text);
}

ToolResult ForceTerminate(ServerState& state, const Json& args, const ToolContext&) {
  const double pid = Number(args, "pid", 0);
  auto lock = state.sessions.Acquire();
  if (state.sessions.Terminate(pid))
    return ToolResult::Text("Successfully initiated termination of session " + js::NumberToString(pid));
  return ToolResult::Text("No active session found for PID " + js::NumberToString(pid));
}

ToolResult ListSessions(ServerState& state, const Json&, const ToolContext&) {
  auto lock = state.sessions.Acquire();
  auto running = state.sessions.Running();
  if (running.empty()) return ToolResult::Text("No active sessions");
  std::int64_t now = js::DateNow();
  std::string text;
  for (const Session* s : running) {
    if (!text.empty()) text += '\n';
    double seconds = js::MathRound(static_cast<double>(now - s->start_ms) / 1000);
    text += "PID: " + std::to_string(s->pid) + ", Blocked: " + (s->blocked ? "true" : "false") +
            ", Runtime: " + js::NumberToString(seconds) + "s";
  }
  return ToolResult::Text(text);
}

}  // namespace sbx::servers::desktop_commander
