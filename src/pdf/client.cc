#include "pdf/client.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/unique_fd.h"
#include "pdf/protocol.h"
#include "servers/process/process.h"

namespace sbx::pdf {
namespace {

struct Location {
  std::mutex mu;
  UniqueFd fd;       // O_PATH descriptor of the helper (the agent's way)
  std::string path;  // or its path (outside a jail)
};

Location& Helper() {
  static Location location;
  return location;
}

std::string SignalName(int sig) {
  const char* name = ::sigabbrev_np(sig);
  return name ? std::string("SIG") + name : "signal " + std::to_string(sig);
}

Result<std::string> ReadBack(int fd, std::uint64_t max) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return MakeError(ErrorCode::kInternal, std::string("fstat: ") + std::strerror(errno));
  if (static_cast<std::uint64_t>(st.st_size) > max)
    return MakeError(ErrorCode::kTooLarge, "the PDF written is larger than " + std::to_string(max) + " bytes");
  std::string out(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return MakeError(ErrorCode::kInternal, "reading the helper's output failed");
    done += static_cast<std::size_t>(n);
  }
  return out;
}

}  // namespace

void UseHelperBesideExecutable() {
  char self[4096];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return;
  std::string exe(self, static_cast<std::size_t>(n));
  std::string path = exe.substr(0, exe.rfind('/') + 1) + kHelperName;
  int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  Location& h = Helper();
  std::lock_guard lock(h.mu);
  h.fd.Reset(fd);
  h.path = path;
}

void UseHelperPath(const std::string& path) {
  Location& h = Helper();
  std::lock_guard lock(h.mu);
  h.fd.Reset();
  h.path = path;
}

Result<Reply> RunHelper(const Request& request, const Limits& limits, const std::function<bool()>& cancelled) {
  if (cancelled && cancelled()) return MakeError(ErrorCode::kUnavailable, "cancelled");
  servers::process::Spec spec;
  {
    Location& h = Helper();
    std::lock_guard lock(h.mu);
    if (h.fd.valid()) spec.executable_fd = h.fd.get();
    else if (!h.path.empty()) spec.executable = h.path;
    else return MakeError(ErrorCode::kInternal, "the PDF helper (sandbox-pdf) is not configured");
  }
  spec.argv = {kHelperName,
               request.command,
               "--memory-bytes",
               std::to_string(limits.memory_bytes),
               "--cpu-seconds",
               std::to_string(limits.cpu_seconds),
               "--inputs",
               std::to_string(request.inputs.size()),
               "--max-input-bytes",
               std::to_string(limits.max_input_bytes),
               "--max-output",
               std::to_string(limits.max_output_bytes)};
  spec.argv.insert(spec.argv.end(), request.arguments.begin(), request.arguments.end());
  spec.env = {"LANG=C.UTF-8"};
  spec.cwd = "/";
  spec.inherit_fds = request.inputs;
  UniqueFd out_fd;
  if (request.writes_pdf) {
    out_fd.Reset(::memfd_create("sandbox-pdf-output", MFD_CLOEXEC));
    if (!out_fd.valid()) return MakeError(ErrorCode::kInternal, std::string("memfd_create: ") + std::strerror(errno));
    spec.inherit_fds.push_back(out_fd.get());
  }
  servers::process::RunOptions options;
  options.timeout = limits.timeout;
  // The reply is the text plus JSON escaping (at most 6 bytes a byte).
  options.max_output = static_cast<std::size_t>(limits.max_output_bytes * 6 + (1 << 16));
  options.kill_on_overflow = true;
  options.cancelled = cancelled;
  // The exec descriptor is read without the lock: it is set at start-up
  // and lives as long as the process.
  auto run = servers::process::Run(spec, options);
  if (!run) {
    if (run.error().code == ErrorCode::kUnavailable) return run.error();
    return MakeError(ErrorCode::kInternal, "the PDF helper could not be started: " + run.error().message);
  }
  if (run->cancelled) return MakeError(ErrorCode::kUnavailable, "cancelled");
  if (run->timed_out)
    return MakeError(ErrorCode::kUnavailable,
                     "reading the PDF took longer than " + std::to_string(limits.timeout.count() / 1000) +
                         " seconds (the helper was stopped)");
  if (run->overflowed)
    return MakeError(ErrorCode::kTooLarge, "the PDF's text is larger than " + std::to_string(limits.max_output_bytes) + " bytes");
  if (run->exit.signal == SIGXCPU)
    return MakeError(ErrorCode::kUnavailable, "reading the PDF used more than " + std::to_string(limits.cpu_seconds) +
                                                  " seconds of CPU time (the helper was stopped)");
  if (run->exit.signal == SIGKILL)
    return MakeError(ErrorCode::kUnavailable,
                     "reading the PDF was stopped: the helper was killed (its CPU time or the sandbox's memory ran out)");
  if (run->exit.signal != 0)
    return MakeError(ErrorCode::kUnavailable,
                     "the PDF could not be read: the helper crashed (" + SignalName(run->exit.signal) + ")");
  if (run->exit.code != 0)
    return MakeError(ErrorCode::kUnavailable, "the PDF could not be read: the helper failed (exit status " +
                                                  std::to_string(run->exit.code) + ")");
  Json reply = Json::parse(run->out, nullptr, false);
  if (reply.is_discarded() || !reply.is_object())
    return MakeError(ErrorCode::kInternal, "the PDF helper's reply is not a JSON object");
  if (auto e = reply.find("error"); e != reply.end()) {
    std::string message = e->is_string() ? e->get<std::string>() : "the PDF could not be read";
    bool too_large = reply.value("code", "") == "too_large";
    Error error = MakeError(too_large ? ErrorCode::kTooLarge : ErrorCode::kInvalidArgument, message);
    if (auto i = reply.find("input"); i != reply.end() && i->is_number_integer() && request.failed_input)
      *request.failed_input = i->get<int>();
    return error;
  }
  Reply out{std::move(reply), {}};
  if (request.writes_pdf) {
    auto pdf = ReadBack(out_fd.get(), limits.max_output_bytes);
    if (!pdf) return pdf.error();
    out.pdf = std::move(*pdf);
  }
  return out;
}

}  // namespace sbx::pdf
